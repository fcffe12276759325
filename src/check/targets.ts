import type { Site } from '../model/site';
import type { Lang } from '../shared/lang';
import { firstLang, offers, type Route } from '../shared/route';

/** A site path split into its route path and its fragment. */
export function splitHref(href: string): { path: string; hash: string | undefined } {
  const at = href.indexOf('#');
  return at === -1 ? { path: href, hash: undefined } : { path: href.slice(0, at), hash: href.slice(at + 1) };
}

/** The path `splitHref` gives, without its object: read for every link of the site on every check. */
export function hrefPath(href: string): string {
  const at = href.indexOf('#');
  return at === -1 ? href : href.slice(0, at);
}

/** The route whose path equals `path` ignoring case, when no route has it exactly. */
export function caseVariant(site: Site, path: string): Route | undefined {
  const lower = path.toLowerCase();
  return site.routes.find((r) => r.path.toLowerCase() === lower);
}

/** The language of the target edition a link from a page in `lang` opens. */
export function targetLang(route: Route, lang: Lang): Lang {
  return offers(route, lang) ? lang : firstLang(route);
}

/** Levenshtein distance, for "did you mean" hints. */
export function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length]!;
}

/** The closest route path, when one is close enough to be what was meant. */
export function closestRoute(site: Site, path: string): Route | undefined {
  let best: Route | undefined;
  let bestDistance = Infinity;
  for (const route of site.routes) {
    const d = distance(path.toLowerCase(), route.path.toLowerCase());
    if (d < bestDistance) {
      best = route;
      bestDistance = d;
    }
  }
  return bestDistance <= Math.max(2, Math.floor(path.length / 5)) ? best : undefined;
}
