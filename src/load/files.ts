import { type Dirent, readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';

/** Project-relative path with forward slashes, as diagnostics print it. */
export function relativeFile(root: string, absolute: string): string {
  const relative = relativeBelow(root, absolute);
  return path.sep === '/' ? relative : relative.split(path.sep).join('/');
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
  // Segment by segment in place, no text made: thousands of files are named on every build.
  let from = start;
  for (let at = start; at <= absolute.length; at++) {
    if (at < absolute.length && absolute[at] !== path.sep) continue;
    const length = at - from;
    if (length === 0 || (length <= 2 && absolute[from] === '.' && (length === 1 || absolute[from + 1] === '.')))
      return false;
    from = at + 1;
  }
  return true;
}

export function readTextSync(absolute: string): string | undefined {
  try {
    return readFileSync(absolute, 'utf8');
  } catch {
    return undefined;
  }
}

/** An entry of a folder's listing: its absolute path, and what it is (a link is not followed). */
export interface ListedEntry {
  absolute: string;
  kind: 'file' | 'link' | 'folder' | 'other';
}

/** Every entry below `dir`, recursively, by absolute path in a stable order; none when it cannot be listed. */
export async function listEntries(dir: string): Promise<ListedEntry[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch {
    return [];
  }
  const listed = entries.map(
    (e): ListedEntry => ({
      absolute: path.join(e.parentPath, e.name),
      kind: e.isFile() ? 'file' : e.isSymbolicLink() ? 'link' : e.isDirectory() ? 'folder' : 'other',
    }),
  );
  return listed.sort((a, b) => (a.absolute < b.absolute ? -1 : a.absolute > b.absolute ? 1 : 0));
}

/** What `listFiles` can be told: see there. */
export interface FileListing {
  links?: boolean;
  foldersNamed?: RegExp;
}

/**
 * Every file below `dir`, recursively, as absolute paths in a stable order. With `links`, symbolic
 * links too (not followed): content files are read through them, and one that leads nowhere is
 * a diagnostic, not a file silently skipped. With `foldersNamed`, folders named like the files
 * looked for ("Git.en.md/"), so that one in a file's place is reported rather than passed over.
 */
export async function listFiles(dir: string, options: FileListing = {}): Promise<string[]> {
  return filesAmong(await listEntries(dir), options);
}

/** `listFiles` of a listing already made (`listEntries` of the folder, or of one above it, cut to the folder). */
export function filesAmong(entries: readonly ListedEntry[], options: FileListing = {}): string[] {
  return entries
    .filter(
      (e) =>
        e.kind === 'file' ||
        (options.links === true && e.kind === 'link') ||
        (e.kind === 'folder' && options.foldersNamed?.test(path.basename(e.absolute)) === true),
    )
    .map((e) => e.absolute);
}

/** The entries of a listing (in its order) that are below `dir`. */
export function entriesBelow(entries: readonly ListedEntry[], dir: string): ListedEntry[] {
  const prefix = dir + path.sep;
  return entries.filter((e) => e.absolute.startsWith(prefix));
}
