/**
 * A shard of the search index, written from its documents' counted terms in the form MiniSearch
 * serializes an index to (`AsPlainObject`, which `MiniSearch.loadJS` reads back), without building
 * MiniSearch's own index (a tree of maps) only to serialize it. Each document is tokenized and its
 * terms counted once, exactly as `MiniSearch#add` does; a shard is those counts put together.
 */
import MiniSearch, { type Options } from 'minisearch';
import type { SearchDocument } from '../shared/search';

/** The fields a search document is indexed by and the fields it stores, as the index's options name them. */
type Field = keyof SearchDocument;

/**
 * One document as a shard holds it: what it stores, the length of each field, and each term's
 * count per field. Compact, because a `site dev` session keeps one for every article edition: each
 * field's terms as one string, joined by newlines (a term never holds one, the tokenizer splits
 * there), and their counts in the same order.
 */
export interface IndexedDocument {
  id: string;
  stored: Record<string, string>;
  /** Distinct tokens of each indexed field, in the options' order (MiniSearch's field length). */
  lengths: number[];
  /** For each indexed field, its terms joined by newlines. */
  terms: string[];
  /** For each indexed field, the count of each of its terms. */
  counts: Uint32Array[];
}

const tokenizeDefault = MiniSearch.getDefault('tokenize') as (text: string, field: string) => string[];

/** A document's terms, counted as `MiniSearch#add` counts them with these options. */
export function indexDocument(options: Options<SearchDocument>, document: SearchDocument): IndexedDocument {
  const fields = options.fields as Field[];
  const tokenize = options.tokenize ?? tokenizeDefault;
  const processTerm = options.processTerm ?? (MiniSearch.getDefault('processTerm') as NonNullable<Options['processTerm']>);
  const stored: Record<string, string> = {};
  for (const field of (options.storeFields ?? []) as Field[]) stored[field] = document[field];
  const lengths: number[] = [];
  const terms: string[] = [];
  const counts = fields.map((field, at) => {
    const counted = new Map<string, number>();
    const tokens = tokenize(String(document[field]), field);
    lengths[at] = new Set(tokens).size;
    for (const token of tokens) {
      const processed = processTerm(token, field);
      if (Array.isArray(processed)) for (const term of processed) counted.set(term, (counted.get(term) ?? 0) + 1);
      else if (processed) counted.set(processed, (counted.get(processed) ?? 0) + 1);
    }
    terms[at] = [...counted.keys()].join('\n');
    return Uint32Array.from(counted.values());
  });
  return { id: document.id, stored, lengths, terms, counts };
}

/**
 * A shard's JSON: its documents numbered in the order of their ids, so the same documents give the
 * same bytes, and each term's counts by field and document, as `JSON.stringify(miniSearch)` would
 * write them (terms in the order they are first met, which MiniSearch does not depend on).
 */
export function shardJson(options: Options<SearchDocument>, documents: readonly IndexedDocument[]): string {
  const fields = options.fields as Field[];
  const sorted = [...documents].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const documentIds: Record<number, string> = {};
  const fieldLength: Record<number, number[]> = {};
  const storedFields: Record<number, Record<string, string>> = {};
  const averageFieldLength: number[] = [];
  // Each term once, in the order first met, and per field its postings ("document:count" pairs in
  // document order) as one growing string: a shard holds tens of thousands of them.
  const termIds = new Map<string, number>();
  const terms: string[] = [];
  const postings: (string | undefined)[][] = fields.map(() => []);
  sorted.forEach((document, short) => {
    documentIds[short] = document.id;
    fieldLength[short] = document.lengths;
    storedFields[short] = document.stored;
    // The running average MiniSearch keeps, to the same last bit.
    fields.forEach((_, at) => {
      averageFieldLength[at] = ((averageFieldLength[at] ?? 0) * short + (document.lengths[at] ?? 0)) / (short + 1);
    });
    const pair = `"${short}":`;
    document.terms.forEach((joined, at) => {
      if (joined === '') return;
      const counts = document.counts[at] as Uint32Array;
      const byTerm = postings[at] as (string | undefined)[];
      for (let start = 0, i = 0; start <= joined.length; i++) {
        const end = joined.indexOf('\n', start);
        const term = end === -1 ? joined.slice(start) : joined.slice(start, end);
        start = end === -1 ? joined.length + 1 : end + 1;
        let id = termIds.get(term);
        if (id === undefined) {
          id = terms.length;
          termIds.set(term, id);
          terms.push(term);
          for (const list of postings) list.push(undefined);
        }
        const before = byTerm[id];
        byTerm[id] = before === undefined ? pair + counts[i] : `${before},${pair}${counts[i]}`;
      }
    });
  });
  const index: string[] = [];
  terms.forEach((term, id) => {
    let data = '';
    postings.forEach((byTerm, at) => {
      const pairs = byTerm[id];
      if (pairs !== undefined) data += `${data ? ',' : ''}"${at}":{${pairs}}`;
    });
    index.push(`[${JSON.stringify(term)},{${data}}]`);
  });
  const fieldIds = Object.fromEntries(fields.map((field, at) => [field, at]));
  const head = JSON.stringify({ documentCount: sorted.length, nextId: sorted.length, documentIds, fieldIds, fieldLength, averageFieldLength, storedFields, dirtCount: 0 });
  return `${head.slice(0, -1)},"index":[${index.join(',')}],"serializationVersion":2}`;
}
