/**
 * The best few matches of a query in a MiniSearch index, ranked exactly as `MiniSearch#search`
 * ranks them (BM25 per field, field boosts, prefix and fuzzy weights, every word required), but
 * without building MiniSearch's full result list: `search` makes several objects for every
 * matching article and sorts them all, which on a large blog is most of a query's time and nearly
 * all of its garbage. Here scores add up in typed arrays reused from one query to the next, and
 * only the top `limit` are kept.
 *
 * It reads the index through MiniSearch's protected members, the surface the library keeps for
 * subclasses. tests/unit/search/topMatches.test.ts compares every ranking with `search`'s own, so an
 * upgrade that changes them fails there.
 */
import type MiniSearch from 'minisearch';
import type { Options, SearchOptions } from 'minisearch';

/** A term's postings: field id → (short document id → term frequency). */
type FieldTermData = Map<number, Map<number, number>>;

interface TermMap {
  get(term: string): FieldTermData | undefined;
  atPrefix(prefix: string): Iterable<[string, FieldTermData]>;
  fuzzyGet(term: string, maxDistance: number): Map<string, [FieldTermData, number]>;
}

/** MiniSearch's protected members, as of 7.x. */
interface IndexData {
  _options: Required<Pick<Options, 'tokenize' | 'processTerm' | 'fields'>> & { searchOptions?: SearchOptions };
  _index: TermMap;
  _documentCount: number;
  _documentIds: Map<number, unknown>;
  _fieldIds: Record<string, number>;
  _fieldLength: Map<number, number[]>;
  _avgFieldLength: number[];
  _nextId: number;
  _storedFields: Map<number, Record<string, unknown> | undefined>;
}

/** MiniSearch's defaults for what our options leave unset. */
const DEFAULT_WEIGHTS = { fuzzy: 0.45, prefix: 0.375 };
const DEFAULT_BM25 = { k: 1.2, b: 0.7, d: 0.5 };
const DEFAULT_MAX_FUZZY = 6;

export interface Match {
  id: unknown;
  stored: Record<string, unknown>;
}

/** Per-document accumulators, sized to the index and cleared after each query. */
interface Scratch {
  /** The summed score of the words before the one a document last matched. */
  score: Float64Array;
  /** Its score for the word it last matched, kept apart to add up in MiniSearch's order. */
  current: Float64Array;
  /** How many of the query's words the document matched. */
  words: Uint16Array;
  /** The last word (1-based) that touched the document, so each word counts once. */
  lastWord: Uint16Array;
  /** When the last word first touched it: MiniSearch's order among equal scores. */
  order: Int32Array;
  touched: Int32Array;
  touchedCount: number;
  /**
   * Each document's field lengths side by side (`doc * fields + fieldId`), -1 for a removed
   * document: read once per posting, two hash lookups each in MiniSearch's maps.
   */
  lengths: Float64Array;
  fields: number;
  /** The index's shape when the lengths were copied; any add or remove changes it. */
  shape: string;
}

const scratches = new WeakMap<object, Scratch>();

function scratchFor(data: IndexData): Scratch {
  const shape = `${data._nextId}:${data._documentCount}`;
  let scratch = scratches.get(data);
  if (scratch?.shape !== shape) {
    const size = data._nextId;
    const fields = Object.keys(data._fieldIds).length;
    const lengths = new Float64Array(size * fields).fill(-1);
    for (const [doc, fieldLengths] of data._fieldLength) {
      if (!data._documentIds.has(doc)) continue;
      // forEach, not for..of: it skips the holes of a sparse array, whose lengths stay -1.
      fieldLengths.forEach((length, fieldId) => {
        lengths[doc * fields + fieldId] = length ?? 0;
      });
    }
    scratch = {
      score: new Float64Array(size),
      current: new Float64Array(size),
      words: new Uint16Array(size),
      lastWord: new Uint16Array(size),
      order: new Int32Array(size),
      touched: new Int32Array(size),
      touchedCount: 0,
      lengths,
      fields,
      shape,
    };
    scratches.set(data, scratch);
  }
  return scratch;
}

function clear(scratch: Scratch): void {
  for (let i = 0; i < scratch.touchedCount; i++) {
    const doc = scratch.touched[i] as number;
    scratch.score[doc] = 0;
    scratch.current[doc] = 0;
    scratch.words[doc] = 0;
    scratch.lastWord[doc] = 0;
  }
  scratch.touchedCount = 0;
}

/**
 * Up to `limit` documents that match every word of `query`, best first. `options` are search
 * options laid over the index's own, as `MiniSearch#search` takes them; only `prefix`, `fuzzy`,
 * `maxFuzzy`, `boost`, `weights` and `bm25` are supported, with AND combination.
 */
export function topMatches<T>(
  index: MiniSearch<T>,
  query: string,
  limit: number,
  options: SearchOptions = {},
): { matches: Match[]; total: number } {
  const data = index as unknown as IndexData;
  const settings = { ...data._options.searchOptions, ...options };
  if (settings.combineWith !== undefined && settings.combineWith.toUpperCase() !== 'AND')
    throw new Error('topMatches combines words with AND only');
  const { tokenize, processTerm, fields } = data._options;
  const words = tokenize(query)
    .flatMap((token) => processTerm(token) ?? [])
    .filter((word): word is string => !!word);
  if (words.length === 0) return { matches: [], total: 0 };

  const weights = { ...DEFAULT_WEIGHTS, ...settings.weights };
  const bm25 = { ...DEFAULT_BM25, ...settings.bm25 };
  const maxFuzzy = settings.maxFuzzy ?? DEFAULT_MAX_FUZZY;
  const fieldBoosts = (settings.fields ?? fields).map((field) => ({
    id: data._fieldIds[field] as number,
    boost: settings.boost?.[field] || 1,
  }));
  const scratch = scratchFor(data);
  const { lengths, fields: stride } = scratch;
  let sequence = 0;

  const addPostings = (word: number, termData: FieldTermData | undefined, weight: number) => {
    if (!termData) return;
    for (const { id: fieldId, boost } of fieldBoosts) {
      const postings = termData.get(fieldId);
      if (!postings) continue;
      const avgLength = data._avgFieldLength[fieldId] as number;
      const idf = Math.log(1 + (data._documentCount - postings.size + 0.5) / (postings.size + 0.5));
      // forEach, not for…of: no [key, value] pair is made for each posting.
      postings.forEach((frequency, doc) => {
        const length = lengths[doc * stride + fieldId] as number;
        if (length < 0) return;
        const bm =
          idf *
          (bm25.d + (frequency * (bm25.k + 1)) / (frequency + bm25.k * (1 - bm25.b + (bm25.b * length) / avgLength)));
        if (scratch.lastWord[doc] !== word) {
          if (scratch.lastWord[doc] === 0) scratch.touched[scratch.touchedCount++] = doc;
          scratch.lastWord[doc] = word;
          scratch.words[doc] = (scratch.words[doc] as number) + 1;
          scratch.order[doc] = sequence++;
          scratch.score[doc] = (scratch.score[doc] as number) + (scratch.current[doc] as number);
          scratch.current[doc] = 0;
        }
        scratch.current[doc] = (scratch.current[doc] as number) + weight * boost * bm;
      });
    }
  };

  try {
    words.forEach((term, i) => {
      const word = i + 1;
      const prefix = typeof settings.prefix === 'function' ? settings.prefix(term, i, words) : settings.prefix === true;
      const fuzzy = typeof settings.fuzzy === 'function' ? settings.fuzzy(term, i, words) : settings.fuzzy || false;
      addPostings(word, data._index.get(term), 1);
      let near: Map<string, [FieldTermData, number]> | undefined;
      if (fuzzy) {
        const fraction = fuzzy === true ? 0.2 : fuzzy;
        const distance = fraction < 1 ? Math.min(maxFuzzy, Math.round(term.length * fraction)) : fraction;
        if (distance) near = data._index.fuzzyGet(term, distance);
      }
      if (prefix) {
        for (const [longer, termData] of data._index.atPrefix(term)) {
          const distance = longer.length - term.length;
          if (!distance) continue;
          near?.delete(longer);
          addPostings(word, termData, (weights.prefix * longer.length) / (longer.length + 0.3 * distance));
        }
      }
      if (near) {
        for (const [other, [termData, distance]] of near) {
          if (distance) addPostings(word, termData, (weights.fuzzy * other.length) / (other.length + distance));
        }
      }
    });

    // Documents that matched every word, the best `limit` of them, kept sorted as they come. Like
    // MiniSearch, a score is multiplied by the number of distinct words matched (the same for all
    // here, but it can round two close scores to a tie), and ties keep the last word's order.
    const quality = new Set(words).size;
    const best: number[] = [];
    let total = 0;
    const ranksAbove = (a: number, b: number) =>
      (scratch.score[a] as number) > (scratch.score[b] as number) ||
      (scratch.score[a] === scratch.score[b] && (scratch.order[a] as number) < (scratch.order[b] as number));
    for (let i = 0; i < scratch.touchedCount; i++) {
      const doc = scratch.touched[i] as number;
      if (scratch.words[doc] !== words.length) continue;
      total++;
      scratch.score[doc] = ((scratch.score[doc] as number) + (scratch.current[doc] as number)) * quality;
      if (best.length === limit && !ranksAbove(doc, best[limit - 1] as number)) continue;
      let at = best.length === limit ? limit - 1 : best.length;
      while (at > 0 && ranksAbove(doc, best[at - 1] as number)) {
        best[at] = best[at - 1] as number;
        at--;
      }
      best[at] = doc;
    }
    return {
      matches: best.map((doc) => ({ id: data._documentIds.get(doc), stored: data._storedFields.get(doc) ?? {} })),
      total,
    };
  } finally {
    clear(scratch);
  }
}
