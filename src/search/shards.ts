import type { PlannedFile } from '../build/inputs';
import type { Memo } from '../build/memo';
import { digestAll } from '../load/digest';
import type { Article, Site } from '../model/site';
import type { Lang } from '../shared/lang';
import { searchIndexUrl, searchShardUrl } from '../shared/route';
import { type SearchDocument, searchOptions } from '../shared/search';
import type { SearchShards } from '../shared/searchShards';
import { documentFields, searchDocument } from './documents';
import { type IndexedDocument, indexDocument, shardJson, TermTable } from './shardIndex';
import { type KeptDocument, keptIndexed, type ShardTerms } from './shardTerms';

/**
 * The articles a shard holds at most, on average: a shard is indexed again whole when one of its
 * articles changes, so a smaller one makes a save's build shorter, and a reader's browser fetches
 * every shard of its language, so a larger one means fewer files. At 128 a shard is made again in
 * a small part of a save's build, and the largest blogs have a few dozen. The owner's blog has one
 * shard per language; a blog of 4,000 articles has thirty-two.
 */
export const SHARD_SIZE = 128;

/** How many shards an index of `documents` articles has: a power of two, so that growing splits each shard in two. */
export function shardCount(documents: number): number {
  let count = 1;
  while (count * SHARD_SIZE < documents) count *= 2;
  return count;
}

/** The shard an article belongs to, by its URL (FNV-1a): the same for as long as the count is. */
export function shardOf(url: string, count: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < url.length; i++) {
    hash ^= url.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % count;
}

/**
 * A language's shards as the session's last build planned them: each with the articles it held,
 * and the category titles their documents were made with. A shard holding the same article
 * objects (the model shares unchanged ones between builds, see `createSite`) under the same
 * titles has the same inputs, which are not worked out again.
 */
export interface PlannedShards {
  titles: string;
  /**
   * The table the language's documents number their terms in, and the size past which it is
   * started again (twice its size after the build that started it, set by the next one): a
   * session's edits add terms that no document holds any more, which a new table leaves behind.
   */
  table: TermTable;
  limit: number | undefined;
  shards: { held: readonly Article[]; inputs: PlannedFile['inputs'] }[];
  /** The site's articles then, and the shard each was in (-1: none, with no edition in the language). */
  articles: readonly Article[];
  shardAt: Int32Array;
}

/** What a language's search index is made from, and what helps make it (see `searchFiles`). */
export interface ShardWork {
  site: Site;
  lang: Lang;
  /** The fingerprint of the code that makes the shards. */
  code: string;
  /** Each edition's counted terms, in a session that builds again. */
  indexed?: Memo<IndexedDocument> | undefined;
  /** Each shard's counted terms in the build cache, when it is kept. */
  store?: ShardTerms | undefined;
  /** The shards the session's last build planned, by language, brought up to date here. */
  last?: Partial<Record<Lang, PlannedShards>> | undefined;
}

/**
 * A language's search index as files: each shard, made from its articles' fields and bodies, and
 * the list of shards at `searchIndexUrl`, made from their number alone. With `indexed` (a session
 * that builds again), each article's counted terms are kept there while its fields are unchanged,
 * so a shard made again for one edited article counts the terms of that article alone; `last`
 * holds the shards planned by the session's last build, and is brought up to date.
 */
export function searchFiles({ site, lang, code, indexed, store, last }: ShardWork): PlannedFile[] {
  const { shards, shardAt } =
    (last?.[lang] && sameShards(site.articles, lang, last[lang])) ?? placed(site.articles, lang);
  const count = shards.length;
  // One set of options for the language's shards: it keeps the stemmed form of each word it met.
  const options = searchOptions(lang);
  const titles = [...site.categories.values()].map((category) => category.data.title[lang]).join('\n');
  const before = last?.[lang]?.titles === titles ? last[lang]?.shards : undefined;
  const kept = last?.[lang];
  const limit = kept ? (kept.limit ?? 2 * Math.max(kept.table.size, 1024)) : 0;
  const table = kept && kept.table.size <= limit ? kept.table : new TermTable();
  const files = shards.map((held, shard): PlannedFile => {
    const known = before?.[shard];
    // Worked out at most once: for the inputs when the shard's articles changed, and for the shard when it is made.
    let made: string[][] | undefined;
    const fields = () => {
      made ??= held.map((article) => documentFields(site, article, lang));
      return made;
    };
    const inputs =
      known && sameArticles(known.held, held)
        ? known.inputs
        : { code, documents: digestAll(fields().flatMap((each) => [...each, ''])) };
    return {
      file: searchShardUrl(lang, shard).slice(1),
      inputs,
      make: () => {
        const counting: Counting = { lang, code, options, table, indexed, fromFile: store?.read(lang, count, shard) };
        const documents = fields().map((each, i) => counted(site, held[i] as Article, each, counting));
        store?.write(lang, count, shard, documents);
        return shardJson(
          options,
          documents.map(({ document }) => document),
        );
      },
    };
  });
  // The counted terms of the articles in shards carried over are kept, for when one of them is edited.
  if (indexed) for (const held of shards) for (const article of held) indexed.keep(article.editions[lang]?.url ?? '');
  if (last)
    last[lang] = {
      titles,
      table,
      limit: table === kept?.table ? limit : undefined,
      shards: files.map((file, shard) => ({ held: shards[shard] ?? [], inputs: file.inputs })),
      articles: site.articles,
      shardAt,
    };
  const list: SearchShards = { shards: files.map((_, shard) => searchShardUrl(lang, shard)) };
  return [
    ...files,
    { file: searchIndexUrl(lang).slice(1), inputs: { code, shards: String(count) }, make: () => JSON.stringify(list) },
  ];
}

/** How a language's documents are counted: the options, and the table and memo they are kept in. */
interface Counting {
  lang: Lang;
  code: string;
  options: ReturnType<typeof searchOptions>;
  table: TermTable;
  indexed: Memo<IndexedDocument> | undefined;
  /** The documents the shard's file in the build cache keeps, by URL. */
  fromFile?: Map<string, KeptDocument> | undefined;
}

/**
 * An article's document in `lang` with its terms counted, found in the memo, or else in its
 * shard's file, while its fields (`each`) are unchanged.
 */
function counted(
  site: Site,
  article: Article,
  each: readonly string[],
  { lang, code, options, table, indexed, fromFile }: Counting,
): { url: string; inputs: string; document: IndexedDocument } {
  const url = article.editions[lang]?.url ?? '';
  const inputs = { code, fields: JSON.stringify(each) };
  // The same inputs as one string, for the shard's file: the code's fingerprint holds no newline.
  const key = `${code}\n${inputs.fields}`;
  let document = indexed?.get(url, inputs);
  if (document?.table !== table) {
    const found = fromFile?.get(url);
    document =
      found?.inputs === key
        ? keptIndexed(found, table)
        : indexDocument(options, searchDocument(site, article, lang) as SearchDocument, table);
    indexed?.set(url, inputs, document);
  }
  return { url, inputs: key, document };
}

/**
 * Counts ahead the terms that the memo lacks of the articles `from` to `to` of one of the last
 * build's shards, so that the first edit of one of them counts that article alone (`site dev`,
 * while the owner reads). Gives the number of articles the shard holds; -1 when there is no such shard.
 */
export function countAhead(
  {
    site,
    lang,
    code,
    indexed,
    last,
  }: Pick<ShardWork, 'site' | 'lang' | 'code'> & { indexed: Memo<IndexedDocument>; last: PlannedShards | undefined },
  shard: number,
  from: number,
  to: number,
): number {
  const held = last?.shards[shard]?.held;
  if (!last || !held) return -1;
  const counting = { lang, code, options: searchOptions(lang), table: last.table, indexed };
  for (const article of held.slice(from, to)) counted(site, article, documentFields(site, article, lang), counting);
  return held.length;
}

/** Each article with an edition in `lang` in the shard its URL names. */
function placed(articles: readonly Article[], lang: Lang): { shards: Article[][]; shardAt: Int32Array } {
  const count = shardCount(articles.reduce((n, article) => (article.editions[lang] ? n + 1 : n), 0));
  const shards: Article[][] = Array.from({ length: count }, () => []);
  const shardAt = new Int32Array(articles.length).fill(-1);
  articles.forEach((article, i) => {
    const edition = article.editions[lang];
    if (!edition) return;
    const shard = shardOf(edition.url, count);
    shards[shard]?.push(article);
    shardAt[i] = shard;
  });
  return { shards, shardAt };
}

/**
 * The last build's shards with the articles of this one in them, when every article is in the
 * place it was, with an edition in the language at the same URL (or none again): an edit moves no
 * article between shards, and the shards it did not touch are the very lists they were.
 */
function sameShards(
  articles: readonly Article[],
  lang: Lang,
  last: PlannedShards,
): { shards: (readonly Article[])[]; shardAt: Int32Array } | undefined {
  if (articles.length !== last.articles.length) return undefined;
  const shards = last.shards.map((shard) => shard.held);
  const copied = new Set<number>();
  for (let i = 0; i < articles.length; i++) {
    const [article, before] = [articles[i] as Article, last.articles[i] as Article];
    if (article === before) continue;
    if (article.editions[lang]?.url !== before.editions[lang]?.url) return undefined;
    const shard = last.shardAt[i] as number;
    if (shard === -1) continue;
    if (!copied.has(shard)) {
      shards[shard] = [...(shards[shard] ?? [])];
      copied.add(shard);
    }
    const held = shards[shard] as Article[];
    const at = held.indexOf(before);
    if (at === -1) return undefined;
    held[at] = article;
  }
  return { shards, shardAt: last.shardAt };
}

function sameArticles(a: readonly Article[], b: readonly Article[]): boolean {
  return a.length === b.length && a.every((article, i) => article === b[i]);
}
