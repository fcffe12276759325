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
 * The terms of a language's documents, each numbered once: a document holds its terms' numbers,
 * and a term's text (and its JSON) is kept once, however many documents and shards hold it.
 */
export class TermTable {
  private readonly ids = new Map<string, number>();
  private readonly terms: string[] = [];
  /** Each term as a JSON string, made when a shard first writes it. */
  private readonly json: (string | undefined)[] = [];

  /** The number of `term`, given it now when it has none. */
  id(term: string): number {
    let id = this.ids.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.ids.set(term, id);
      this.terms.push(term);
    }
    return id;
  }

  /** The term numbered `id`. */
  term(id: number): string {
    return this.terms[id] as string;
  }

  /** The term numbered `id`, as a JSON string. */
  jsonOf(id: number): string {
    let json = this.json[id];
    if (json === undefined) {
      json = JSON.stringify(this.terms[id]);
      this.json[id] = json;
    }
    return json;
  }

  get size(): number {
    return this.terms.length;
  }
}

/**
 * One document as a shard holds it: what it stores, the length of each field, and each term's
 * count per field. Compact, because a `site dev` session keeps one for every article edition:
 * each field's terms as numbers in a table of the language's terms, and their counts in the same
 * order.
 */
export interface IndexedDocument {
  id: string;
  stored: Record<string, string>;
  /** Distinct tokens of each indexed field, in the options' order (MiniSearch's field length). */
  lengths: number[];
  /** The table its terms are numbered in. */
  table: TermTable;
  /** For each indexed field, its terms' numbers, in the order they are first met. */
  terms: Uint32Array[];
  /** For each indexed field, the count of each of its terms. */
  counts: Uint32Array[];
}

const processTermDefault = MiniSearch.getDefault('processTerm') as NonNullable<Options['processTerm']>;

/** A document's terms, counted as `MiniSearch#add` counts them with these options, numbered in `table`. */
export function indexDocument(
  options: Options<SearchDocument>,
  document: SearchDocument,
  table: TermTable,
): IndexedDocument {
  const fields = options.fields as Field[];
  const processTerm = options.processTerm ?? processTermDefault;
  const stored: Record<string, string> = {};
  for (const field of (options.storeFields ?? []) as Field[]) stored[field] = document[field];
  const lengths: number[] = [];
  const terms: Uint32Array[] = [];
  const counts = fields.map((field, at) => {
    const tokens = tokensOf(table, processTerm, field);
    const text = String(document[field]);
    // MiniSearch's own tokenizer is read straight from the text (`countText`), as it splits.
    const counted = options.tokenize ? tokens.count(options.tokenize(text, field)) : tokens.countText(text);
    lengths[at] = counted.distinct;
    terms[at] = counted.terms;
    return counted.counts;
  });
  return { id: document.id, stored, lengths, table, terms, counts };
}

/**
 * What separates MiniSearch's default tokens (its `SPACE_OR_PUNCTUATION`, which splits a text on
 * runs of them), one character at a time; decided for each character below `NEAR` once, and for
 * the others when first met.
 */
const SEPARATOR = /^[\n\r\p{Z}\p{P}]$/u;
const NEAR = 0x3000;
const separatesNear = Uint8Array.from({ length: NEAR }, (_, c) => (SEPARATOR.test(String.fromCharCode(c)) ? 1 : 0));
const separatesFar = new Map<number, boolean>();

/** How many code units of `text` at `at` make a separator: 0 when none does. */
function separatorAt(text: string, at: number): number {
  const unit = text.charCodeAt(at);
  if (unit < NEAR) return separatesNear[unit] as number;
  const point = text.codePointAt(at) as number;
  let separates = separatesFar.get(point);
  if (separates === undefined) {
    separates = SEPARATOR.test(String.fromCodePoint(point));
    separatesFar.set(point, separates);
  }
  return separates ? (point > 0xffff ? 2 : 1) : 0;
}

/** Distinct tokens a `Tokens` remembers at most; it starts afresh past them. */
const TOKENS_KEPT = 500_000;

/** A field's counted terms: in the order first met, each one's count, and its distinct tokens (MiniSearch's field length). */
interface CountedField {
  terms: Uint32Array;
  counts: Uint32Array;
  distinct: number;
}

/**
 * Each distinct token of a field met so far, with the number of the term it stands for in a table
 * of terms: a text repeats a small vocabulary many times, and a token's term is worked out once
 * (`processTerm`, then the table). A token's term does not change while the table and
 * `processTerm` are the same, and the table numbers a term the first time any token stands for
 * it, as when every word was looked up: the same numbers, in the same order. Tokens are found in a
 * table of their own by their characters, so a token met before is counted without being cut out
 * of its text as a string of its own.
 */
class Tokens {
  private tokens: string[] = [];
  /** Each token's hash (FNV-1a of its UTF-16 code units). */
  private hashes = new Int32Array(1024);
  /** Open addressing: each bucket holds a token's place, or -1. */
  private buckets = new Int32Array(4096).fill(-1);
  /** Each token's term: its number, or NONE (`processTerm` keeps no term of it), or SEVERAL (in `several`). */
  private termOf = new Int32Array(1024);
  /** Each token's `stamp` when last met: a field's distinct tokens are counted without a set of them. */
  private seenIn = new Uint32Array(1024);
  private stamp = 0;
  private readonly several = new Map<number, string[]>();
  /** The field being counted: its terms in the order first met, and its distinct tokens. */
  private met: number[] = [];
  private distinct = 0;

  constructor(
    private readonly table: TermTable,
    private readonly processTerm: NonNullable<Options['processTerm']>,
    private readonly field: string,
  ) {}

  /** Counts tokens a tokenizer made. */
  count(tokens: readonly string[]): CountedField {
    this.begin();
    for (const token of tokens) this.meet(this.placeOf(token, 0, token.length));
    return this.end();
  }

  /**
   * Counts the tokens MiniSearch's default tokenizer makes of `text` (`text.split(/[\n\r\p{Z}\p{P}]+/u)`:
   * what lies between runs of separators, an empty token included where the text starts or ends
   * with one), read in place.
   */
  countText(text: string): CountedField {
    this.begin();
    const length = text.length;
    let start = 0;
    for (let at = 0; at < length; ) {
      const unit = text.charCodeAt(at);
      let width = unit < NEAR ? (separatesNear[unit] as number) : separatorAt(text, at);
      if (width === 0) {
        // A pair of surrogates is one character; either half alone is one too, as the pattern reads it.
        at += unit >= 0xd800 && unit <= 0xdbff && (text.codePointAt(at) as number) > 0xffff ? 2 : 1;
        continue;
      }
      this.meet(this.placeOf(text, start, at));
      while (width > 0) {
        at += width;
        if (at >= length) break;
        const next = text.charCodeAt(at);
        width = next < NEAR ? (separatesNear[next] as number) : separatorAt(text, at);
      }
      start = at;
    }
    this.meet(this.placeOf(text, start, length));
    return this.end();
  }

  private begin(): void {
    if (this.tokens.length > TOKENS_KEPT) this.forget();
    this.stamp++;
    this.met = [];
    this.distinct = 0;
  }

  private meet(place: number): void {
    if (this.seenIn[place] !== this.stamp) {
      this.seenIn[place] = this.stamp;
      this.distinct++;
    }
    const term = this.termOf[place] as number;
    if (term >= 0) tally(term, this.met);
    else if (term === SEVERAL) for (const each of this.several.get(place) ?? []) tally(this.table.id(each), this.met);
  }

  private end(): CountedField {
    const { met } = this;
    const counts = new Uint32Array(met.length);
    for (let i = 0; i < met.length; i++) {
      const term = met[i] as number;
      counts[i] = tallies[term] as number;
      tallies[term] = 0;
    }
    return { terms: Uint32Array.from(met), counts, distinct: this.distinct };
  }

  /** The place of the token `text` holds from `start` to `end`, learnt when it is new. */
  private placeOf(text: string, start: number, end: number): number {
    let hash = 0x811c9dc5 | 0;
    for (let at = start; at < end; at++) hash = Math.imul(hash ^ text.charCodeAt(at), 0x01000193);
    const mask = this.buckets.length - 1;
    for (let bucket = hash & mask; ; bucket = (bucket + 1) & mask) {
      const place = this.buckets[bucket] as number;
      if (place === -1) return this.learn(text.slice(start, end), hash, bucket);
      if (this.hashes[place] === hash && sameText(this.tokens[place] as string, text, start, end)) return place;
    }
  }

  private learn(token: string, hash: number, bucket: number): number {
    const place = this.tokens.length;
    this.tokens.push(token);
    if (place >= this.termOf.length) {
      this.termOf = grown(this.termOf, place, (size) => new Int32Array(size));
      this.seenIn = grown(this.seenIn, place, (size) => new Uint32Array(size));
      this.hashes = grown(this.hashes, place, (size) => new Int32Array(size));
    }
    this.hashes[place] = hash;
    this.buckets[bucket] = place;
    // At most half full: a token not met yet is told in a probe or two.
    if (2 * this.tokens.length > this.buckets.length) this.rehash(2 * this.buckets.length);
    const processed = this.processTerm(token, this.field);
    if (Array.isArray(processed)) {
      this.termOf[place] = SEVERAL;
      this.several.set(place, processed);
      for (const term of processed) this.table.id(term);
    } else this.termOf[place] = processed ? this.table.id(processed) : NONE;
    return place;
  }

  private rehash(size: number): void {
    this.buckets = new Int32Array(size).fill(-1);
    const mask = size - 1;
    for (let place = 0; place < this.tokens.length; place++) {
      let bucket = (this.hashes[place] as number) & mask;
      while (this.buckets[bucket] !== -1) bucket = (bucket + 1) & mask;
      this.buckets[bucket] = place;
    }
  }

  private forget(): void {
    this.tokens = [];
    this.buckets = new Int32Array(4096).fill(-1);
    this.several.clear();
    this.seenIn.fill(0);
    this.stamp = 0;
  }
}

/** Whether `token` is the text `text` holds from `start` to `end`. */
function sameText(token: string, text: string, start: number, end: number): boolean {
  if (token.length !== end - start) return false;
  for (let i = 0; i < token.length; i++) if (token.charCodeAt(i) !== text.charCodeAt(start + i)) return false;
  return true;
}

const NONE = -1;
const SEVERAL = -2;

/** Each term's count in the field being counted (zero again once it is counted). */
let tallies = new Uint32Array(1024);

function tally(term: number, met: number[]): void {
  if (term >= tallies.length) tallies = grown(tallies, term, (size) => new Uint32Array(size));
  if (tallies[term] === 0) met.push(term);
  tallies[term] = (tallies[term] as number) + 1;
}

/** `array` with room for index `at`, its values kept. */
function grown<T extends Int32Array | Uint32Array>(array: T, at: number, make: (size: number) => T): T {
  const larger = make(Math.max(at + 1, array.length * 2));
  larger.set(array);
  return larger;
}

/** The tokens of `field` counted into `table` by `processTerm`: one for as long as the three are the same. */
const tokensBy = new WeakMap<TermTable, WeakMap<NonNullable<Options['processTerm']>, Map<string, Tokens>>>();

function tokensOf(table: TermTable, processTerm: NonNullable<Options['processTerm']>, field: string): Tokens {
  let byTerm = tokensBy.get(table);
  if (!byTerm) {
    byTerm = new WeakMap();
    tokensBy.set(table, byTerm);
  }
  let byField = byTerm.get(processTerm);
  if (!byField) {
    byField = new Map();
    byTerm.set(processTerm, byField);
  }
  let tokens = byField.get(field);
  if (!tokens) {
    tokens = new Tokens(table, processTerm, field);
    byField.set(field, tokens);
  }
  return tokens;
}

/**
 * A shard's JSON, as UTF-8 bytes: its documents numbered in the order of their ids, so the same
 * documents give the same bytes, and each term's counts by field and document, as
 * `JSON.stringify(miniSearch)` would write them (terms in the order they are first met, which
 * MiniSearch does not depend on). Every document must be numbered in one table. Bytes, not a
 * string: the shard is hashed and written as they are, and a few hundred kilobytes decoded into a
 * string only to be encoded again cost more than making them.
 */
export function shardJson(options: Options<SearchDocument>, documents: readonly IndexedDocument[]): Buffer {
  const fields = options.fields as Field[];
  const width = fields.length;
  const fieldKeys = fields.map((_, at) => Buffer.from(`"${at}":`, 'latin1'));
  const sorted = [...documents].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const table = sorted[0]?.table ?? new TermTable();
  const documentIds: Record<number, string> = {};
  const fieldLength: Record<number, number[]> = {};
  const storedFields: Record<number, Record<string, string>> = {};
  const averageFieldLength: number[] = [];
  // Each term of the shard numbered again, in the order first met; each posting (term and field,
  // document, count) kept as numbers until the shard is written.
  const local = new Int32Array(table.size).fill(-1);
  const met: number[] = [];
  let total = 0;
  for (const document of sorted) for (const ids of document.terms) total += ids.length;
  const slots = new Uint32Array(total);
  const postedIn = new Uint32Array(total);
  const postedCounts = new Uint32Array(total);
  let posted = 0;
  sorted.forEach((document, short) => {
    if (document.table !== table)
      throw new Error(`${document.id} is numbered in another table of terms than the rest of its shard`);
    documentIds[short] = document.id;
    fieldLength[short] = document.lengths;
    storedFields[short] = document.stored;
    // The running average MiniSearch keeps, to the same last bit.
    for (let at = 0; at < width; at++)
      averageFieldLength[at] = ((averageFieldLength[at] ?? 0) * short + (document.lengths[at] ?? 0)) / (short + 1);
    for (let at = 0; at < document.terms.length; at++) {
      const ids = document.terms[at] as Uint32Array;
      const counts = document.counts[at] as Uint32Array;
      for (let i = 0; i < ids.length; i++) {
        const id = ids[i] as number;
        let term = local[id] as number;
        if (term === -1) {
          term = met.length;
          local[id] = term;
          met.push(id);
        }
        slots[posted] = term * width + at;
        postedIn[posted] = short;
        postedCounts[posted++] = counts[i] as number;
      }
    }
  });
  // The postings grouped by term and field, in document order within each (a stable counting sort).
  const starts = new Uint32Array(met.length * width + 1);
  for (const slot of slots) (starts[slot + 1] as number)++;
  for (let slot = 1; slot < starts.length; slot++)
    starts[slot] = (starts[slot] as number) + (starts[slot - 1] as number);
  const next = starts.slice(0, -1);
  const order = new Uint32Array(slots.length);
  for (let posting = 0; posting < slots.length; posting++)
    order[(next[slots[posting] as number] as number)++] = posting;
  // Written as bytes: a shard is tens of thousands of small pieces, which as strings were as many
  // objects for the collector.
  const out = new ByteWriter(slots.length * 8 + met.length * 16);
  const pair = sorted.map((_, short) => Buffer.from(`"${short}":`, 'latin1'));
  for (let term = 0; term < met.length; term++) {
    if (term > 0) out.byte(COMMA);
    out.byte(OPEN_LIST);
    out.text(table.jsonOf(met[term] as number));
    out.byte(COMMA);
    out.byte(OPEN_OBJECT);
    let written = 0;
    for (let at = 0; at < width; at++) {
      const slot = term * width + at;
      const [from, to] = [starts[slot] as number, starts[slot + 1] as number];
      if (from === to) continue;
      if (written++ > 0) out.byte(COMMA);
      out.bytes(fieldKeys[at] as Uint8Array);
      out.byte(OPEN_OBJECT);
      for (let p = from; p < to; p++) {
        const posting = order[p] as number;
        if (p > from) out.byte(COMMA);
        out.bytes(pair[postedIn[posting] as number] as Uint8Array);
        out.number(postedCounts[posting] as number);
      }
      out.byte(CLOSE_OBJECT);
    }
    out.byte(CLOSE_OBJECT);
    out.byte(CLOSE_LIST);
  }
  const fieldIds = Object.fromEntries(fields.map((field, at) => [field, at]));
  const head = JSON.stringify({
    documentCount: sorted.length,
    nextId: sorted.length,
    documentIds,
    fieldIds,
    fieldLength,
    averageFieldLength,
    storedFields,
    dirtCount: 0,
  });
  return Buffer.concat([
    Buffer.from(`${head.slice(0, -1)},"index":[`),
    out.written(),
    Buffer.from('],"serializationVersion":2}'),
  ]);
}

const [COMMA, OPEN_LIST, CLOSE_LIST, OPEN_OBJECT, CLOSE_OBJECT, ZERO] = [0x2c, 0x5b, 0x5d, 0x7b, 0x7d, 0x30];

/** A growing buffer of UTF-8 bytes. */
class ByteWriter {
  private buffer: Buffer;
  private length = 0;

  constructor(size: number) {
    this.buffer = Buffer.allocUnsafe(Math.max(size, 1024));
  }

  byte(value: number): void {
    this.room(1);
    this.buffer[this.length++] = value;
  }

  bytes(values: Uint8Array): void {
    this.room(values.length);
    for (let i = 0; i < values.length; i++) this.buffer[this.length++] = values[i] as number;
  }

  /** A whole number, in decimal. */
  number(value: number): void {
    if (value < 10) {
      this.byte(ZERO + value);
      return;
    }
    const digits = String(value);
    this.room(digits.length);
    for (let i = 0; i < digits.length; i++) this.buffer[this.length++] = digits.charCodeAt(i);
  }

  text(value: string): void {
    this.room(Buffer.byteLength(value));
    this.length += this.buffer.write(value, this.length);
  }

  /** The bytes written so far (a view, not a copy). */
  written(): Buffer {
    return this.buffer.subarray(0, this.length);
  }

  private room(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const larger = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + bytes));
    this.buffer.copy(larger, 0, 0, this.length);
    this.buffer = larger;
  }
}
