import { type Diagnostic, diagnostic } from '../diagnostics/diagnostic';
import type { Site } from '../model/site';
import { LANGUAGES, type Lang } from '../shared/lang';
import type { Route } from '../shared/route';
import type { InternalLink } from './links';

/**
 * LINK005: a link in a text sends its reader to a category listing that shows no article in the
 * reader's language (listings show only the articles that have an edition in the page's language),
 * so the reader lands on "no articles here yet". The Blog index lists every category by design,
 * with its count, and is not a link of the content, so it is not concerned.
 */
export function checkEmptyCategoryLinks(site: Site, links: readonly InternalLink[]): Diagnostic[] {
  const written = new Map<string, Set<Lang>>();
  for (const article of site.articles) {
    let langs = written.get(article.category);
    if (!langs) {
      langs = new Set<Lang>();
      written.set(article.category, langs);
    }
    for (const lang of LANGUAGES) if (article.editions[lang]) langs.add(lang);
  }
  // The listings that show no article in one of their languages: on most sites none, and no link need be looked at.
  const empty = (route: Route, lang: Lang) => route.component === 'category' && route.meta.availableLangs.includes(lang) && !written.get(route.name)?.has(lang);
  if (!site.routes.some((route) => route.component === 'category' && LANGUAGES.some((lang) => empty(route, lang)))) return [];
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const link of links) {
    const { path } = link;
    const route = site.routeByPath.get(path);
    // Other problems of the link (no such page, wrong case, language) are LINK001-003's.
    if (!route || !empty(route, link.lang)) continue;
    const key = `${link.place.file}:${link.place.line}:${link.place.column} ${link.lang}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(diagnostic('LINK005', link.place, { path, lang: link.lang }));
  }
  return out;
}
