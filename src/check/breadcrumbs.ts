import { type Diagnostic, diagnostic, type Place } from '../diagnostics/diagnostic';
import type { BreadcrumbItem } from '../model/schema';
import type { Article, Site } from '../model/site';
import { plainTitle } from '../render/breadcrumbs';
import { LANGUAGES, type Lang } from '../shared/lang';
import { BLOG_PATH, categoryPath } from '../shared/route';
import { type ArticleRulesMemo, byArticle } from './byArticle';
import { frontMatterPlace, jsonPlace } from './place';
import { caseVariant } from './targets';

/** The title a page has in a language, as a breadcrumb should name it. */
function pageTitle(site: Site, path: string, lang: Lang): string | undefined {
  if (path === BLOG_PATH) return site.content.pages.blog.title[lang];
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
interface Trail {
  /** The trail as written. */
  items: readonly BreadcrumbItem[];
  /** The paths of the route's real parents, and of the page itself for an article. */
  expected: readonly string[];
  /** The languages whose titles the trail's items give. */
  langs: readonly Lang[];
}

function checkTrail(
  site: Site,
  { items, expected, langs }: Trail,
  placeOf: (path: (string | number)[]) => Place,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  items.forEach((item, i) => {
    const want = expected[i];
    // Placed only when reported: an article's place is found by parsing its front matter again.
    const place = () => placeOf(['breadcrumbs', i, 'path']);
    if (want === undefined) {
      out.push(diagnostic('CRUMB002', place(), { kind: 'afterPage', path: item.path, trail: expected }));
      return;
    }
    if (item.path !== want) {
      if (site.routeByPath.has(item.path)) {
        out.push(
          diagnostic('CRUMB002', place(), { kind: 'wrongItem', item: i + 1, path: item.path, want, trail: expected }),
        );
      } else {
        const last = i === expected.length - 1;
        out.push(
          diagnostic('CRUMB001', place(), {
            path: item.path,
            want,
            last,
            trail: expected,
            variant: caseVariant(site, item.path)?.path,
          }),
        );
      }
      return;
    }
    for (const lang of langs) {
      const title = item.title[lang];
      const actual = pageTitle(site, want, lang);
      if (title !== undefined && actual !== undefined && title !== actual) {
        out.push(
          diagnostic('CRUMB003', placeOf(['breadcrumbs', i, 'title', lang]), { lang, title, path: want, actual }),
        );
      }
    }
  });
  if (items.length < expected.length && out.length === 0) {
    out.push(diagnostic('CRUMB002', placeOf(['breadcrumbs']), { kind: 'stops', items: items.length, trail: expected }));
  }
  return out;
}

export function checkBreadcrumbs(site: Site, memo?: ArticleRulesMemo): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const category of site.categories.values()) {
    if (!category.data.breadcrumbs) continue;
    out.push(
      ...checkTrail(
        site,
        { items: category.data.breadcrumbs, expected: [BLOG_PATH, category.data.blogcategory], langs: LANGUAGES },
        (p) => jsonPlace(site, category.file, p),
      ),
    );
  }
  // An article's trail reads the routes, and the titles of the Blog page, the categories and the article itself.
  const reads = [site.routes, site.content.pages.blog, ...site.content.categories];
  for (const d of byArticle(
    site,
    { name: 'breadcrumbs', reads, judge: (article) => articleTrails(site, article) },
    memo,
  ))
    out.push(d);
  return out;
}

function articleTrails(site: Site, article: Article): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const edition of Object.values(article.editions)) {
    const items = edition.source.frontMatter.breadcrumbs;
    if (!items) continue;
    const expected = [BLOG_PATH, categoryPath(article.category), article.route.path];
    out.push(...checkTrail(site, { items, expected, langs: [edition.lang] }, (p) => frontMatterPlace(edition, p)));
  }
  return out;
}
