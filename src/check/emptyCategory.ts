import { type Diagnostic, diagnostic } from '../diagnostics/diagnostic';
import type { Site } from '../model/site';
import { LANGUAGES, type Lang } from '../shared/lang';
import type { Route } from '../shared/route';
import type { LinkIndex } from './linkIndex';

/**
 * LINK005: a link in a text sends its reader to a category listing that shows no article in the
 * reader's language (listings show only the articles that have an edition in the page's language),
 * so the reader lands on "no articles here yet". The Blog index lists every category by design,
 * with its count, and is not a link of the content, so it is not concerned.
 */
export function checkEmptyCategoryLinks(site: Site, links: Pick<LinkIndex, 'to'>): Diagnostic[] {
  const written = new Map<string, Set<Lang>>();
  for (const article of site.articles) {
    let langs = written.get(article.category);
    if (!langs) {
      langs = new Set<Lang>();
      written.set(article.category, langs);
    }
    for (const lang of LANGUAGES) if (article.editions[lang]) langs.add(lang);
  }
  // The listings that show no article in one of their languages, and the links that lead to them.
  const empty = (route: Route, lang: Lang) =>
    route.meta.availableLangs.includes(lang) && !written.get(route.name)?.has(lang);
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const route of site.routes) {
    if (route.component !== 'category' || !LANGUAGES.some((lang) => empty(route, lang))) continue;
    for (const link of links.to(route.path)) {
      // Other problems of the link (no such page, wrong case, language) are LINK001-003's.
      if (!empty(route, link.lang)) continue;
      const key = `${link.place.file}:${link.place.line}:${link.place.column} ${link.lang}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(diagnostic('LINK005', link.place, { path: route.path, lang: link.lang }));
    }
  }
  // In the order of their places: the index holds links in no particular order.
  return out.sort((a, b) =>
    a.file < b.file
      ? -1
      : a.file > b.file
        ? 1
        : a.line - b.line || a.column - b.column || (a.message < b.message ? -1 : a.message > b.message ? 1 : 0),
  );
}
