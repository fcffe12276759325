import { digestAll } from '../load/digest';
import type { Article, Site } from '../model/site';
import { LANGUAGES, type Lang } from '../shared/lang';
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

/** An article as the title index knows it: its path and its titles, in the order of its editions. */
export interface TitledArticle {
  path: string;
  slug: string;
  titles: readonly [Lang, string][];
}

/**
 * Which articles name each word. An article names a word when one of its titles (any language)
 * has it as a significant word, or its slug contains it anywhere ("docker" in
 * "deploydockerflaskazure"). Postings are article positions in `articles`, ascending. Plain data
 * about the articles, not the articles: a session keeps one index while no slug or title changes.
 *
 * The titles' words are indexed up front; a word's slugs are found when the word is first asked
 * for (`postingsOf`), by a scan of the slugs: every substring of every slug, indexed, would be
 * most of the index (some thirty a slug), and a check asks for the few words of its link texts.
 */
export interface TitleIndex {
  articles: readonly TitledArticle[];
  /** Position in `articles` of each article, by its path. */
  position: ReadonlyMap<string, number>;
  /** The articles each word is a significant word of a title of. */
  titled: ReadonlyMap<string, readonly number[]>;
  /** Each article's slug in lower case, by position. */
  slugs: readonly string[];
  /** `postingsOf` each word asked for so far, for as long as the index lives. */
  postings: Map<string, readonly number[]>;
  /** A hash of what judging a word reads (`wordRead`), made when first asked, for as long as the index lives. */
  wordReads: Map<string, string>;
  /** `TitleJudge.reads` of each list of words a session keeps (one per compiled body). */
  readsOf: WeakMap<readonly string[], string>;
}

/** The articles that name `word` (a significant word: see `significantWords`), by position, ascending. */
export function postingsOf(index: TitleIndex, word: string): readonly number[] {
  let list = index.postings.get(word);
  if (list === undefined) {
    const titled = index.titled.get(word) ?? [];
    const named: number[] = [];
    let next = 0;
    index.slugs.forEach((slug, at) => {
      const inTitle = titled[next] === at;
      if (inTitle) next++;
      // A word is only [a-z0-9], 3 or more: inside a slug, it lies in a run of those as long as it.
      if (inTitle || slug.includes(word)) named.push(at);
    });
    list = named;
    index.postings.set(word, list);
  }
  return list;
}

/** The site's articles as the title index knows them: those of `previous` where unchanged. */
function titledArticles(site: Site, previous?: TitleIndex): TitledArticle[] {
  return site.articles.map((article, at) => {
    const before = previous?.articles[at];
    return before && sameTitled(before, article) ? before : titled(article);
  });
}

function sameTitled(before: TitledArticle, article: Article): boolean {
  if (before.path !== article.route.path || before.slug !== article.slug) return false;
  let editions = 0;
  for (const lang of LANGUAGES) if (article.editions[lang]) editions++;
  return (
    before.titles.length === editions &&
    before.titles.every(([lang, title]) => article.editions[lang]?.source.frontMatter.title === title)
  );
}

function titled(article: Article): TitledArticle {
  return {
    path: article.route.path,
    slug: article.slug,
    titles: Object.entries(article.editions).map(([lang, edition]): [Lang, string] => [
      lang as Lang,
      edition.source.frontMatter.title,
    ]),
  };
}

/** The words whose reads (`wordRead`) an article's retitling changes: every word it names before or after. */
export function retitledWords(before: TitledArticle, after: TitledArticle): Set<string> {
  return new Set([...namedWords(before), ...namedWords(after)]);
}

/** An article as its part of the title key tells it (`titleKeyPart`): its path, slug and titles. */
export function titledOfPart(part: string): TitledArticle {
  const [path = '', slug = '', ...rest] = part.split('\0');
  const titles: [Lang, string][] = [];
  for (let i = 0; i + 1 < rest.length; i += 2) titles.push([rest[i] as Lang, rest[i + 1] as string]);
  return { path, slug, titles };
}

/**
 * The index of the site's article titles. Given the index of an earlier build of the same
 * session, over the same articles in the same places, only the postings and word reads of the
 * words of articles whose slug or titles changed are made again: a title edit costs the words of
 * that title, not the whole site's.
 */
export function titleIndex(site: Site, previous?: TitleIndex): TitleIndex {
  const articles = titledArticles(site, previous);
  if (
    previous &&
    previous.articles.length === articles.length &&
    articles.every((article, at) => article.path === previous.articles[at]?.path)
  ) {
    return retitledIndex(previous, articles);
  }
  const titled = new Map<string, number[]>();
  const position = new Map<string, number>();
  articles.forEach((article, at) => {
    position.set(article.path, at);
    for (const w of titleWords(article)) {
      const list = titled.get(w);
      if (list) list.push(at);
      else titled.set(w, [at]);
    }
  });
  const slugs = articles.map((article) => article.slug.toLowerCase());
  return { articles, position, titled, slugs, postings: new Map(), wordReads: new Map(), readsOf: new WeakMap() };
}

/**
 * `previous` for `articles`, the same articles in the same places, some of them retitled. Its maps
 * are taken over and brought up to date, not copied (tens of thousands of words): `previous` is
 * not to be used again, which holds for the session's last index, replaced by this one.
 */
function retitledIndex(previous: TitleIndex, articles: readonly TitledArticle[]): TitleIndex {
  const titled = previous.titled as Map<string, readonly number[]>;
  const { postings, wordReads } = previous;
  const slugs = [...previous.slugs];
  for (const [at, article] of articles.entries()) {
    const before = previous.articles[at] as TitledArticle;
    if (before === article) continue;
    const [was, is] = [titleWords(before), titleWords(article)];
    for (const word of was) {
      if (is.has(word)) continue;
      const list = titled.get(word) ?? [];
      titled.set(
        word,
        list.filter((other) => other !== at),
      );
    }
    for (const word of is) {
      if (was.has(word)) continue;
      const list = titled.get(word) ?? [];
      titled.set(
        word,
        [...list, at].sort((x, y) => x - y),
      );
    }
    slugs[at] = article.slug.toLowerCase();
    // A word's postings and read hold the articles naming it: every word either names is found and read anew.
    for (const word of retitledWords(before, article)) {
      postings.delete(word);
      wordReads.delete(word);
    }
  }
  for (const [word, list] of titled) if (list.length === 0) titled.delete(word);
  return { articles, position: previous.position, titled, slugs, postings, wordReads, readsOf: new WeakMap() };
}

/** A hash of everything the title index is made from: each article's path, slug and titles, in order. */
export function titleIndexKey(site: Site): string {
  return digestAll(titleKeyParts(site));
}

/**
 * What `titleIndexKey` is the hash of: each article's path, slug and titles, in the site's order.
 * Read straight from the model, an article's part once while it lives: worked out on every check,
 * it should neither build the index's records nor read every title again.
 */
export function titleKeyParts(site: Site): string[] {
  const parts: string[] = new Array(site.articles.length);
  site.articles.forEach((article, i) => {
    parts[i] = knownTitleParts.get(article) ?? titleKeyPart(article);
  });
  return parts;
}

/** Each article's part of `titleIndexKey`, while the article lives. */
const knownTitleParts = new WeakMap<Article, string>();

function titleKeyPart(article: Article): string {
  let part = `${article.route.path}\0${article.slug}`;
  for (const lang of LANGUAGES) {
    const edition = article.editions[lang];
    if (edition) part += `\0${lang}\0${edition.source.frontMatter.title}`;
  }
  knownTitleParts.set(article, part);
  return part;
}

/** The significant words of an article's titles. */
function titleWords(article: TitledArticle): Set<string> {
  const words = new Set<string>();
  for (const [, title] of article.titles) for (const w of significantWords(title)) words.add(w);
  return words;
}

/** The words an article names: the significant words of its titles, and every run of 3 or more letters of its slug. */
function namedWords(article: TitledArticle): Set<string> {
  const words = titleWords(article);
  // A word is only [a-z0-9]: it can only be found inside a run of those in the slug. A slug is a
  // file name (255 bytes at most), so listing every substring of 3 or more letters stays small.
  for (const run of article.slug.toLowerCase().match(/[a-z0-9]{3,}/g) ?? []) {
    for (let start = 0; start + 3 <= run.length; start++) {
      for (let end = start + 3; end <= run.length; end++) words.add(run.slice(start, end));
    }
  }
  return words;
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
export function articleTitleMatch(index: TitleIndex, text: string, target: Route, lang: Lang): TitleMatch {
  if (target.component !== 'article') return undefined;
  const words = [...significantWords(text)];
  if (words.length < 2) return undefined;
  const targetAt = index.position.get(target.path);
  if (targetAt === undefined) return undefined;
  const lists = words.map((w) => postingsOf(index, w));
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
  const article = index.articles[best.at] as TitledArticle;
  const title = article.titles.find(([edition]) => edition === lang) ?? article.titles[0];
  return { title: title?.[1] ?? article.slug, path: article.path };
}

/**
 * A hash of everything LINK004 reads of the site to judge a text holding `word`: the articles that
 * name the word, with their positions, paths, slugs and titles (a match quotes the title).
 */
function wordRead(index: TitleIndex, word: string): string {
  let read = index.wordReads.get(word);
  if (read === undefined) {
    const parts: string[] = [];
    for (const at of postingsOf(index, word)) {
      const article = index.articles[at] as TitledArticle;
      parts.push(String(at), article.path, article.slug, ...article.titles.flat());
    }
    read = digestAll(parts);
    index.wordReads.set(word, read);
  }
  return read;
}

/** Judges a link's text against the titles of the site's articles (LINK004). */
export type TitleMatcher = (text: string, target: Route, lang: Lang) => TitleMatch;

/** LINK004 for one check: the matcher, and a hash of what it reads of the site for texts made of these words. */
export interface TitleJudge {
  match: TitleMatcher;
  reads(words: readonly string[]): string;
}

/** Title indexes kept between checks (a session's memory), by the hash of what they are made from. */
export interface TitleIndexMemo {
  get(key: string): TitleIndex | undefined;
  set(key: string, index: TitleIndex): void;
  /** The index kept last, whatever it was made from. */
  previous(): TitleIndex | undefined;
}

/** `articleTitleMatch` for one check of `site`: the index is found in the memo or made, once, when first needed. */
export function titleJudge(
  site: Site,
  memo?: TitleIndexMemo,
  titlesKey: () => string = () => titleIndexKey(site),
): TitleJudge {
  let index: TitleIndex | undefined;
  const made = () => {
    if (!memo) return titleIndex(site);
    const key = titlesKey();
    const known = memo.get(key);
    if (known) return known;
    const fresh = titleIndex(site, memo.previous());
    memo.set(key, fresh);
    return fresh;
  };
  return {
    match: (text, target, lang) => {
      if (target.component !== 'article') return undefined;
      index ??= made();
      return articleTitleMatch(index, text, target, lang);
    },
    reads: (words) => {
      index ??= made();
      let read = index.readsOf.get(words);
      if (read === undefined) {
        const known = index;
        read = digestAll(words.map((word) => wordRead(known, word)));
        index.readsOf.set(words, read);
      }
      return read;
    },
  };
}

/** The matcher of `titleJudge`. */
export function titleMatcher(site: Site, memo?: TitleIndexMemo): TitleMatcher {
  return titleJudge(site, memo).match;
}
