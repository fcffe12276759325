import { type Dirent, readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';

/** Project-relative path with forward slashes, as diagnostics print it. */
export function relativeFile(root: string, absolute: string): string {
  return path.relative(root, absolute).split(path.sep).join('/');
}

export function readTextSync(absolute: string): string | undefined {
  try {
    return readFileSync(absolute, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Every file below `dir`, recursively, as absolute paths in a stable order. With `links`, symbolic
 * links too (not followed): content files are read through them, and one that leads nowhere is
 * a diagnostic, not a file silently skipped. With `foldersNamed`, folders named like the files
 * looked for ("Git.en.md/"), so that one in a file's place is reported rather than passed over.
 */
export async function listFiles(dir: string, options: { links?: boolean; foldersNamed?: RegExp } = {}): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => e.isFile() || (options.links === true && e.isSymbolicLink()) || (e.isDirectory() && options.foldersNamed?.test(e.name) === true))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}
