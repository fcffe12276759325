/**
 * A language's search index is published in shards: the articles are split by a hash of their URL,
 * and each shard is a MiniSearch index of its own articles. Editing one article makes one shard
 * again, not the whole index. Whoever searches (the server, or the browser on a static host) joins
 * the shards back into one index, with the statistics of the whole blog, so the ranking is the
 * same as that of one index built from every article.
 */
import type { AsPlainObject } from 'minisearch';

/** What `/search/<lang>.json` holds: the URL of each shard of that language's index. */
export interface SearchShards {
  shards: string[];
}

type Postings = Record<string, Record<string, number>>;

/**
 * One index from its shards: each shard's documents numbered after those of the shards before it,
 * each term's postings put together, and the average field lengths taken over every document.
 */
export function mergeShards(shards: readonly AsPlainObject[]): AsPlainObject {
  const [first] = shards;
  if (!first) throw new Error('a search index has at least one shard');
  if (shards.length === 1) return first;
  const documentIds: AsPlainObject['documentIds'] = {};
  const fieldLength: AsPlainObject['fieldLength'] = {};
  const storedFields: AsPlainObject['storedFields'] = {};
  const index = new Map<string, Postings>();
  const totals: number[] = [];
  let documentCount = 0;
  let offset = 0;
  for (const shard of shards) {
    const renumber = (short: string) => String(Number(short) + offset);
    for (const [short, id] of Object.entries(shard.documentIds)) documentIds[renumber(short)] = id;
    for (const [short, lengths] of Object.entries(shard.fieldLength)) fieldLength[renumber(short)] = lengths;
    for (const [short, stored] of Object.entries(shard.storedFields)) storedFields[renumber(short)] = stored;
    shard.averageFieldLength.forEach((average, field) => {
      totals[field] = (totals[field] ?? 0) + average * shard.documentCount;
    });
    for (const [term, fields] of shard.index as [string, Postings][]) {
      let joined = index.get(term);
      if (!joined) {
        joined = {};
        index.set(term, joined);
      }
      for (const [field, postings] of Object.entries(fields)) {
        const into = joined[field] ?? {};
        joined[field] = into;
        for (const [short, count] of Object.entries(postings)) into[renumber(short)] = count;
      }
    }
    documentCount += shard.documentCount;
    offset += shard.nextId;
  }
  return {
    documentCount,
    nextId: offset,
    documentIds,
    fieldIds: first.fieldIds,
    fieldLength,
    averageFieldLength: totals.map((total) => (documentCount ? total / documentCount : 0)),
    storedFields,
    dirtCount: 0,
    index: [...index],
    serializationVersion: 2,
  };
}
