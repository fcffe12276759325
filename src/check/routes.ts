import { type Diagnostic, diagnostic, type Place } from '../diagnostics/diagnostic';
import type { Site } from '../model/site';
import type { Route } from '../shared/route';
import type { LinkIndex } from './linkIndex';
import { jsonPlace } from './place';

function routePlace(site: Site, path: string): Place {
  const article = site.articleByPath.get(path);
  const edition = article && Object.values(article.editions)[0];
  return edition ? { file: edition.source.file, line: 1, column: 1 } : { file: 'content', line: 0, column: 0 };
}

/** Routes whose path differs from an earlier route's only in case, with that earlier path. */
export type RouteClashes = readonly (readonly [path: string, other: string])[];

/** The case clashes of a route list (ROUTE001), which depend on the list alone. */
export function routeClashes(routes: readonly Route[]): RouteClashes {
  const clashes: [string, string][] = [];
  const byLower = new Map<string, string>();
  for (const route of routes) {
    const lower = route.path.toLowerCase();
    const other = byLower.get(lower);
    if (other !== undefined) clashes.push([route.path, other]);
    else byLower.set(lower, route.path);
  }
  return clashes;
}

/**
 * ROUTE001: no two routes differ only in case. CAT001: the Blog index lists only real
 * categories. ORPHAN001 (warning): every page is reached from a link, the Blog index, a category
 * listing or the menu. `clashes` are the route list's, when the caller kept them.
 */
export function checkRoutes(
  site: Site,
  links: Pick<LinkIndex, 'reaches'>,
  clashes: RouteClashes = routeClashes(site.routes),
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const [path, other] of clashes) out.push(diagnostic('ROUTE001', routePlace(site, path), { path, other }));

  const reached = new Set<string>();
  // The Blog index lists these categories, and each category lists its articles.
  const listed = new Set<string>();
  site.content.pages.blog.categories.forEach((key, i) => {
    const category = site.categories.get(key);
    if (!category) {
      out.push(
        diagnostic('CAT001', jsonPlace(site, 'content/pages/blog.json', ['categories', i]), {
          category: key,
          listedBy: 'blogIndex',
        }),
      );
      return;
    }
    reached.add(category.data.blogcategory);
    listed.add(key);
  });
  for (const route of site.routes) {
    if (reached.has(route.path) || links.reaches(route.path)) continue;
    if (route.component === 'article' && listed.has(site.articleByPath.get(route.path)?.category ?? '')) continue;
    const place =
      route.component === 'category' || route.component === 'gallery'
        ? { file: `content/categories/${route.name}.json`, line: 1, column: 1 }
        : route.component === 'article'
          ? routePlace(site, route.path)
          : { file: `content/pages/${route.name}.json`, line: 1, column: 1 };
    out.push(diagnostic('ORPHAN001', place, { path: route.path }));
  }
  return out;
}
