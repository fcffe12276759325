import type { Diagnostic } from '../diagnostics/diagnostic';
import type { BreadcrumbItem } from '../model/schema';
import type { Site } from '../model/site';
import { plainTitle } from '../render/breadcrumbs';
import type { Lang } from '../shared/lang';
import { diagnostic, frontMatterPlace, jsonPlace, type Place } from './report';
import { caseVariant } from './targets';

/** The title a page has in a language, as a breadcrumb should name it. */
function pageTitle(site: Site, path: string, lang: Lang): string | undefined {
  if (path === '/blog') return site.content.pages.blog.title[lang];
  const route = site.routeByPath.get(path);
  if (!route) return undefined;
  if (route.component === 'category' || route.component === 'gallery') {
    const title = site.categories.get(route.name)?.data.title[lang];
    return title === undefined ? undefined : plainTitle(title);
  }
  if (route.component === 'article') {
    return site.articleByPath.get(route.path)?.editions[lang]?.source.frontMatter.title;
  }
  return undefined;
}

/**
 * CRUMB001-003 on hand-written trails (derived trails are right by construction): each item
 * leads to a page, the trail is the route's real parents Blog > category (> article), and each
 * title is its page's title in the language shown.
 */
function checkTrail(
  site: Site,
  items: readonly BreadcrumbItem[],
  expected: readonly string[],
  langs: readonly Lang[],
  placeOf: (path: (string | number)[]) => Place,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const trail = expected.join(' > ');
  items.forEach((item, i) => {
    const want = expected[i];
    const place = placeOf(['breadcrumbs', i, 'path']);
    if (want === undefined) {
      out.push(diagnostic('CRUMB002', place, `the trail has an item "${item.path}" after the page itself`, `The trail of this page is ${trail}.`));
      return;
    }
    if (item.path !== want) {
      if (site.routeByPath.has(item.path)) {
        out.push(diagnostic('CRUMB002', place, `item ${i + 1} of the trail is "${item.path}", but this page's route has "${want}" there`, `The trail of this page is ${trail}.`));
      } else {
        const variant = caseVariant(site, item.path);
        const last = i === expected.length - 1;
        const fix = variant ? `Write "${variant.path}": paths are case-sensitive.` : last ? `The last item is the page itself, "${want}" (trail ${trail}).` : `The real parent here is "${want}" (trail ${trail}).`;
        out.push(diagnostic('CRUMB001', place, `"${item.path}" is not a page of the site`, fix));
      }
      return;
    }
    for (const lang of langs) {
      const title = item.title[lang];
      const actual = pageTitle(site, want, lang);
      if (title !== undefined && actual !== undefined && title !== actual) {
        out.push(diagnostic('CRUMB003', placeOf(['breadcrumbs', i, 'title', lang]), `the ${lang} title "${title}" of "${want}" differs from that page's title "${actual}"`, `Write "${actual}", or leave breadcrumbs out to derive them.`));
      }
    }
  });
  if (items.length < expected.length && out.length === 0) {
    out.push(diagnostic('CRUMB002', placeOf(['breadcrumbs']), `the trail stops after ${items.length} item(s)`, `The trail of this page is ${trail}.`));
  }
  return out;
}

export function checkBreadcrumbs(site: Site): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const category of site.categories.values()) {
    if (!category.data.breadcrumbs) continue;
    out.push(...checkTrail(site, category.data.breadcrumbs, ['/blog', category.data.blogcategory], ['en', 'pt'], (p) => jsonPlace(site, category.file, p)));
  }
  for (const article of site.articles) {
    for (const edition of Object.values(article.editions)) {
      const items = edition.source.frontMatter.breadcrumbs;
      if (!items) continue;
      const expected = ['/blog', `/blog/${article.category}`, article.route.path];
      out.push(...checkTrail(site, items, expected, [edition.lang], (p) => frontMatterPlace(edition, p)));
    }
  }
  return out;
}
