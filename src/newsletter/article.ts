import { OperationalError } from '../diagnostics/failure';
import type { Site } from '../model/site';
import { LANGUAGES, type Lang } from '../shared/lang';
import { articlePath, prefixLang } from '../shared/route';

/** One edition of an article as the newsletter mails it. */
export interface MailedEdition {
  lang: Lang;
  title: string;
  description: string;
  /** YYYY-MM-DD. */
  date: string;
  /** The edition's absolute URL. */
  url: string;
  /** The first paragraphs, as HTML with absolute links and as plain text. */
  paragraphs: { html: string; text: string }[];
}

export interface MailedArticle {
  /** The route's path: what deliveries are recorded against. */
  route: string;
  editions: Partial<Record<Lang, MailedEdition>>;
  /** Editions held back (draft, scheduled), whose readers get the other edition. */
  held: { lang: Lang; why: string }[];
}

/** At most this many paragraphs, and no more once this many characters of text are reached. */
const MAX_PARAGRAPHS = 3;
const ENOUGH_CHARACTERS = 600;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** The text of a fragment of the site's HTML: tags dropped, character references decoded. */
function textOf(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, name: string) => {
      if (name[0] === '#')
        return String.fromCodePoint(
          name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1)),
        );
      return ENTITIES[name] ?? whole;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The first paragraphs of a compiled body: the top-level `<p>` elements with text, images left
 * out (mail programs block them, and the page has them), links made absolute for a message read
 * far from the site.
 */
export function leadParagraphs(html: string, baseUrl: string): { html: string; text: string }[] {
  const paragraphs: { html: string; text: string }[] = [];
  let characters = 0;
  for (const match of html.matchAll(/<p>([\s\S]*?)<\/p>/g)) {
    const inner = (match[1] ?? '')
      .replace(/<img\b[^>]*>/g, '')
      .replace(/(href)="\/(?!\/)/g, `$1="${baseUrl}/`)
      .trim();
    const text = textOf(inner);
    if (text === '') continue;
    paragraphs.push({ html: inner, text });
    characters += text.length;
    if (paragraphs.length >= MAX_PARAGRAPHS || characters >= ENOUGH_CHARACTERS) break;
  }
  return paragraphs;
}

/**
 * The article a route names ("/blog/tech/Git", or its Portuguese edition's URL "/pt/blog/tech/Git"),
 * with each published edition. Drafts and scheduled articles are refused, with what to do.
 */
export function mailedArticle(site: Site, given: string, baseUrl: string): MailedArticle {
  const path = (prefixLang(given) === 'pt' ? given.slice('/pt'.length) : given).replace(/\/+$/, '');
  const article = site.articleByPath.get(path);
  const held = site.held.filter((h) => articlePath(h.source.category, h.source.slug) === path);
  const why = (h: (typeof held)[number]) => (h.state.kind === 'draft' ? 'a draft' : `scheduled for ${h.state.date}`);
  if (!article) {
    if (held.length > 0) {
      throw new OperationalError(
        `${path} is not published: ${held.map((h) => `the ${h.source.lang} edition is ${why(h)}`).join(', ')}`,
        'Publish it first (remove "draft: true", or wait for its date), then build and send it.',
      );
    }
    throw new OperationalError(
      `there is no article at ${path}`,
      'Give the route of a published article, as its URL reads: /blog/tech/Git.',
    );
  }
  const editions: MailedArticle['editions'] = {};
  for (const lang of LANGUAGES) {
    const edition = article.editions[lang];
    if (!edition) continue;
    const fm = edition.source.frontMatter;
    editions[lang] = {
      lang,
      title: fm.title,
      description: fm.description ?? fm.title,
      date: fm.date,
      url: `${baseUrl}${edition.url}`,
      paragraphs: leadParagraphs(edition.body.html, baseUrl),
    };
  }
  return { route: article.route.path, editions, held: held.map((h) => ({ lang: h.source.lang, why: why(h) })) };
}
