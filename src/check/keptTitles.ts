import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The file of the title key parts whose key (`titleIndexKey`, their hash) is `key`. */
const fileOf = (dir: string, key: string) => path.join(dir, `titles-${key}.json`);
const TITLES_FILE = /^titles-(.+)\.json$/;

/**
 * The title key parts (`titleKeyParts`) of a key, as a build of its own kept them: undefined when
 * there is no such file, or it cannot be read. Named by the key, which is their hash, a file
 * holds those parts or is not there: the checks memo records which key its findings were found
 * under, and a file written without the memo, or a memo saved without the file, cannot disagree.
 */
export function readTitleParts(dir: string, key: string): readonly string[] | undefined {
  try {
    const parts: unknown = JSON.parse(readFileSync(fileOf(dir, key), 'utf8'));
    return Array.isArray(parts) && parts.every((part) => typeof part === 'string') ? parts : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Keeps the title key parts of `key` (written whole under a temporary name, then renamed), and
 * removes the files of other keys but `kept` (the key the memo records until it is saved).
 */
export function writeTitleParts(dir: string, key: string, parts: readonly string[], kept: string | undefined): void {
  try {
    const file = fileOf(dir, key);
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(parts));
    renameSync(temporary, file);
    for (const name of readdirSync(dir)) {
      const other = TITLES_FILE.exec(name)?.[1];
      if (other !== undefined && other !== key && other !== kept) rmSync(path.join(dir, name), { force: true });
    }
  } catch {
    // Only a saving: without the file, the next build of its own works out what every edition's
    // link texts read of the titles (see `EditionMemo.titles`).
  }
}
