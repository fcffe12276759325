import { localizeHref } from '../model/links';
import type { BreadcrumbItem } from '../model/schema';
import type { Site } from '../model/site';
import type { Lang } from '../shared/lang';
import type { BreadcrumbView } from '../shared/props';
import { BLOG_PATH } from '../shared/route';

/** A category's title without its leading emoji, as breadcrumbs and listings name it. */
export function plainTitle(title: string): string {
  return title.replace(/^[^\p{L}\p{N}]+/u, '').trim();
}

/**
 * The trail of a category or article page, derived from the route's real parents:
 * Blog > category (> article). The title of each item is its target's title in `lang`.
 */
export function derivedTrail(
  site: Site,
  lang: Lang,
  categoryKey: string,
  article?: { title: string; path: string },
): BreadcrumbItem[] {
  const blog = site.content.pages.blog;
  const category = site.categories.get(categoryKey);
  const trail: BreadcrumbItem[] = [{ title: { [lang]: blog.title[lang] }, path: BLOG_PATH }];
  if (category)
    trail.push({ title: { [lang]: plainTitle(category.data.title[lang]) }, path: category.data.blogcategory });
  if (article) trail.push({ title: { [lang]: article.title }, path: article.path });
  return trail;
}

/** Resolves a trail (derived or hand-written) to titles and URLs in the page's language. */
export function resolveTrail(site: Site, lang: Lang, items: readonly BreadcrumbItem[]): BreadcrumbView[] {
  return items.map((item) => ({
    title: item.title[lang] ?? item.title.en ?? item.title.pt ?? item.path,
    url: localizeHref(item.path, lang, site.routeByPath),
  }));
}
