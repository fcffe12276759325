import MiniSearch from 'minisearch';
import type { Lang } from '../shared/lang';
import { type SearchDocument, searchOptions } from '../shared/search';

/** The indexed fields, in MiniSearch's field-id order, and the fields stored for results. */
const FIELDS = ['title', 'text'] as const;
const STORED = ['title', 'category', 'endpoint'] as const;

/** A document as the index holds it: its terms with their count in each field. */
interface Held {
  document: SearchDocument;
  /** The number of distinct words of each field, as MiniSearch counts a field's length. */
  lengths: number[];
  /** Each processed term, with its count in each field. */
  terms: Map<string, number[]>;
}

/** A document holding a term: its number, and the term's count in each field. */
interface Posting {
  n: number;
  counts: number[];
}

/**
 * A language's search index, kept as data between builds of a session: what each document
 * contributes, and the terms that add up to the index. A build tells it the documents as they are
 * now; only documents that changed are analysed again, and only the terms they touch are written
 * out again. The output is MiniSearch's serialized form (`MiniSearch.loadJSON` reads it, with the
 * same options), in one canonical order: documents numbered by id, terms sorted. The same
 * documents therefore always give the same bytes, whatever the index held before.
 */
export class SearchIndex {
  private readonly options: ReturnType<typeof searchOptions>;
  private readonly tokenize = MiniSearch.getDefault('tokenize') as (text: string, field: string) => string[];
  /** The documents in their numbering (by id): a document's number is its place here. */
  private documents: Held[] = [];
  /** For each term, the numbers of the documents holding it, in order, with the term's counts. */
  private readonly postings = new Map<string, Posting[]>();
  /** Each term's part of the output, while the documents' numbering is unchanged. */
  private readonly written = new Map<string, string>();
  private terms: string[] | undefined;

  constructor(lang: Lang) {
    this.options = searchOptions(lang);
  }

  /** The index of exactly these documents, serialized. */
  update(documents: readonly SearchDocument[]): string {
    const held = new Map(this.documents.map((h) => [h.document.id, h]));
    const sameIds = documents.length === held.size && documents.every((document) => held.has(document.id));
    if (!sameIds) {
      // A document added or removed renumbers the documents after it: every term is written again.
      const keep = (document: SearchDocument) => {
        const before = held.get(document.id);
        return before && sameDocument(before.document, document) ? before : this.analyse(document);
      };
      this.documents = [...documents].sort((a, b) => compare(a.id, b.id)).map(keep);
      this.postings.clear();
      this.written.clear();
      this.terms = undefined;
      this.documents.forEach((h, n) => {
        for (const [term, counts] of h.terms) this.posting(term).push({ n, counts });
      });
      return this.serialize();
    }
    const number = new Map(this.documents.map((h, n) => [h.document.id, n]));
    for (const document of documents) {
      const n = number.get(document.id) as number;
      const before = this.documents[n] as Held;
      if (sameDocument(before.document, document)) continue;
      const after = this.analyse(document);
      this.documents[n] = after;
      for (const term of before.terms.keys()) if (!after.terms.has(term)) this.unpost(term, n);
      for (const [term, counts] of after.terms) this.post(term, n, counts);
    }
    return this.serialize();
  }

  private posting(term: string): Posting[] {
    let list = this.postings.get(term);
    if (!list) {
      list = [];
      this.postings.set(term, list);
      this.terms = undefined;
    }
    return list;
  }

  /** Sets document `n`'s counts of `term`, in order. */
  private post(term: string, n: number, counts: number[]): void {
    const list = this.posting(term);
    const at = place(list, n);
    if (list[at]?.n === n) (list[at] as Posting).counts = counts;
    else list.splice(at, 0, { n, counts });
    this.written.delete(term);
  }

  private unpost(term: string, n: number): void {
    const list = this.postings.get(term) ?? [];
    const at = place(list, n);
    if (list[at]?.n === n) list.splice(at, 1);
    this.written.delete(term);
    if (list.length === 0) {
      this.postings.delete(term);
      this.terms = undefined;
    }
  }

  /** A document's terms and field lengths, exactly as `MiniSearch#add` counts them. */
  private analyse(document: SearchDocument): Held {
    const terms = new Map<string, number[]>();
    const lengths = FIELDS.map((field, fieldId) => {
      const tokens = this.tokenize(document[field], field);
      for (const token of tokens) {
        const processed = this.options.processTerm?.(token, field);
        for (const term of Array.isArray(processed) ? processed : processed ? [processed] : []) {
          let counts = terms.get(term);
          if (!counts) {
            counts = FIELDS.map(() => 0);
            terms.set(term, counts);
          }
          counts[fieldId] = (counts[fieldId] as number) + 1;
        }
      }
      return new Set(tokens).size;
    });
    return { document, lengths, terms };
  }

  private serialize(): string {
    const documents = this.documents;
    const documentIds: Record<number, string> = {};
    const fieldLength: Record<number, number[]> = {};
    const storedFields: Record<number, Record<string, string>> = {};
    const totals = FIELDS.map(() => 0);
    documents.forEach((held, n) => {
      documentIds[n] = held.document.id;
      fieldLength[n] = held.lengths;
      storedFields[n] = Object.fromEntries(STORED.map((field) => [field, held.document[field]]));
      held.lengths.forEach((length, fieldId) => {
        totals[fieldId] = (totals[fieldId] as number) + length;
      });
    });
    this.terms ??= [...this.postings.keys()].sort(compare);
    const index = this.terms.map((term) => {
      let part = this.written.get(term);
      if (part === undefined) {
        part = this.term(term);
        this.written.set(term, part);
      }
      return part;
    });
    const head = JSON.stringify({
      documentCount: documents.length,
      nextId: documents.length,
      documentIds,
      fieldIds: Object.fromEntries(FIELDS.map((field, fieldId) => [field, fieldId])),
      fieldLength,
      averageFieldLength: totals.map((total) => (documents.length ? total / documents.length : 0)),
      storedFields,
      dirtCount: 0,
    });
    return `${head.slice(0, -1)},"index":[${index.join(',')}],"serializationVersion":2}`;
  }

  /** One term's entry: for each field, the number of each document holding it and its count there. */
  private term(term: string): string {
    const list = this.postings.get(term) ?? [];
    const fields: Record<number, Record<number, number>> = {};
    FIELDS.forEach((_field, fieldId) => {
      const counts: Record<number, number> = {};
      let any = false;
      for (const { n, counts: perField } of list) {
        const count = perField[fieldId] as number;
        if (count > 0) {
          counts[n] = count;
          any = true;
        }
      }
      if (any) fields[fieldId] = counts;
    });
    return JSON.stringify([term, fields]);
  }
}

/** Where document `n` is, or belongs, in a posting list ordered by number. */
function place(list: readonly Posting[], n: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((list[middle] as Posting).n < n) low = middle + 1;
    else high = middle;
  }
  return low;
}

function sameDocument(a: SearchDocument, b: SearchDocument): boolean {
  return a.title === b.title && a.text === b.text && a.category === b.category && a.endpoint === b.endpoint;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
