import type { Lang } from './lang';

/** The kinds of page the site renders; each is one template in templates/pages. */
export type PageKind =
  | 'aboutme'
  | 'professional'
  | 'projects'
  | 'atelier'
  | 'blog'
  | 'category'
  | 'gallery'
  | 'article';

/** One page of the site (docs/product.md, Languages and URLs), offered in one or both languages. */
export interface Route {
  /** The route's own path, case-sensitive: "/blog/tech/Site". */
  path: string;
  /** Route name: the page key, the category key, or "<category>/<Slug>" for an article. */
  name: string;
  component: PageKind;
  meta: {
    /** Languages offered, in order: "en" first whenever it is offered. */
    availableLangs: Lang[];
  };
}

/** The language served at the route's own path: en when offered, otherwise pt. */
export function firstLang(route: Route): Lang {
  return route.meta.availableLangs[0] ?? 'en';
}

export function offers(route: Route, lang: Lang): boolean {
  return route.meta.availableLangs.includes(lang);
}

/** Where the Portuguese edition of a page that also offers English lives: "/pt" + the page's path. */
const PORTUGUESE_PREFIX = '/pt';

/** The URL of a page offered in both languages (English first) in `lang`: "/blog", "/pt/blog". */
export function bilingualUrl(path: string, lang: Lang): string {
  return lang === 'pt' ? `${PORTUGUESE_PREFIX}${path}` : path;
}

/**
 * The URL of one edition. The first-language edition lives at the route's path; the
 * Portuguese edition of a route that also offers English lives at "/pt" + path.
 */
export function editionUrl(route: Route, lang: Lang): string {
  return lang === firstLang(route) ? route.path : `${PORTUGUESE_PREFIX}${route.path}`;
}

/** The URLs of every edition of a route, keyed by language. */
export function editionUrls(route: Route): Partial<Record<Lang, string>> {
  const urls: Partial<Record<Lang, string>> = {};
  for (const lang of route.meta.availableLangs) urls[lang] = editionUrl(route, lang);
  return urls;
}

/**
 * The language a URL's prefix names: pt for "/pt" and below it, en otherwise. A Portuguese-only
 * page lives at its route's own path, so this is a guess where no route is known (a 404, a referer).
 */
export function prefixLang(url: string): Lang {
  return url === PORTUGUESE_PREFIX || url.startsWith(`${PORTUGUESE_PREFIX}/`) ? 'pt' : 'en';
}

/** Where a language's root leads from: "/" and "/pt" (both redirect to About Me). */
export function rootUrl(lang: Lang): string {
  return lang === 'pt' ? PORTUGUESE_PREFIX : '/';
}

/** The About Me page in a language: where "/" and "/pt" lead. */
export function homeUrl(lang: Lang): string {
  return bilingualUrl('/aboutme', lang);
}

/** The Not Found page in a language ("/404", "/pt/404"): served for every unknown URL. */
export function notFoundUrl(lang: Lang): string {
  return bilingualUrl('/404', lang);
}

/** The Blog index's route path: every category and article lives below it. */
export const BLOG_PATH = '/blog';

/** The route path of a blog category: "/blog/tech". */
export function categoryPath(key: string): string {
  return `${BLOG_PATH}/${key}`;
}

/** The route path of an article: "/blog/tech/Site" (the slug keeps its case). */
export function articlePath(category: string, slug: string): string {
  return `${categoryPath(category)}/${slug}`;
}

/** The URL of a language's RSS feed. */
export function feedUrl(lang: Lang): string {
  return `/feed.${lang}.xml`;
}

/** The URL of a language's search index (the server's, and the browser's on a static host): the list of its shards. */
export function searchIndexUrl(lang: Lang): string {
  return `/search/${lang}.json`;
}

/** The URL of one shard of a language's search index (see shared/searchShards.ts). */
export function searchShardUrl(lang: Lang, shard: number): string {
  return `/search/${lang}/${shard}.json`;
}

/** The file under dist/ of a URL: "/blog/tech/Site" -> "blog/tech/Site.html", "/" -> "index.html". */
export function pageFile(url: string): string {
  return url === '/' ? 'index.html' : `${url.replace(/^\//, '')}.html`;
}

/** The page URL a dist/ file is served at, the inverse of `pageFile`: "index.html" -> "/". */
export function pageOfFile(file: string): string {
  const page = `/${file.replace(/\.html$/, '')}`;
  return page === '/index' ? '/' : page;
}
