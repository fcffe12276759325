import type { LoadedContent } from '../load/content';
import type { Lang } from '../shared/lang';
import type { PageKind, Route } from '../shared/route';

const BOTH: Lang[] = ['en', 'pt'];

/** The fixed pages, in the order of the site's menu followed by the Atelier. */
const PAGES: { name: string; component: PageKind }[] = [
  { name: 'aboutme', component: 'aboutme' },
  { name: 'professional', component: 'professional' },
  { name: 'blog', component: 'blog' },
  { name: 'projects', component: 'projects' },
  { name: 'atelier', component: 'atelier' },
];

/**
 * The route table, derived from content: the fixed pages (their texts are bilingual by schema),
 * one route per category, and one per article with the languages it has files for.
 */
export function deriveRoutes(content: LoadedContent): Route[] {
  const routes: Route[] = PAGES.map(({ name, component }) => ({ path: `/${name}`, name, component, meta: { availableLangs: [...BOTH] } }));
  for (const category of content.categories) {
    routes.push({
      path: category.data.blogcategory,
      name: category.key,
      component: category.data.kind === 'gallery' ? 'gallery' : 'category',
      meta: { availableLangs: [...BOTH] },
    });
  }
  const articleLangs = new Map<string, Set<Lang>>();
  for (const article of content.articles) {
    const name = `${article.category}/${article.slug}`;
    const langs = articleLangs.get(name) ?? new Set<Lang>();
    langs.add(article.lang);
    articleLangs.set(name, langs);
  }
  for (const [name, langs] of [...articleLangs].sort(([a], [b]) => a.localeCompare(b))) {
    routes.push({
      path: `/blog/${name}`,
      name,
      component: 'article',
      meta: { availableLangs: BOTH.filter((l) => langs.has(l)) },
    });
  }
  return routes;
}

/** The route table as text, a line per route (path, page kind, languages): equal texts, equal tables. */
export function routeTable(routes: readonly Route[]): string {
  return routes.map((r) => `${r.path} ${r.component} ${r.meta.availableLangs.join(',')}`).join('\n');
}
