import type { ParsedArticle } from '../load/articles';
import { withFields } from '../shared/fields';
import { LANGUAGES, type Lang } from '../shared/lang';
import type { LockedPair, TranslationLock } from '../translations/lock';
import { type EditionPrint, PackedPrint, packPrint } from '../translations/print';
import type { MemoCodec } from './memo';

/**
 * The translation prints the build cache keeps, as texts (`PackedPrint`): each article's, with its
 * parsed front matter (`packedArticles`), and both of each pair the translation lock holds
 * (`packedLock`). Every build reads them all back and compares most of them only to find them the
 * same: read as a dozen objects each, they were a large share of what the collector copied.
 */

/** A print as the cache writes it: its text, or the print itself when it cannot be one. */
function printOut(print: EditionPrint): string | EditionPrint {
  return packPrint(print) ?? print;
}

function printIn(stored: unknown): EditionPrint {
  return typeof stored === 'string' ? PackedPrint.read(stored) : (stored as EditionPrint);
}

/** Parsed article files, each one's print as its text. */
export const packedArticles: MemoCodec<ParsedArticle> = {
  write: (parsed) => withFields(parsed, { print: printOut(parsed.print) }),
  read: (stored) => {
    // A value just deserialized, held by nothing else: given its print in place.
    const parsed = stored as ParsedArticle;
    parsed.print = printIn(parsed.print);
    return parsed;
  },
};

/** Between the two prints of a pair in its text: no print's text holds it. */
const PAIR = '\u0000';

/**
 * A lock entry read from the cache: both editions' prints in one text, each read out of it when
 * asked for.
 */
class PackedPair implements LockedPair {
  readonly #text: string;
  #prints: Record<Lang, EditionPrint> | undefined;

  constructor(text: string) {
    this.#text = text;
  }

  get en(): EditionPrint {
    return this.prints().en;
  }

  get pt(): EditionPrint {
    return this.prints().pt;
  }

  /** The text it is kept as. */
  get packed(): string {
    return this.#text;
  }

  /** As the lock file writes an entry. */
  toJSON(): Record<Lang, EditionPrint> {
    return this.prints();
  }

  private prints(): Record<Lang, EditionPrint> {
    if (!this.#prints) {
      const [en = '', pt = ''] = this.#text.split(PAIR);
      this.#prints = { en: PackedPrint.read(en), pt: PackedPrint.read(pt) };
    }
    return this.#prints;
  }
}

function pairOut(pair: LockedPair): string | LockedPair {
  if (pair instanceof PackedPair) return pair.packed;
  const texts = LANGUAGES.map((lang) => packPrint(pair[lang]));
  return texts.every((text) => text !== undefined && !text.includes(PAIR)) ? texts.join(PAIR) : pair;
}

const isLock = (value: unknown): value is TranslationLock =>
  typeof value === 'object' && value !== null && 'articles' in value && 'texts' in value;

/**
 * The translation lock's memo (its validated value, and the hash of its text by stat signature):
 * each article's pair of prints as one text.
 */
export const packedLock: MemoCodec<unknown> = {
  write: (value) => {
    if (!isLock(value)) return value;
    const articles: Record<string, string | LockedPair> = {};
    for (const key of Object.keys(value.articles)) articles[key] = pairOut(value.articles[key] as LockedPair);
    return withFields(value, { articles });
  },
  read: (stored) => {
    if (!isLock(stored)) return stored;
    const articles = stored.articles as Record<string, unknown>;
    for (const key of Object.keys(articles)) {
      const pair = articles[key];
      if (typeof pair === 'string') articles[key] = new PackedPair(pair);
    }
    return stored;
  },
};
