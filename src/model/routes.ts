import type { ArticleSource } from '../load/articles';
import type { CategorySource, LoadedContent } from '../load/content';
import { LANGUAGES, type Lang } from '../shared/lang';
import { articlePath, type PageKind, type Route } from '../shared/route';

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
 * one route per category, and one per article with the languages it has files for. A route
 * equal to one of `previous` (the last build's table) is that same object, and a table equal to
 * `previous` is that same array (see `createSite` on why).
 */
export function deriveRoutes(content: LoadedContent, previous?: { content: LoadedContent; routes: Route[] }): Route[] {
  // The same article files (each the same object, or of the same category, slug and language) and
  // categories: the same table.
  if (previous && sameFiles(previous.content, content)) return previous.routes;
  const before = new Map(previous?.routes.map((route) => [route.path, route]));
  const routes: Route[] = [];
  const add = (route: Route) => {
    const known = before.get(route.path);
    routes.push(known && sameRoute(known, route) ? known : route);
  };
  for (const { name, component } of PAGES)
    add({ path: `/${name}`, name, component, meta: { availableLangs: [...LANGUAGES] } });
  for (const category of content.categories) {
    add({
      path: category.data.blogcategory,
      name: category.key,
      component: category.data.kind === 'gallery' ? 'gallery' : 'category',
      meta: { availableLangs: [...LANGUAGES] },
    });
  }
  const articleLangs = new Map<string, { path: string; langs: Set<Lang> }>();
  for (const article of content.articles) {
    const name = `${article.category}/${article.slug}`;
    const entry = articleLangs.get(name) ?? {
      path: articlePath(article.category, article.slug),
      langs: new Set<Lang>(),
    };
    entry.langs.add(article.lang);
    articleLangs.set(name, entry);
  }
  for (const [name, { path, langs }] of [...articleLangs].sort(([a], [b]) => a.localeCompare(b))) {
    add({
      path,
      name,
      component: 'article',
      meta: { availableLangs: LANGUAGES.filter((l) => langs.has(l)) },
    });
  }
  return previous &&
    routes.length === previous.routes.length &&
    routes.every((route, i) => route === previous.routes[i])
    ? previous.routes
    : routes;
}

/** Whether two loads have the same article files and categories, as far as routes are made of them. */
function sameFiles(a: LoadedContent, b: LoadedContent): boolean {
  const sameArticle = (x: ArticleSource, i: number) => {
    const y = b.articles[i];
    return x === y || (y !== undefined && x.category === y.category && x.slug === y.slug && x.lang === y.lang);
  };
  const sameCategory = (x: CategorySource, i: number) => {
    const y = b.categories[i];
    return (
      y !== undefined &&
      x.key === y.key &&
      x.data.blogcategory === y.data.blogcategory &&
      (x.data.kind === 'gallery') === (y.data.kind === 'gallery')
    );
  };
  return (
    a.articles.length === b.articles.length &&
    a.categories.length === b.categories.length &&
    a.articles.every(sameArticle) &&
    a.categories.every(sameCategory)
  );
}
function sameRoute(a: Route, b: Route): boolean {
  const [x, y] = [a.meta.availableLangs, b.meta.availableLangs];
  return (
    a.name === b.name && a.component === b.component && x.length === y.length && x.every((lang, i) => lang === y[i])
  );
}

/** The route table as text, a line per route (path, page kind, languages): equal texts, equal tables. */
export function routeTable(routes: readonly Route[]): string {
  return routes.map((r) => `${r.path} ${r.component} ${r.meta.availableLangs.join(',')}`).join('\n');
}
