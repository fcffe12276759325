import type { Article, Site } from '../model/site';
import type { Lang } from '../shared/lang';
import type { Route } from '../shared/route';

/** The article a link's text names instead of its target (LINK004), when there is one. */
export type TitleMatch = { title: string; path: string } | undefined;

const STOPWORDS = new Set([
  'the',
  'and',
  'for',
  'with',
  'from',
  'this',
  'that',
  'into',
  'your',
  'how',
  'what',
  'using',
  'use',
  'about',
  'article',
  'post',
  'read',
  'here',
  'guide',
  'more',
  'see',
  'page',
  'para',
  'com',
  'por',
  'uma',
  'como',
  'sobre',
  'artigo',
  'aqui',
  'ler',
  'leia',
  'mais',
  'ver',
  'dos',
  'das',
  'nos',
  'nas',
  'que',
  'pagina',
]);

/** Words of a text that can name something: lower case, no accents, no short or filler words. */
export function significantWords(text: string): Set<string> {
  return new Set(
    text
      .normalize('NFD')
      .replace(/\p{Diacritic}/gu, '')
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length >= 3 && !STOPWORDS.has(w)),
  );
}

/**
 * Which articles name each word, made once per check. An article names a word when one of its
 * titles (any language) has it as a significant word, or its slug contains it anywhere ("docker"
 * in "deploydockerflaskazure"). Postings are article positions in `site.articles`, ascending.
 */
export interface TitleIndex {
  articles: readonly Article[];
  /** Position in `articles` of each article. */
  position: ReadonlyMap<Article, number>;
  postings: ReadonlyMap<string, readonly number[]>;
}

export function titleIndex(site: Site): TitleIndex {
  const postings = new Map<string, number[]>();
  const position = new Map<Article, number>();
  site.articles.forEach((article, at) => {
    position.set(article, at);
    const words = new Set<string>();
    for (const edition of Object.values(article.editions)) for (const w of significantWords(edition.source.frontMatter.title)) words.add(w);
    // A word is only [a-z0-9]: it can only be found inside a run of those in the slug. A slug is a
    // file name (255 bytes at most), so listing every substring of 3 or more letters stays small.
    for (const run of article.slug.toLowerCase().match(/[a-z0-9]{3,}/g) ?? []) {
      for (let start = 0; start + 3 <= run.length; start++) {
        for (let end = start + 3; end <= run.length; end++) words.add(run.slice(start, end));
      }
    }
    for (const w of words) {
      const list = postings.get(w);
      if (list) list.push(at);
      else postings.set(w, [at]);
    }
  });
  return { articles: site.articles, position, postings };
}

/** Whether the sorted list holds `at`. */
function holds(list: readonly number[], at: number): boolean {
  let low = 0;
  let high = list.length - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const value = list[mid] as number;
    if (value === at) return true;
    if (value < at) low = mid + 1;
    else high = mid - 1;
  }
  return false;
}

/**
 * The article a link's text names, when it is not the article the link opens: another article
 * covers strictly more of the text's words (at least two), including every word the target
 * lacks. Links to pages other than articles, and texts like "here", are never judged. Of several,
 * the one covering most, and of those the first in the site's order.
 *
 * The candidates are the articles in the postings of every word the target lacks, so a link costs
 * the length of its shortest such posting, not a pass over every article.
 */
export function articleTitleMatch(site: Site, index: TitleIndex, text: string, target: Route, lang: Lang): TitleMatch {
  if (target.component !== 'article') return undefined;
  const words = [...significantWords(text)];
  if (words.length < 2) return undefined;
  const targetArticle = site.articleByPath.get(target.path);
  if (!targetArticle) return undefined;
  const targetAt = index.position.get(targetArticle) ?? -1;
  const lists = words.map((w) => index.postings.get(w) ?? []);
  const targetCover = lists.filter((list) => holds(list, targetAt)).length;
  const missing = lists.filter((list) => !holds(list, targetAt));
  if (missing.length === 0) return undefined;
  missing.sort((a, b) => a.length - b.length);
  const [shortest, ...others] = missing as [readonly number[], ...(readonly number[])[]];
  let best: { at: number; size: number } | undefined;
  for (const at of shortest) {
    if (at === targetAt || !others.every((list) => holds(list, at))) continue;
    const size = lists.filter((list) => holds(list, at)).length;
    if (size >= 2 && size > targetCover && (!best || size > best.size)) best = { at, size };
  }
  if (!best) return undefined;
  const article = index.articles[best.at] as Article;
  const edition = article.editions[lang] ?? Object.values(article.editions)[0];
  return { title: edition?.source.frontMatter.title ?? article.slug, path: article.route.path };
}

/** Judges a link's text against the titles of the site's articles (LINK004). */
export type TitleMatcher = (text: string, target: Route, lang: Lang) => TitleMatch;

/** `articleTitleMatch` for one check of `site`: the index is made once, on the first link judged. */
export function titleMatcher(site: Site): TitleMatcher {
  let index: TitleIndex | undefined;
  return (text, target, lang) => {
    if (target.component !== 'article') return undefined;
    index ??= titleIndex(site);
    return articleTitleMatch(site, index, text, target, lang);
  };
}
