import { type Diagnostic, diagnostic, type Place } from '../diagnostics/diagnostic';
import type { Site } from '../model/site';
import type { InternalLink } from './links';
import { jsonPlace } from './place';

function routePlace(site: Site, path: string): Place {
  const article = site.articleByPath.get(path);
  const edition = article && Object.values(article.editions)[0];
  return edition ? { file: edition.source.file, line: 1, column: 1 } : { file: 'content', line: 0, column: 0 };
}

/**
 * ROUTE001: no two routes differ only in case. CAT001: the Blog index lists only real
 * categories. ORPHAN001 (warning): every page is reached from a link, the Blog index, a category
 * listing or the menu.
 */
export function checkRoutes(site: Site, links: readonly InternalLink[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  const byLower = new Map<string, string>();
  for (const route of site.routes) {
    const lower = route.path.toLowerCase();
    const other = byLower.get(lower);
    if (other !== undefined) out.push(diagnostic('ROUTE001', routePlace(site, route.path), { path: route.path, other }));
    else byLower.set(lower, route.path);
  }

  const reached = new Set<string>();
  for (const link of links) reached.add(link.path);
  site.content.pages.blog.categories.forEach((key, i) => {
    const category = site.categories.get(key);
    if (!category) {
      out.push(diagnostic('CAT001', jsonPlace(site, 'content/pages/blog.json', ['categories', i]), { category: key, listedBy: 'blogIndex' }));
      return;
    }
    reached.add(category.data.blogcategory);
    for (const article of site.articles) if (article.category === key) reached.add(article.route.path);
  });
  for (const route of site.routes) {
    if (reached.has(route.path)) continue;
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
