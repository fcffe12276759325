import type { Article, Site } from '../model/site';
import type { CheckMemory, TitleMatch } from './memory';
import type { Lang } from '../shared/lang';
import type { Route } from '../shared/route';

const STOPWORDS = new Set([
  'the', 'and', 'for', 'with', 'from', 'this', 'that', 'into', 'your', 'how', 'what', 'using', 'use', 'about', 'article',
  'post', 'read', 'here', 'guide', 'more', 'see', 'page', 'para', 'com', 'por', 'uma', 'como', 'sobre', 'artigo', 'aqui',
  'ler', 'leia', 'mais', 'ver', 'dos', 'das', 'nos', 'nas', 'que', 'pagina',
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

/** The significant words of an article's titles in every language, worked out once per article. */
const TITLE_WORDS = new WeakMap<Article, Set<string>>();

function titleWordsOf(article: Article): Set<string> {
  let words = TITLE_WORDS.get(article);
  if (!words) {
    words = new Set<string>();
    for (const edition of Object.values(article.editions)) for (const w of significantWords(edition.source.frontMatter.title)) words.add(w);
    TITLE_WORDS.set(article, words);
  }
  return words;
}

/** How many of `words` an article's titles (any language) or its slug contain. */
function coverage(article: Article, words: ReadonlySet<string>): Set<string> {
  const titleWords = titleWordsOf(article);
  const slug = article.slug.toLowerCase();
  return new Set([...words].filter((w) => titleWords.has(w) || slug.includes(w)));
}

/**
 * The article a link's text names, when it is not the article the link opens: another article
 * covers strictly more of the text's words (at least two), including every word the target
 * lacks. Links to pages other than articles, and texts like "here", are never judged.
 */
export function articleTitleMatch(site: Site, text: string, target: Route, lang: Lang): TitleMatch {
  if (target.component !== 'article') return undefined;
  const words = significantWords(text);
  if (words.size < 2) return undefined;
  const targetArticle = site.articleByPath.get(target.path);
  if (!targetArticle) return undefined;
  const targetCover = coverage(targetArticle, words);
  const missing = [...words].filter((w) => !targetCover.has(w));
  if (missing.length === 0) return undefined;
  let best: { article: Article; size: number } | undefined;
  for (const article of site.articles) {
    if (article === targetArticle) continue;
    const cover = coverage(article, words);
    if (cover.size >= 2 && cover.size > targetCover.size && missing.every((w) => cover.has(w)) && (!best || cover.size > best.size)) {
      best = { article, size: cover.size };
    }
  }
  if (!best) return undefined;
  const edition = best.article.editions[lang] ?? Object.values(best.article.editions)[0];
  return { title: edition?.source.frontMatter.title ?? best.article.slug, path: best.article.route.path };
}

/**
 * `articleTitleMatch` for one check of `site`. With `memory`, answers are kept by language,
 * target and text while every article's path and titles stay as they were: the scan over all
 * articles is then made only for links that are new or changed.
 */
export function titleMatcher(site: Site, memory?: CheckMemory['titleMatches']): (text: string, target: Route, lang: Lang) => TitleMatch {
  if (!memory) return (text, target, lang) => articleTitleMatch(site, text, target, lang);
  const titles = site.articles.map((a) => `${a.route.path}\0${Object.values(a.editions).map((e) => e.source.frontMatter.title).join('\0')}`).join('\n');
  if (titles !== memory.titles) {
    memory.titles = titles;
    memory.answers.clear();
  }
  return (text, target, lang) => {
    const key = `${lang}\0${target.path}\0${text}`;
    if (memory.answers.has(key)) return memory.answers.get(key);
    const answer = articleTitleMatch(site, text, target, lang);
    memory.answers.set(key, answer);
    return answer;
  };
}
