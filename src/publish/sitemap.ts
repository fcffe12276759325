import type { Site } from '../model/site';
import { editionUrl, firstLang, type Route } from '../shared/route';

function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/**
 * The date a route last changed: an article's newest edition; a listing's newest article; any
 * other page (and a listing with no article yet) the site's newest article.
 */
/**
 * The last change of each page: an article's latest edition date; a category's, its newest
 * article's; any other page's, the newest article's. Worked out in one pass over the articles.
 */
function lastModified(site: Site): (route: Route) => string | undefined {
  let newest: string | undefined;
  const byCategory = new Map<string, string>();
  const byArticle = new Map<string, string>();
  for (const article of site.articles) {
    for (const edition of Object.values(article.editions)) {
      const date = edition.source.frontMatter.date;
      if (!newest || date > newest) newest = date;
      const category = byCategory.get(article.category);
      if (!category || date > category) byCategory.set(article.category, date);
      const own = byArticle.get(article.route.path);
      if (!own || date > own) byArticle.set(article.route.path, date);
    }
  }
  return (route) =>
    byArticle.get(route.path) ?? (route.component === 'category' ? byCategory.get(route.name) : undefined) ?? newest;
}

/** sitemap.xml: every edition once, with its hreflang alternates (and x-default) and last change. */
export function sitemapXml(site: Site, baseUrl: string): string {
  const urls: string[] = [];
  const modifiedOf = lastModified(site);
  for (const route of site.routes) {
    const modified = modifiedOf(route);
    const alternates = [
      ...route.meta.availableLangs.map(
        (lang) =>
          `<xhtml:link rel="alternate" hreflang="${lang}" href="${escapeXml(baseUrl + editionUrl(route, lang))}"/>`,
      ),
      `<xhtml:link rel="alternate" hreflang="x-default" href="${escapeXml(baseUrl + editionUrl(route, firstLang(route)))}"/>`,
    ].join('');
    for (const lang of route.meta.availableLangs) {
      urls.push(
        `<url><loc>${escapeXml(baseUrl + editionUrl(route, lang))}</loc>${modified ? `<lastmod>${modified}</lastmod>` : ''}${alternates}</url>`,
      );
    }
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join('\n')}\n</urlset>\n`;
}

export function robotsTxt(baseUrl: string): string {
  return `User-agent: *\nAllow: /\nDisallow: /api/\n\nSitemap: ${baseUrl}/sitemap.xml\n`;
}

export { escapeXml };
