import type { Site } from '../model/site';
import { rssDate } from '../shared/date';
import { LANGUAGE_TAGS, type Lang } from '../shared/lang';
import { BLOG_PATH, bilingualUrl, feedUrl } from '../shared/route';
import { escapeXml } from './sitemap';

/** An RSS 2.0 feed of the articles written in `lang`, newest first, with absolute links. */
export function rssFeed(site: Site, lang: Lang, baseUrl: string): string {
  const { owner, pages } = site.content;
  const items = site.newest[lang].map((e) => {
    const link = escapeXml(baseUrl + e.url);
    const date = rssDate(e.source.frontMatter.date);
    return `<item><title>${escapeXml(e.source.frontMatter.title)}</title><link>${link}</link><guid isPermaLink="true">${link}</guid><description>${escapeXml(e.source.frontMatter.description ?? e.source.frontMatter.title)}</description><pubDate>${date}</pubDate></item>`;
  });
  const blogUrl = escapeXml(baseUrl + bilingualUrl(BLOG_PATH, lang));
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel>',
    `<title>${escapeXml(`${pages.blog.title[lang]} · ${owner.name}`)}</title>`,
    `<link>${blogUrl}</link>`,
    `<atom:link href="${escapeXml(baseUrl + feedUrl(lang))}" rel="self" type="application/rss+xml"/>`,
    `<description>${escapeXml(pages.blog.description[lang])}</description>`,
    `<language>${LANGUAGE_TAGS[lang]}</language>`,
    ...items,
    '</channel></rss>',
    '',
  ].join('\n');
}
