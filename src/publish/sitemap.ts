import type { Site } from '../model/site';
import { editionUrl, firstLang, type Route } from '../shared/route';

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/**
 * The date a route last changed: an article's newest edition; a listing's newest article; any
 * other page (and a listing with no article yet) the site's newest article.
 */
function lastModified(site: Site, route: Route): string | undefined {
  const datesOf = (articles: Site['articles']) => articles.flatMap((a) => Object.values(a.editions).map((e) => e.source.frontMatter.date)).sort();
  const article = site.articleByPath.get(route.path);
  if (article) return datesOf([article]).at(-1);
  const own = route.component === 'category' ? datesOf(site.articles.filter((a) => a.category === route.name)).at(-1) : undefined;
  return own ?? datesOf(site.articles).at(-1);
}

/** sitemap.xml: every edition once, with its hreflang alternates (and x-default) and last change. */
export function sitemapXml(site: Site, baseUrl: string): string {
  const urls: string[] = [];
  for (const route of site.routes) {
    const modified = lastModified(site, route);
    const alternates = [
      ...route.meta.availableLangs.map((lang) => `<xhtml:link rel="alternate" hreflang="${lang}" href="${escapeXml(baseUrl + editionUrl(route, lang))}"/>`),
      `<xhtml:link rel="alternate" hreflang="x-default" href="${escapeXml(baseUrl + editionUrl(route, firstLang(route)))}"/>`,
    ].join('');
    for (const lang of route.meta.availableLangs) {
      urls.push(`<url><loc>${escapeXml(baseUrl + editionUrl(route, lang))}</loc>${modified ? `<lastmod>${modified}</lastmod>` : ''}${alternates}</url>`);
    }
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join('\n')}\n</urlset>\n`;
}

export function robotsTxt(baseUrl: string): string {
  return `User-agent: *\nAllow: /\nDisallow: /api/\n\nSitemap: ${baseUrl}/sitemap.xml\n`;
}

export { escapeXml };
