import { distance } from '../check/targets';
import { ARTICLE_FILE, ARTICLE_SLUG } from '../load/articles';
import { LANGUAGES, type Lang } from '../shared/lang';
import { articlePath, editionUrl, type Route } from '../shared/route';

/** A category as `site new` sees it: its key, and whether it is a photo gallery, whose page lists no articles. */
export interface CategoryKind {
  key: string;
  gallery: boolean;
}

/** What `site new <category>/<Slug>` is asked for, and what it found on disk. */
export interface NewArticleRequest {
  category: string;
  slug: string;
  /** The editions to start. */
  langs: readonly Lang[];
  /** Every category of content/categories. */
  categories: readonly CategoryKind[];
  /** The names of the files in content/blog/<category>/ (none when the folder does not exist yet). */
  existing: readonly string[];
  /** The day the editions are dated, "YYYY-MM-DD" (UTC): today, so that the draft is not also scheduled. */
  today: string;
}

/** One article file to write. */
export interface StarterEdition {
  lang: Lang;
  /** Project-relative path: content/blog/<category>/<Slug>.<lang>.md. */
  file: string;
  text: string;
  /** The edition's URL, with the languages the article has once this file is written. */
  url: string;
}

/** Why nothing is written: what is wrong, and what to do. */
export interface Refusal {
  message: string;
  hint: string;
}

/**
 * The files that start an article as a draft, or why it cannot start: a category that does not
 * exist or lists no articles, a slug a URL cannot carry, or a file the article would overwrite or
 * whose URL it would repeat in another case. Adding the missing edition of an existing article
 * (same slug, same case) is allowed.
 */
export function startArticle(request: NewArticleRequest): { editions: StarterEdition[] } | { refusal: Refusal } {
  const { category, slug, langs } = request;
  const listings = request.categories.filter((c) => !c.gallery).map((c) => c.key);
  const found = request.categories.find((c) => c.key === category);
  if (!found) return { refusal: unknownCategory(category, listings) };
  if (found.gallery) {
    return {
      refusal: {
        message: `"${category}" is a photo gallery: its page shows photos and lists no articles`,
        hint: `Choose a category that lists articles: ${listings.join(', ')}.`,
      },
    };
  }
  if (!ARTICLE_SLUG.test(slug)) return { refusal: badSlug(category, slug) };

  const folder = `content/blog/${category}`;
  const files = request.existing.flatMap((name) => {
    const match = ARTICLE_FILE.exec(name);
    return match ? [{ name, slug: match[1] as string, lang: match[2] as Lang }] : [];
  });
  const same = files.filter((f) => f.slug.toLowerCase() === slug.toLowerCase());
  // Two routes that differ only in case are ROUTE001, and one file over the other on a case-insensitive disk.
  const other = same.find((f) => f.slug !== slug);
  if (other) {
    const missing = LANGUAGES.find((lang) => !same.some((f) => f.slug === other.slug && f.lang === lang));
    return {
      refusal: {
        message: `${folder}/${other.name} already exists: "${category}/${slug}" differs from ${articlePath(category, other.slug)} only in case`,
        hint: `Choose another slug${missing ? `, or start the ${LANGUAGE_NAMES[missing]} edition of that article with "site new ${category}/${other.slug} --lang ${missing}"` : ''}.`,
      },
    };
  }
  const taken = same.find((f) => langs.includes(f.lang));
  if (taken) {
    const missing = langs.find((lang) => !same.some((f) => f.lang === lang));
    return {
      refusal: {
        message: `${folder}/${taken.name} already exists`,
        hint: missing
          ? `Start only its ${LANGUAGE_NAMES[missing]} edition with "site new ${category}/${slug} --lang ${missing}", or choose another slug.`
          : 'Edit it, or choose another slug.',
      },
    };
  }

  const route: Route = {
    path: articlePath(category, slug),
    name: `${category}/${slug}`,
    component: 'article',
    meta: { availableLangs: LANGUAGES.filter((lang) => langs.includes(lang) || same.some((f) => f.lang === lang)) },
  };
  return {
    editions: LANGUAGES.filter((lang) => langs.includes(lang)).map((lang) => ({
      lang,
      file: `${folder}/${slug}.${lang}.md`,
      text: starterText(slug, lang, request.today),
      url: editionUrl(route, lang),
    })),
  };
}

const LANGUAGE_NAMES: Record<Lang, string> = { en: 'English', pt: 'Portuguese' };

/**
 * The placeholder texts of a new edition, in its language. The Portuguese is European and addresses
 * no one (neither tu nor você).
 */
const STARTER: Record<Lang, { description: string; body: string }> = {
  en: {
    description: 'One or two sentences on what this article is about, shown in listings and search results.',
    body: 'Start writing here.\n\nThis article is a draft: `site dev` shows it, marked, and `site build` leaves it out until the line `draft: true` is taken out of the front matter.',
  },
  pt: {
    description: 'Uma ou duas frases sobre o tema deste artigo, mostradas nas listagens e nos resultados da pesquisa.',
    body: 'O texto do artigo começa aqui.\n\nEste artigo é um rascunho: o `site dev` mostra-o, assinalado, e o `site build` deixa-o de fora até que a linha `draft: true` seja retirada do início do ficheiro.',
  },
};

/** A new edition's file: front matter with placeholders, dated `today`, a draft; then a short body. */
export function starterText(slug: string, lang: Lang, today: string): string {
  const { description, body } = STARTER[lang];
  // Double-quoted (JSON is valid YAML there): a title such as "2024" or "No" stays a string.
  const front = [
    `title: ${JSON.stringify(slugTitle(slug))}`,
    `description: ${JSON.stringify(description)}`,
    `date: ${today}`,
    'draft: true',
  ];
  return `---\n${front.join('\n')}\n---\n\n${body}\n`;
}

/**
 * The words of a slug, as a placeholder title: "-" and "_" part words, and so does a capital after
 * a small letter or a digit, or the last capital of a run before a small letter.
 * "Kubernetes-Basics" → "Kubernetes Basics", "dotnetWebAPIAzure" → "dotnet Web API Azure".
 */
export function slugTitle(slug: string): string {
  return slug
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter(Boolean)
    .join(' ');
}

function badSlug(category: string, slug: string): Refusal {
  // Someone who typed the file name, or words with spaces and accents: the slug they most likely meant.
  const meant = slug
    .replace(/(\.(en|pt))?\.md$/, '')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return {
    message: `"${slug}" cannot be a slug: it may hold only the letters A-Z and a-z, digits, "-" and "_"`,
    hint: `The slug is the last part of the article's URL (/blog/${category}/<Slug>): try "site new ${category}/${meant || 'Kubernetes-Basics'}".`,
  };
}

function unknownCategory(category: string, listings: readonly string[]): Refusal {
  const closest = listings
    .map((key) => ({ key, d: distance(category.toLowerCase(), key) }))
    .sort((a, b) => a.d - b.d)[0];
  const near =
    closest && closest.d <= Math.max(2, Math.floor(category.length / 3)) ? `Did you mean "${closest.key}"? ` : '';
  return {
    message: `there is no category "${category}" (no content/categories/${category}.json)`,
    hint: `${near}The categories that list articles: ${listings.join(', ')}.`,
  };
}
