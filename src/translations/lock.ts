/**
 * content/translations.json, the translation lock: for each bilingual article, each edition's
 * print (print.ts) when the two were last brought in line; for each JSON content file, each
 * bilingual text's two hashes then. `site translations sync` writes it; nothing else does. It is
 * kept in the repository beside the content, so a shallow clone in CI knows what git history
 * would have told.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { Diagnostic } from '../diagnostics/diagnostic';
import { loadJsonFile } from '../load/json';
import { LANGUAGES, type Lang } from '../shared/lang';
import type { EditionPrint } from './print';

export const LOCK_FILE = 'content/translations.json';

const Print = z.object({ title: z.string(), description: z.string(), sections: z.array(z.string()).readonly() }).strict();

const Lock = z
  .object({
    $comment: z.string().optional(),
    /** By article route path: each edition's print when the two were last in line. */
    articles: z.record(z.string(), z.object({ en: Print, pt: Print }).strict()),
    /** By JSON content file, then by the text's place in it ("/intro/paragraphs/0"): "<en hash> <pt hash>". */
    texts: z.record(z.string(), z.record(z.string(), z.string().regex(/^\S+ \S+$/))),
  })
  .strict();

export type TranslationLock = z.infer<typeof Lock>;

const COMMENT = 'Written by `site translations sync`: what each bilingual text said in both languages when the two were last brought in line. Not edited by hand.';

/** An empty lock: nothing brought in line yet. */
export function emptyLock(): TranslationLock {
  return { articles: {}, texts: {} };
}

/** The lock of a site root; empty when the file does not exist, undefined (with diagnostics) when it is broken. */
export async function readLock(root: string, diagnostics: Diagnostic[]): Promise<TranslationLock | undefined> {
  if (!existsSync(path.join(root, LOCK_FILE))) return emptyLock();
  return loadJsonFile(root, LOCK_FILE, Lock, diagnostics);
}

/** Writes the lock with its keys sorted, so that a sync changes only the lines of what it synced. */
export async function writeLock(root: string, lock: TranslationLock): Promise<void> {
  const sorted = <T>(record: Record<string, T>) => Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const ordered = {
    $comment: COMMENT,
    articles: sorted(Object.fromEntries(Object.entries(lock.articles).map(([key, pair]) => [key, Object.fromEntries(LANGUAGES.map((lang) => [lang, pair[lang]]))]))),
    texts: sorted(Object.fromEntries(Object.entries(lock.texts).map(([file, texts]) => [file, sorted(texts)]))),
  };
  await writeFile(path.join(root, LOCK_FILE), `${JSON.stringify(ordered, null, 2)}\n`);
}

/** A lock entry of an article: both editions' prints. */
export type LockedPair = Record<Lang, EditionPrint>;
