import type { Lang } from '../shared/lang';
import { editionUrl, firstLang, offers, type Route } from '../shared/route';

/**
 * The URL an internal link should point to on a page in `lang`: the edition in that language
 * when the target offers it, otherwise the target's first edition. A path that is not a route
 * is left as written (the checker reports it).
 */
export function localizeHref(href: string, lang: Lang, routes: ReadonlyMap<string, Route>): string {
  const hashAt = href.indexOf('#');
  const path = hashAt === -1 ? href : href.slice(0, hashAt);
  const hash = hashAt === -1 ? '' : href.slice(hashAt);
  const route = routes.get(path);
  if (!route) return href;
  return editionUrl(route, offers(route, lang) ? lang : firstLang(route)) + hash;
}

/**
 * Rewrites a "/media/..." path, or an image variant's ("/assets/media/..."), to the image CDN when
 * one is configured.
 */
export function mediaUrl(path: string, imageCdn: string | undefined): string {
  if (!imageCdn || !(path.startsWith('/media/') || path.startsWith('/assets/media/'))) return path;
  return imageCdn.replace(/\/$/, '') + path;
}
