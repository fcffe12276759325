import { type Dirent, readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';

/** Project-relative path with forward slashes, as diagnostics print it. */
export function relativeFile(root: string, absolute: string): string {
  return relativeBelow(root, absolute).split(path.sep).join('/');
}

/**
 * `path.relative(dir, absolute)`, without resolving both paths when `absolute` is a plain path
 * below `dir` (as the content's listing makes them): thousands of files are named on every build.
 */
export function relativeBelow(dir: string, absolute: string): string {
  const start = dir.endsWith(path.sep) ? dir.length : dir.length + 1;
  if (
    absolute.length > start &&
    absolute.startsWith(dir) &&
    absolute[start - 1] === path.sep &&
    isPlain(absolute, start)
  )
    return absolute.slice(start);
  return path.relative(dir, absolute);
}

/**
 * Whether `absolute` from `start` on has no "." or ".." segment and no empty one (nothing
 * `path.relative` would resolve away).
 */
function isPlain(absolute: string, start: number): boolean {
  const rest = absolute.slice(start);
  return (
    !rest.endsWith(path.sep) &&
    rest.split(path.sep).every((segment) => segment !== '' && segment !== '.' && segment !== '..')
  );
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
export async function listFiles(
  dir: string,
  options: { links?: boolean; foldersNamed?: RegExp } = {},
): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch {
    return [];
  }
  return entries
    .filter(
      (e) =>
        e.isFile() ||
        (options.links === true && e.isSymbolicLink()) ||
        (e.isDirectory() && options.foldersNamed?.test(e.name) === true),
    )
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}
