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

/** One page of the site (the spec's "Route"), offered in one or both languages. */
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

/**
 * The URL of one edition. The first-language edition lives at the route's path; the
 * Portuguese edition of a route that also offers English lives at "/pt" + path.
 */
export function editionUrl(route: Route, lang: Lang): string {
  return lang === firstLang(route) ? route.path : `/pt${route.path}`;
}

/** The URLs of every edition of a route, keyed by language. */
export function editionUrls(route: Route): Partial<Record<Lang, string>> {
  const urls: Partial<Record<Lang, string>> = {};
  for (const lang of route.meta.availableLangs) urls[lang] = editionUrl(route, lang);
  return urls;
}

/** The About Me page in a language: where "/" and "/pt" lead. */
export function homeUrl(lang: Lang): string {
  return lang === 'pt' ? '/pt/aboutme' : '/aboutme';
}

/** The file under dist/ of a page URL: "/blog/tech/Site" -> "blog/tech/Site.html". */
export function pageFile(url: string): string {
  return `${url.replace(/^\//, '')}.html`;
}

/** The page URL a dist/ file is served at, the inverse of `pageFile`: "index.html" -> "/". */
export function pageOfFile(file: string): string {
  const page = `/${file.replace(/\.html$/, '')}`;
  return page === '/index' ? '/' : page;
}
