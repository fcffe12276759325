/**
 * Which translations fell behind: each edition of a bilingual article, and each bilingual text of
 * the JSON content, against the lock (lock.ts). An edition is outdated when its counterpart's
 * print is no longer the one recorded when the two were last brought in line; either edition may
 * be the one rewritten (the owner writes in both languages), and when both were, both are.
 */
import type { ArticleSource } from '../load/articles';
import type { LoadedContent } from '../load/content';
import { digest } from '../load/digest';
import { LANGUAGES, type Lang } from '../shared/lang';
import { articlePath } from '../shared/route';
import type { LockedPair, TranslationLock } from './lock';
import { printChanges, samePrint, textHash } from './print';

/** An edition's state against its counterpart. */
export type EditionState =
  | { kind: 'current' }
  /** Never brought in line: no lock entry for the article. */
  | { kind: 'untracked' }
  /**
   * `counterpart` changed (on `since`) since the two were last brought in line: `changed` names its
   * parts changed or added.
   */
  | { kind: 'outdated'; counterpart: { file: string; lang: Lang }; since: string; changed: string[]; removed: number };

/** A bilingual text of a JSON content file that fell behind, or was never brought in line. */
export interface TextState {
  file: string;
  /** The text's place in the file: keys and indexes ([] for the whole file, when none of its texts is recorded). */
  path: (string | number)[];
  kind: 'outdated' | 'untracked';
  /** Outdated: the language whose text fell behind, and the day the other changed. */
  lang?: Lang;
  since?: string;
}

export interface Translations {
  /** Each edition of a bilingual article, by its file. */
  editions: ReadonlyMap<string, EditionState>;
  /** The JSON content's texts that fell behind or were never brought in line. */
  texts: readonly TextState[];
}

/** The other language of a bilingual text. */
export const otherLang = (lang: Lang): Lang => (lang === 'en' ? 'pt' : 'en');

/** A bilingual text of a JSON value: where it is, and its two languages. */
export interface BilingualText {
  path: (string | number)[];
  en: string;
  pt: string;
}

/** The lock's key of a text's place: "/intro/paragraphs/0". */
export const textKey = (at: readonly (string | number)[]) => `/${at.join('/')}`;

/** Every text of a JSON value written in both languages ({ "en": ..., "pt": ... }), in document order. */
export function bilingualTexts(
  value: unknown,
  at: (string | number)[] = [],
  out: BilingualText[] = [],
): BilingualText[] {
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      bilingualTexts(item, [...at, i], out);
    });
  } else if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (typeof record.en === 'string' && typeof record.pt === 'string')
      out.push({ path: at, en: record.en, pt: record.pt });
    else for (const [key, item] of Object.entries(record)) bilingualTexts(item, [...at, key], out);
  }
  return out;
}

/** Each bilingual article's editions by route path, in both languages. */
export function bilingualPairs(articles: readonly ArticleSource[]): Map<string, Record<Lang, ArticleSource>> {
  // Thousands of files a build: the English ones by category and slug, then each Portuguese one's.
  const english = new Map<string, ArticleSource>();
  for (const source of articles) if (source.lang === 'en') english.set(`${source.category}/${source.slug}`, source);
  const pairs = new Map<string, Record<Lang, ArticleSource>>();
  for (const pt of articles) {
    if (pt.lang !== 'pt') continue;
    const en = english.get(`${pt.category}/${pt.slug}`);
    if (en) pairs.set(articlePath(pt.category, pt.slug), { en, pt });
  }
  return pairs;
}

/**
 * Each pair's states as last worked out, by its English source: found again while both sources and
 * the lock entry are the same objects.
 */
export type PairStates = WeakMap<
  ArticleSource,
  { pt: ArticleSource; locked: LockedPair | undefined; states: Record<Lang, EditionState> }
>;

/** What a session remembers of the last states it worked out (see `translationStates`). */
export interface KnownStates {
  pairs: PairStates;
  /** The last call's articles and lock, and the editions' states it gave. */
  last?: { articles: readonly ArticleSource[]; lock: TranslationLock; editions: ReadonlyMap<string, EditionState> };
  /** A JSON file's text states, by its value: found again while the value and its lock record are the same objects. */
  texts: WeakMap<object, { locked: Readonly<Record<string, string>> | undefined; states: TextState[] }>;
}

export function knownStates(): KnownStates {
  return { pairs: new WeakMap(), texts: new WeakMap() };
}

/** The lock's record of a JSON file's texts as they are now. */
export function lockedTexts(value: unknown): Record<string, string> {
  return Object.fromEntries(
    bilingualTexts(value).map((text) => [textKey(text.path), `${textHash(text.en)} ${textHash(text.pt)}`]),
  );
}

/** The state of an edition whose counterpart is `counterpart`, against the pair's lock entry. */
async function pairState(
  counterpart: ArticleSource,
  locked: LockedPair | undefined,
  changed: (file: string, hash: string) => Promise<string>,
): Promise<EditionState> {
  if (!locked) return { kind: 'untracked' };
  const was = locked[counterpart.lang];
  if (samePrint(was, counterpart.print)) return { kind: 'current' };
  return {
    kind: 'outdated',
    counterpart: { file: counterpart.file, lang: counterpart.lang },
    since: await changed(counterpart.file, counterpart.hash),
    ...printChanges(was, counterpart.print),
  };
}

/**
 * The state of every bilingual article edition (`articles`: all of them, drafts included) and
 * JSON text against `lock`. `changed` dates a file's last change (changed.ts).
 */
export async function translationStates(
  content: LoadedContent,
  lock: TranslationLock,
  changed: (file: string, hash: string) => Promise<string>,
  known: KnownStates = knownStates(),
): Promise<Translations> {
  const statesOf = async (key: string, pair: Record<Lang, ArticleSource>) => {
    const locked = lock.articles[key];
    const before = known.pairs.get(pair.en);
    if (before && before.pt === pair.pt && before.locked === locked) return before.states;
    const states = { en: await pairState(pair.pt, locked, changed), pt: await pairState(pair.en, locked, changed) };
    known.pairs.set(pair.en, { pt: pair.pt, locked, states });
    return states;
  };
  let editions = await editedSince(known.last, content.articles, lock, statesOf);
  if (!editions) {
    const all = new Map<string, EditionState>();
    for (const [key, pair] of bilingualPairs(content.articles)) {
      const states = await statesOf(key, pair);
      all.set(pair.en.file, states.en);
      all.set(pair.pt.file, states.pt);
    }
    editions = all;
  }
  known.last = { articles: content.articles, lock, editions };
  const texts: TextState[] = [];
  for (const [file, { text, value }] of content.json) {
    const locked = lock.texts[file];
    const before = value !== null && typeof value === 'object' ? known.texts.get(value) : undefined;
    let states = before && before.locked === locked ? before.states : undefined;
    if (!states) {
      states = await fileStates({ file, text, value }, locked, changed);
      if (value !== null && typeof value === 'object') known.texts.set(value, { locked, states });
    }
    texts.push(...states);
  }
  return { editions, texts };
}

/**
 * The editions' states of the last call brought up to date, when the articles are its own but a
 * few, each in its place, under the same lock (a `site dev` save): only the pairs of those few are
 * looked at. Undefined otherwise, and the states are worked out for every pair.
 */
async function editedSince(
  last: KnownStates['last'],
  articles: readonly ArticleSource[],
  lock: TranslationLock,
  statesOf: (key: string, pair: Record<Lang, ArticleSource>) => Promise<Record<Lang, EditionState>>,
): Promise<ReadonlyMap<string, EditionState> | undefined> {
  if (!last || last.lock !== lock || last.articles.length !== articles.length) return undefined;
  const edited: ArticleSource[] = [];
  for (let i = 0; i < articles.length; i++) {
    const [now, before] = [articles[i] as ArticleSource, last.articles[i] as ArticleSource];
    if (now === before) continue;
    if (now.file !== before.file || edited.length === MAX_EDITED) return undefined;
    edited.push(now);
  }
  if (edited.length === 0) return last.editions;
  // The last map itself while every state is the same as in it: the plan then looks at no other
  // article's page for a change of state (a body edited again and again leaves its translation
  // as outdated as it was).
  let editions: Map<string, EditionState> | undefined;
  for (const source of edited) {
    const counterpart = articles.find(
      (other) => other.lang !== source.lang && other.category === source.category && other.slug === source.slug,
    );
    if (!counterpart) continue;
    const pair = source.lang === 'en' ? { en: source, pt: counterpart } : { en: counterpart, pt: source };
    const states = await statesOf(articlePath(source.category, source.slug), pair);
    for (const lang of LANGUAGES) {
      const file = pair[lang].file;
      if (sameState(last.editions.get(file), states[lang])) continue;
      editions ??= new Map(last.editions);
      editions.set(file, states[lang]);
    }
  }
  return editions ?? last.editions;
}

function sameState(a: EditionState | undefined, b: EditionState): boolean {
  if (a === b) return true;
  if (a?.kind !== b.kind) return false;
  if (a.kind !== 'outdated' || b.kind !== 'outdated') return true;
  return (
    a.counterpart.file === b.counterpart.file &&
    a.since === b.since &&
    a.removed === b.removed &&
    a.changed.length === b.changed.length &&
    a.changed.every((part, i) => part === b.changed[i])
  );
}

/** Edited articles past which every pair is looked at again: each edited one is paired by a walk of all. */
const MAX_EDITED = 16;

/** The bilingual texts of one JSON file that fell behind or were never brought in line. */
async function fileStates(
  { file, text, value }: { file: string; text: string; value: unknown },
  locked: Readonly<Record<string, string>> | undefined,
  changed: (file: string, hash: string) => Promise<string>,
): Promise<TextState[]> {
  const found = bilingualTexts(value);
  if (found.length === 0) return [];
  if (!locked) return [{ file, path: [], kind: 'untracked' }];
  const states: TextState[] = [];
  for (const one of found) {
    const record = locked[textKey(one.path)];
    if (!record) {
      states.push({ file, path: one.path, kind: 'untracked' });
      continue;
    }
    const [en, pt] = record.split(' ');
    for (const lang of LANGUAGES) {
      const other = otherLang(lang);
      if ((other === 'en' ? en : pt) !== textHash(one[other]))
        states.push({ file, path: one.path, kind: 'outdated', lang, since: await changed(file, digest(text)) });
    }
  }
  return states;
}
