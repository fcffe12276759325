import type { CompiledMarkdown } from '../markdown/compile';
import { localizeHref } from '../model/links';
import type { Lang } from '../shared/lang';
import type { Route } from '../shared/route';

/**
 * A compiled markdown body and how each internal link in it was resolved. The resolutions are
 * what the HTML depends on besides the markdown itself: a cached body stays valid only while every
 * one of its links still resolves the same way (a target gaining or losing a translation).
 */
export interface TrackedBody {
  body: CompiledMarkdown;
  resolutions: [href: string, url: string][];
}

/** True when every internal link of a cached body still resolves to the URL it was compiled with. */
export function stillResolves(tracked: TrackedBody, lang: Lang, routes: ReadonlyMap<string, Route>): boolean {
  return tracked.resolutions.every(([href, url]) => localizeHref(href, lang, routes) === url);
}
