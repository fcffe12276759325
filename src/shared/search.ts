/**
 * The blog search, shared by the server (/api/blog_posts/search) and the browser's static-host
 * fallback, so both rank alike: MiniSearch over title and text, titles weighing more, prefix
 * matching on the last word typed, fuzzy matching for small typos, and terms stemmed in the
 * index's language and folded for case and accents ("musica" finds "Música").
 */

import { stemmer as stemEnglish } from '@orama/stemmers/english';
import { stemmer as stemPortuguese } from '@orama/stemmers/portuguese';
import MiniSearch, { type AsPlainObject, type Options } from 'minisearch';
import type { Lang } from './lang';
import { searchIndexUrl } from './route';
import { mergeShards, type SearchShards } from './searchShards';
import { topMatches } from './topMatches';

/** One article edition in a language's index. */
export interface SearchDocument {
  /** The edition's URL, unique within a language. */
  id: string;
  title: string;
  /** The category's title in that language. */
  category: string;
  /** The URL to open. */
  endpoint: string;
  /** Description, headings, body and figure captions, as plain text. */
  text: string;
}

/** A result as the API answers it (docs/api.md, Endpoints: id, title, category, endpoint). */
export interface SearchResult {
  id: string;
  title: string;
  category: string;
  endpoint: string;
}

/** docs/product.md, Input rules: a search is sent only for more than 3 characters. */
export const MIN_TERM_LENGTH = 4;
export const MAX_RESULTS = 10;

const STEMMERS: Record<Lang, (word: string) => string> = { en: stemEnglish, pt: stemPortuguese };

/** Bounds the memo of processed words, which lives as long as an index's options. */
const MEMO_LIMIT = 200_000;

function fold(term: string): string {
  return term.normalize('NFD').replace(/\p{Diacritic}/gu, '');
}

/** The options of a language's index; the same object builds, loads and queries it. */
export function searchOptions(lang: Lang): Options<SearchDocument> {
  const stem = STEMMERS[lang];
  // A text repeats a small vocabulary many times: each distinct word is stemmed and folded once.
  const processed = new Map<string, string | null>();
  return {
    fields: ['title', 'text'],
    storeFields: ['title', 'category', 'endpoint'],
    processTerm: (term) => {
      let result = processed.get(term);
      if (result === undefined) {
        const lower = term.toLowerCase();
        result = lower.length < 2 ? null : stem(fold(lower));
        if (processed.size < MEMO_LIMIT) processed.set(term, result);
      }
      return result;
    },
    searchOptions: {
      boost: { title: 3 },
      prefix: (_term, i, terms) => i === terms.length - 1,
      // One edit (a letter missing, extra or wrong) for words of five letters or more: what most typos
      // are. Two edits found little more and cost several times as much on a large blog.
      fuzzy: (term) => (term.length > 4 ? 1 : false),
      combineWith: 'AND',
    },
  };
}

export function buildSearchIndex(lang: Lang, documents: SearchDocument[]): MiniSearch<SearchDocument> {
  const index = new MiniSearch<SearchDocument>(searchOptions(lang));
  index.addAll(documents);
  return index;
}

/** A language's index from its shards, joined into one (see searchShards.ts). */
export function searchIndexFromShards(lang: Lang, shards: readonly AsPlainObject[]): MiniSearch<SearchDocument> {
  return MiniSearch.loadJS<SearchDocument>(mergeShards(shards), searchOptions(lang));
}

/** A language's index as published: its list of shards, then every shard, read by URL. */
export async function loadSearchIndex(
  lang: Lang,
  read: (url: string) => Promise<string>,
): Promise<MiniSearch<SearchDocument>> {
  const { shards } = JSON.parse(await read(searchIndexUrl(lang))) as SearchShards;
  const parts = await Promise.all(shards.map(async (url) => JSON.parse(await read(url)) as AsPlainObject));
  return searchIndexFromShards(lang, parts);
}

/**
 * Best match first, at most ten; every word must match (the last one as a prefix). Typos are
 * forgiven only when the words as typed find fewer than ten articles: the words themselves rank
 * first anyway, and looking for every near-spelling of a common word is most of a query's cost.
 */
export function searchIn(index: MiniSearch<SearchDocument>, term: string): SearchResult[] {
  const asTyped = topMatches(index, term, MAX_RESULTS, { fuzzy: false });
  const { matches } = asTyped.total >= MAX_RESULTS ? asTyped : topMatches(index, term, MAX_RESULTS);
  return matches.map(({ id, stored }) => ({
    id: String(id),
    title: String(stored.title),
    category: String(stored.category),
    endpoint: String(stored.endpoint),
  }));
}
