import { type Diagnostic, diagnostic } from '../diagnostics/diagnostic';
import { jsonPathPosition } from '../diagnostics/position';
import type { RasterCatalogue } from '../images/raster';
import { mediaUrls } from '../images/urls';
import type { ArticleSource } from '../load/articles';
import type { CategorySource, LoadedContent } from '../load/content';
import { digest } from '../load/digest';
import type { CompiledMarkdown } from '../markdown/compile';
import { LANGUAGES, type Lang } from '../shared/lang';
import type { Picture } from '../shared/props';
import { articlePath, editionUrl, type Route } from '../shared/route';
import { type Strings, UI_STRING_KEYS } from '../shared/strings';
import type { Translations } from '../translations/state';
import { type NeighbourMap, neighbourMap, retitledNeighbours } from './neighbours';
import { type HeldEdition, type Publication, publishedToday, type Waiting, waitingEditions } from './publication';
import { deriveRoutes } from './routes';

/** One language of an article: its source and its compiled body. */
export interface ArticleEdition {
  lang: Lang;
  url: string;
  source: ArticleSource;
  body: CompiledMarkdown;
}

/** The order of editions in a listing and in the feed: newest first, then by URL. */
export function newestFirst(x: ArticleEdition, y: ArticleEdition): number {
  // Dates are ISO (validated by the schema): their order is that of their characters, with no collation to look up.
  const [a, b] = [x.source.frontMatter.date, y.source.frontMatter.date];
  return (a < b ? 1 : a > b ? -1 : 0) || x.url.localeCompare(y.url);
}

export interface Article {
  route: Route;
  category: string;
  slug: string;
  editions: Partial<Record<Lang, ArticleEdition>>;
}

/** The whole site in memory: content, routes and compiled markdown. Input of check and render. */
export interface Site {
  content: LoadedContent;
  routes: Route[];
  /** Routes by their exact (case-sensitive) path. */
  routeByPath: ReadonlyMap<string, Route>;
  categories: ReadonlyMap<string, CategorySource>;
  articles: Article[];
  /** Articles by their route's exact path. */
  articleByPath: ReadonlyMap<string, Article>;
  /** Each article file's edition, in the order of `content.articles` (undefined for a file no route takes). */
  editions: readonly (ArticleEdition | undefined)[];
  /** Each language's editions, newest first (`newestFirst`): the order of the listings and the feeds. */
  newest: Readonly<Record<Lang, readonly ArticleEdition[]>>;
  /** Each edition's previous and next article in its category and language, by its URL. */
  neighbours: NeighbourMap;
  /** Experience dialog texts (markdown in content) as HTML, by card id and language. */
  experienceHtml: ReadonlyMap<string, Record<Lang, string>>;
  /** The raster images of content/media, published as variants (src/images). */
  images: RasterCatalogue;
  /** Maps a "/media/..." path to its published URL (a raster image's widest fallback). */
  media: (path: string) => string;
  /** The variants of a "/media/..." raster image, for a `<picture>`; undefined for any other path. */
  picture: (path: string) => Picture | undefined;
  /** The UI strings of each language: one frozen object per language, which all its pages share. */
  strings: Readonly<Record<Lang, Strings>>;
  /** What this build publishes: drafts shown (marked) or not, and its day. */
  publication: Publication;
  /** The article editions this build leaves out (drafts, scheduled ones): absent from everything above. */
  held: readonly HeldEdition[];
  /**
   * Every article edition the published site does not have, held out or shown as a draft, by
   * `waitingKey` (publication.ts).
   */
  waiting: ReadonlyMap<string, Waiting>;
  /** Which translations fell behind their counterparts (src/translations), drafts included. */
  translations: Translations;
}

export interface SiteResult {
  site: Site;
  diagnostics: Diagnostic[];
}

const PROFESSIONAL_FILE = 'content/pages/professional.json';

/**
 * Every markdown text of the content compiled for its language's pages (links, media URLs), in the
 * order of `markdownTexts`.
 */
export type Compiled = readonly CompiledMarkdown[];

/** A markdown text of the content: what it is called as an output, its text and a hash of its source. */
export interface MarkdownText {
  /** The article file, or "<json file>#<card>/<lang>" for a text inside a JSON file. */
  output: string;
  markdown: string;
  lang: Lang;
  /** The article file's content hash, or the text's own. */
  hash: string;
  /** An article's source object, the same while its file is unchanged. */
  source?: ArticleSource;
}

/** An article's body as a markdown text: read from the file only when it must be compiled. */
class ArticleText implements MarkdownText {
  constructor(readonly source: ArticleSource) {}
  get output(): string {
    return this.source.file;
  }
  get lang(): Lang {
    return this.source.lang;
  }
  get hash(): string {
    return this.source.hash;
  }
  get markdown(): string {
    return this.source.body;
  }
}

/**
 * Every markdown text of the content, with its language, in the order `createSite` takes them
 * compiled: the articles in the order of their files, then each experience card in each language.
 */
export function markdownTexts(content: LoadedContent): MarkdownText[] {
  return [
    ...content.articles.map((a) => new ArticleText(a)),
    ...content.pages.professional.experiences.flatMap((card) =>
      LANGUAGES.map(
        (lang): MarkdownText => ({
          output: experienceOutput(card.id, lang),
          markdown: card.modal_text[lang],
          lang,
          hash: digest(card.modal_text[lang]),
        }),
      ),
    ),
  ];
}

/** The name of an experience card's text in a language, as a markdown output. */
function experienceOutput(card: string, lang: Lang): string {
  return `${PROFESSIONAL_FILE}#${card}/${lang}`;
}

/**
 * The site model. Markdown comes already compiled through `compiled` (the build compiles every
 * text of `markdownTexts` first, from its cache and on worker threads); `routes` are
 * `deriveRoutes(content)`, when the caller has them already.
 *
 * The model is never changed once made. Given `previous` (the model of the session's last build),
 * an article or edition made of the same parts (source, compiled body, route) as one of
 * `previous` is that same object: what later stages work out from one such object (a page's
 * inputs, an edition's findings) is found again by it, and a one-file edit makes few new objects.
 * Nothing depends on it for being right; it only saves work.
 */
export function createSite(
  content: LoadedContent,
  compiled: Compiled,
  routes: Route[] = deriveRoutes(content),
  around: {
    previous?: Site;
    images?: RasterCatalogue;
    publication?: Publication;
    held?: readonly HeldEdition[];
    translations?: Translations;
  } = {},
): SiteResult {
  const {
    previous,
    images = new Map(),
    publication = publishedToday(),
    held = [],
    translations = { editions: new Map(), texts: [] },
  } = around;
  const diagnostics: Diagnostic[] = [];
  const sameRoutes = previous?.routes === routes;
  const routeByPath = sameRoutes ? previous.routeByPath : new Map(routes.map((r) => [r.path, r]));
  // The articles' bodies come first, in the order of their files (see markdownTexts).
  const count = content.articles.length;
  const bodies = compiled.slice(0, count);
  // The last model's bodies and their problems, read by position: a body and source that are the
  // very ones of last time have the same problems, found without reading either.
  const last = previous && lastBodies.get(previous);
  const same = last !== undefined && last.bodies.length === count && previous?.content.articles.length === count;
  const problems: (readonly Diagnostic[] | undefined)[] = same ? last.problems.slice() : new Array(count);
  for (let i = 0; i < count; i++) {
    const body = bodies[i] as CompiledMarkdown;
    const source = content.articles[i] as ArticleSource;
    if (same && body === last.bodies[i] && source === previous?.content.articles[i]) continue;
    problems[i] =
      body.problems.length === 0
        ? undefined
        : body.problems.map((problem) =>
            diagnostic(
              problem.code,
              {
                file: source.file,
                line: problem.line ? problem.line + source.bodyLine - 1 : 0,
                column: problem.column,
              },
              problem.args,
            ),
          );
  }
  for (const found of problems) if (found) diagnostics.push(...found);
  const model =
    (sameRoutes && editedArticles(content, bodies, previous, same ? last.bodies : undefined)) ||
    modelArticles(content, bodies, routeByPath, previous);
  const experienceHtml = new Map<string, Record<Lang, string>>();
  const professional = content.json.get(PROFESSIONAL_FILE)?.text ?? '';
  let next = content.articles.length;
  content.pages.professional.experiences.forEach((card, i) => {
    const html = {} as Record<Lang, string>;
    for (const lang of LANGUAGES) {
      const body = compiled[next++] as CompiledMarkdown;
      html[lang] = body.html;
      for (const problem of body.problems) {
        // The text is one JSON string: its problems are placed on its key.
        const at = jsonPathPosition(professional, ['experiences', i, 'modal_text', lang]);
        diagnostics.push(diagnostic(problem.code, { file: PROFESSIONAL_FILE, ...at }, problem.args));
      }
    }
    experienceHtml.set(card.id, html);
  });

  const site: Site = {
    content,
    routes,
    routeByPath,
    categories: new Map(content.categories.map((c) => [c.key, c])),
    ...model,
    neighbours:
      (previous && retitledNeighbours(model.newest, previous.newest, previous.neighbours)) ??
      neighbourMap(model.newest, previous?.neighbours),
    experienceHtml,
    images,
    ...mediaFunctions(previous, images, content.config.imageCdn),
    strings: uiStrings(content.strings),
    publication,
    held,
    waiting: waitingEditions({ articles: model.articles, held, publication }, previous),
    translations,
  };
  lastBodies.set(site, { bodies, problems });
  return { site, diagnostics };
}

/**
 * Each model's article bodies, in the order of its files, and the diagnostics of their problems by
 * the same order (see createSite).
 */
const lastBodies = new WeakMap<
  Site,
  { bodies: readonly CompiledMarkdown[]; problems: readonly (readonly Diagnostic[] | undefined)[] }
>();

type ModelledArticles = Pick<Site, 'articles' | 'articleByPath' | 'editions' | 'newest'>;

/**
 * The articles of the last build with the edited ones made again: when the same files are listed
 * in the same order under the same routes, each file whose source and body are those of last time
 * keeps its edition, and only the articles of the others are new. Undefined when more changed
 * (a file added, removed or renamed, or one no route takes): the articles are modelled afresh.
 */
function editedArticles(
  content: LoadedContent,
  bodies: readonly CompiledMarkdown[],
  previous: Site,
  bodiesBefore: readonly CompiledMarkdown[] | undefined,
): ModelledArticles | undefined {
  const before = previous.content.articles;
  if (before.length !== content.articles.length || previous.editions.length !== before.length) return undefined;
  const edited: number[] = [];
  for (let i = 0; i < before.length; i++) {
    const source = content.articles[i] as ArticleSource;
    const was = before[i] as ArticleSource;
    // The very source and body of last time (compared in the two lists, not read): its edition holds.
    if (
      source === was &&
      bodiesBefore !== undefined &&
      bodies[i] === bodiesBefore[i] &&
      previous.editions[i] !== undefined
    )
      continue;
    if (source.file !== was.file) return undefined;
    const edition = previous.editions[i];
    if (!edition) return undefined;
    if (source !== was || edition.body !== bodies[i]) edited.push(i);
  }
  if (edited.length === 0)
    return {
      articles: previous.articles,
      articleByPath: previous.articleByPath,
      editions: previous.editions,
      newest: previous.newest,
    };
  const editions = [...previous.editions];
  const renewed = new Map<string, Article>();
  for (const i of edited) {
    const source = content.articles[i] as ArticleSource;
    const path = articlePath(source.category, source.slug);
    const article = renewed.get(path) ?? previous.articleByPath.get(path);
    if (!article) return undefined;
    const edition: ArticleEdition = {
      lang: source.lang,
      url: editionUrl(article.route, source.lang),
      source,
      body: bodies[i] as CompiledMarkdown,
    };
    editions[i] = edition;
    renewed.set(path, { ...article, editions: { ...article.editions, [source.lang]: edition } });
  }
  const articles = [...previous.articles];
  const articleByPath = new Map(previous.articleByPath);
  for (const [path, article] of renewed) {
    const at = articles.indexOf(previous.articleByPath.get(path) as Article);
    if (at === -1) return undefined;
    articles[at] = article;
    articleByPath.set(path, article);
  }
  return { articles, articleByPath, editions, newest: reordered(previous, edited, editions) ?? newestOf(articles) };
}

/**
 * The last build's order of the editions with the edited ones in the places of those they
 * replace, when none of them moved (the same date and URL); undefined otherwise.
 */
function reordered(
  previous: Site,
  edited: readonly number[],
  editions: readonly (ArticleEdition | undefined)[],
): Site['newest'] | undefined {
  const newest = { en: [...previous.newest.en], pt: [...previous.newest.pt] };
  for (const i of edited) {
    const [was, now] = [previous.editions[i], editions[i]];
    if (
      !was ||
      !now ||
      was.lang !== now.lang ||
      was.url !== now.url ||
      was.source.frontMatter.date !== now.source.frontMatter.date
    )
      return undefined;
    const list = newest[now.lang];
    const at = list.indexOf(was);
    if (at === -1) return undefined;
    list[at] = now;
  }
  return newest;
}

/** Each language's editions of `articles`, newest first. */
function newestOf(articles: readonly Article[]): Site['newest'] {
  const newest = { en: [] as ArticleEdition[], pt: [] as ArticleEdition[] };
  for (const article of articles)
    for (const lang of LANGUAGES) if (article.editions[lang]) newest[lang].push(article.editions[lang]);
  for (const lang of LANGUAGES) newest[lang].sort(newestFirst);
  return newest;
}

/**
 * Every article, grouped from its files by route. An article or edition made of the same parts
 * (source, compiled body, route) as one of `previous` is that same object.
 */
function modelArticles(
  content: LoadedContent,
  bodies: readonly CompiledMarkdown[],
  routeByPath: ReadonlyMap<string, Route>,
  previous: Site | undefined,
): ModelledArticles {
  const sameRoutes = previous?.routeByPath === routeByPath;
  // Last build's editions by their source (a file unchanged since is the same source object).
  const before = new Map<ArticleSource, { edition: ArticleEdition; route: Route }>();
  for (const article of previous?.articles ?? [])
    for (const edition of Object.values(article.editions))
      before.set(edition.source, { edition, route: article.route });

  const articles = new Map<Route, Article>();
  const editions: (ArticleEdition | undefined)[] = [];
  content.articles.forEach((source, i) => {
    const known = before.get(source);
    // The same source under the same route table has the same route.
    const route = known && sameRoutes ? known.route : routeByPath.get(articlePath(source.category, source.slug));
    if (!route) {
      editions.push(undefined);
      return;
    }
    let article = articles.get(route);
    if (!article) {
      article = { route, category: source.category, slug: source.slug, editions: {} };
      articles.set(route, article);
    }
    const body = bodies[i] as CompiledMarkdown;
    const same = known && known.route === route && known.edition.body === body;
    const edition = same ? known.edition : { lang: source.lang, url: editionUrl(route, source.lang), source, body };
    article.editions[source.lang] = edition;
    editions.push(edition);
  });
  let shared = previous !== undefined && previous.articles.length === articles.size;
  let position = 0;
  for (const [route, article] of articles) {
    const known = previous?.articleByPath.get(route.path);
    if (known && sameArticle(known, article)) articles.set(route, known);
    if (articles.get(route) !== previous?.articles[position++]) shared = false;
  }
  // Every article as it was: the same list and index as last time.
  if (shared && previous)
    return { articles: previous.articles, articleByPath: previous.articleByPath, editions, newest: previous.newest };
  const list = [...articles.values()];
  return {
    articles: list,
    articleByPath: new Map(list.map((a) => [a.route.path, a])),
    editions,
    newest: newestOf(list),
  };
}

function sameArticle(a: Article, b: Article): boolean {
  if (a.route !== b.route || a.category !== b.category || a.slug !== b.slug) return false;
  for (const lang of LANGUAGES) if (a.editions[lang] !== b.editions[lang]) return false;
  return true;
}

/** The UI strings of each language, taken out of content/strings.json (which has every key). */
function uiStrings(all: LoadedContent['strings']): Record<Lang, Strings> {
  const byLang = {} as Record<Lang, Strings>;
  // The checker reports a missing translation (I18N001); the page shows nothing in its place.
  for (const lang of LANGUAGES)
    byLang[lang] = Object.freeze(
      Object.fromEntries(UI_STRING_KEYS.map((key) => [key, all[key][lang] ?? ''])),
    ) as Strings;
  return byLang;
}

/** `Site.media` and `Site.picture`: the last build's while the images and the CDN are the same. */
function mediaFunctions(
  previous: Site | undefined,
  images: RasterCatalogue,
  imageCdn: string | undefined,
): Pick<Site, 'media' | 'picture'> {
  if (previous && previous.images === images && previous.content.config.imageCdn === imageCdn)
    return { media: previous.media, picture: previous.picture };
  const urls = mediaUrls(images, imageCdn);
  return { media: urls.url, picture: urls.picture };
}
