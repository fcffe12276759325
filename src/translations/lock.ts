/**
 * content/translations.json, the translation lock: for each bilingual article, each edition's
 * print (print.ts) when the two were last brought in line; for each JSON content file, each
 * bilingual text's two hashes then. `site translations sync` writes it; nothing else does. It is
 * kept in the repository beside the content, so a shallow clone in CI knows what git history
 * would have told.
 */
import { lstat, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { Diagnostic } from '../diagnostics/diagnostic';
import { loadJsonFile, type ValidatedJson } from '../load/json';
import { statSignature } from '../load/stat';
import { readContentText } from '../load/text';
import { LANGUAGES, type Lang } from '../shared/lang';
import type { EditionPrint } from './print';

export const LOCK_FILE = 'content/translations.json';

/** It grows with the site (some 500 bytes an article): far above a content file's limit, still bounded. */
export const LOCK_LIMIT = 64 * 1024 * 1024;

const Print = z
  .object({ title: z.string(), description: z.string(), sections: z.array(z.string()).readonly() })
  .strict();

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

const COMMENT =
  'Written by `site translations sync`: what each bilingual text said in both languages when the two were last brought in line. Not edited by hand.';

/** An empty lock: nothing brought in line yet. */
export function emptyLock(): TranslationLock {
  return { articles: {}, texts: {} };
}

/**
 * The lock as last read, and the stat of the file it was read from: a session reads it again only
 * when that changed.
 */
export interface ReadLock {
  signature: string;
  lock: TranslationLock;
}

/**
 * The lock of a site root: empty when the file does not exist, undefined (with diagnostics) when
 * it is broken. `last`: the same file, read before with this stat, is not read again.
 * `validated`: a text an earlier build validated (the build cache) is neither parsed nor validated.
 */
export async function readLock(
  root: string,
  diagnostics: Diagnostic[],
  last?: { read?: ReadLock },
  validated?: ValidatedJson,
): Promise<TranslationLock | undefined> {
  const absolute = path.join(root, LOCK_FILE);
  const info = await stat(absolute).catch(() => undefined);
  if (!info) {
    // No lock: nothing brought in line yet. A link to nothing where it should be is a mistake the
    // content's reader names.
    const link = await lstat(absolute).catch(() => undefined);
    return link
      ? loadJsonFile({ root, diagnostics, limit: LOCK_LIMIT, ...(validated && { validated }) }, LOCK_FILE, Lock)
      : emptyLock();
  }
  const signature = `${info.size} ${info.mtimeMs} ${info.ctimeMs} ${info.ino}`;
  if (last?.read?.signature === signature) return last.read.lock;
  const lock =
    quickly(absolute, validated) ??
    (await loadJsonFile({ root, diagnostics, limit: LOCK_LIMIT, ...(validated && { validated }) }, LOCK_FILE, Lock));
  if (last && lock) last.read = { signature, lock };
  return lock;
}

/**
 * The lock read with the native JSON parser, when it parses and is valid: it grows with the site,
 * and the content's parser (that places every mistake) reads it several times slower; or the
 * value `validated` holds for its text. Undefined otherwise: the content's reader then says what
 * is wrong, and where.
 */
function quickly(absolute: string, validated: ValidatedJson | undefined): TranslationLock | undefined {
  try {
    // Unchanged since a build read it (its stat signature the same, see `statSignature`): the
    // value validated then, without reading and hashing megabytes of text. Taken before the read,
    // so that a write between the two leaves a signature that no longer matches.
    const signature = validated?.atSignature ? statSignature(absolute) : undefined;
    const known = signature === undefined ? undefined : validated?.atSignature?.(LOCK_FILE, signature);
    if (known !== undefined) return known as TranslationLock;
    const read = readContentText(absolute, LOCK_FILE, LOCK_LIMIT);
    if ('problem' in read) return undefined;
    if (signature !== undefined) validated?.readAt?.(LOCK_FILE, signature, read.text);
    const kept = validated?.get(LOCK_FILE, read.text);
    if (kept !== undefined) return kept as TranslationLock;
    const parsed = Lock.safeParse(JSON.parse(read.text));
    if (!parsed.success) return undefined;
    validated?.set(LOCK_FILE, read.text, parsed.data);
    return parsed.data;
  } catch {
    return undefined;
  }
}

/**
 * Writes the lock with its keys sorted and one line for each article and each text, so that a
 * sync changes only the lines of what it synced, and a merge conflict is one article's.
 */
export async function writeLock(root: string, lock: TranslationLock): Promise<void> {
  const sortedKeys = (record: Record<string, unknown>) =>
    Object.keys(record).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const entries = (record: Record<string, unknown>, line: (key: string) => string) =>
    sortedKeys(record).map(line).join(',\n');
  const articles = entries(lock.articles, (key) => {
    const pair = lock.articles[key] as LockedPair;
    return `    ${JSON.stringify(key)}: ${JSON.stringify(Object.fromEntries(LANGUAGES.map((lang) => [lang, pair[lang]])))}`;
  });
  const texts = entries(lock.texts, (file) => {
    const record = lock.texts[file] as Record<string, string>;
    return `    ${JSON.stringify(file)}: {\n${entries(record, (key) => `      ${JSON.stringify(key)}: ${JSON.stringify(record[key])}`)}\n    }`;
  });
  const block = (body: string) => (body === '' ? '{}' : `{\n${body}\n  }`);
  const text = `{\n  "$comment": ${JSON.stringify(COMMENT)},\n  "articles": ${block(articles)},\n  "texts": ${block(texts)}\n}\n`;
  // Written beside and renamed over: a sync cut short leaves the last lock whole. Named as an
  // editor's backup ("~"), which site dev's watcher ignores: one change for one sync.
  const target = path.join(root, LOCK_FILE);
  const partial = `${target}.${process.pid}~`;
  await writeFile(partial, text);
  await rename(partial, target);
}

/** A lock entry of an article: both editions' prints. */
export type LockedPair = Readonly<Record<Lang, EditionPrint>>;
