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
import type { TranslationLock } from './lock';
import { printChanges, samePrint, textHash } from './print';

/** An edition's state against its counterpart. */
export type EditionState =
  | { kind: 'current' }
  /** Never brought in line: no lock entry for the article. */
  | { kind: 'untracked' }
  /** `counterpart` changed (on `since`) since the two were last brought in line: `changed` names its parts changed or added. */
  | { kind: 'outdated'; counterpart: ArticleSource; since: string; changed: string[]; removed: number };

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
export function bilingualTexts(value: unknown, at: (string | number)[] = [], out: BilingualText[] = []): BilingualText[] {
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      bilingualTexts(item, [...at, i], out);
    });
  } else if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (typeof record.en === 'string' && typeof record.pt === 'string') out.push({ path: at, en: record.en, pt: record.pt });
    else for (const [key, item] of Object.entries(record)) bilingualTexts(item, [...at, key], out);
  }
  return out;
}

/** Each bilingual article's editions by route path, in both languages. */
export function bilingualPairs(articles: readonly ArticleSource[]): Map<string, Record<Lang, ArticleSource>> {
  const byPath = new Map<string, Partial<Record<Lang, ArticleSource>>>();
  for (const source of articles) {
    const key = articlePath(source.category, source.slug);
    byPath.set(key, { ...byPath.get(key), [source.lang]: source });
  }
  const pairs = new Map<string, Record<Lang, ArticleSource>>();
  for (const [key, pair] of byPath) if (pair.en && pair.pt) pairs.set(key, pair as Record<Lang, ArticleSource>);
  return pairs;
}

/** The lock's record of a JSON file's texts as they are now. */
export function lockedTexts(value: unknown): Record<string, string> {
  return Object.fromEntries(bilingualTexts(value).map((text) => [textKey(text.path), `${textHash(text.en)} ${textHash(text.pt)}`]));
}

/**
 * The state of every bilingual article edition (`articles`: all of them, drafts included) and
 * JSON text against `lock`. `changed` dates a file's last change (changed.ts).
 */
export async function translationStates(content: LoadedContent, lock: TranslationLock, changed: (file: string, hash: string) => Promise<string>): Promise<Translations> {
  const editions = new Map<string, EditionState>();
  for (const [key, pair] of bilingualPairs(content.articles)) {
    const locked = lock.articles[key];
    for (const lang of LANGUAGES) {
      const counterpart = pair[otherLang(lang)];
      if (!locked) editions.set(pair[lang].file, { kind: 'untracked' });
      else if (samePrint(locked[counterpart.lang], counterpart.print)) editions.set(pair[lang].file, { kind: 'current' });
      else editions.set(pair[lang].file, { kind: 'outdated', counterpart, since: await changed(counterpart.file, counterpart.hash), ...printChanges(locked[counterpart.lang], counterpart.print) });
    }
  }
  const texts: TextState[] = [];
  for (const [file, { text, value }] of content.json) {
    const found = bilingualTexts(value);
    if (found.length === 0) continue;
    const locked = lock.texts[file];
    if (!locked) {
      texts.push({ file, path: [], kind: 'untracked' });
      continue;
    }
    for (const one of found) {
      const record = locked[textKey(one.path)];
      if (!record) {
        texts.push({ file, path: one.path, kind: 'untracked' });
        continue;
      }
      const [en, pt] = record.split(' ');
      for (const lang of LANGUAGES) {
        const other = otherLang(lang);
        if ((other === 'en' ? en : pt) !== textHash(one[other])) texts.push({ file, path: one.path, kind: 'outdated', lang, since: await changed(file, digest(text)) });
      }
    }
  }
  return { editions, texts };
}
