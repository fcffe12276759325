import type { ArticleEdition, Site } from '../model/site';
import { rssDate } from '../shared/date';
import { LANGUAGE_TAGS, type Lang } from '../shared/lang';
import { BLOG_PATH, bilingualUrl, feedUrl } from '../shared/route';
import { escapeXml } from './sitemap';

/** Each edition's feed item under a base URL, kept while the edition lives (a session's memory). */
export type FeedItems = WeakMap<ArticleEdition, { baseUrl: string; item: string }>;

/** An RSS 2.0 feed of the articles written in `lang`, newest first, with absolute links. */
export function rssFeed(site: Site, lang: Lang, baseUrl: string, known?: FeedItems): string {
  const { owner, pages } = site.content;
  const items = site.newest[lang].map((e) => {
    const kept = known?.get(e);
    if (kept?.baseUrl === baseUrl) return kept.item;
    const link = escapeXml(baseUrl + e.url);
    const date = rssDate(e.source.frontMatter.date);
    const item = `<item><title>${escapeXml(e.source.frontMatter.title)}</title><link>${link}</link><guid isPermaLink="true">${link}</guid><description>${escapeXml(e.source.frontMatter.description ?? e.source.frontMatter.title)}</description><pubDate>${date}</pubDate></item>`;
    known?.set(e, { baseUrl, item });
    return item;
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
