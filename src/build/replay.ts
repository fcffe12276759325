import { readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Diagnostic } from '../diagnostics/diagnostic';
import type { Lang } from '../shared/lang';
import { changeDay } from '../translations/changed';
import type { ScriptImports } from '../write/assets';
import { type Footprint, sameFootprint } from './footprint';
import type { HeldFile, PageEntry } from './pipeline';

/** The build cache's file holding the last `site build`'s record (see `BuildRecord`). */
const RECORD_FILE = 'last-build.json';

/**
 * What the last `site build` of a project read and ended with: its footprint, the day git gave
 * each content file it asked about, the output folder it left, and what it said. Kept only by a
 * build that wrote its output whole and succeeded, and removed as any other build starts, so that
 * it only ever describes the output folder as the last build left it.
 */
export interface BuildRecord {
  footprint: Footprint;
  /**
   * The day git gave each content file the build asked about (an outdated translation's message
   * names it): a commit moves it while the file stays as it is, so it is asked again.
   */
  days: readonly (readonly [string, string])[];
  /** The output folder as the build left it (see `outputFolder`). */
  output: string;
  outcome: {
    diagnostics: readonly Diagnostic[];
    pages: Record<Lang, number>;
    held: readonly HeldFile[];
    /** Each page's path, kind and size in bytes, for the page-weight report. */
    entries: readonly (readonly [string, PageEntry['kind'], number])[];
    scriptImports: ScriptImports;
  };
}

function recordFile(cacheDir: string): string {
  return path.join(cacheDir, RECORD_FILE);
}

/** The last build's record in `cacheDir`, when there is a whole one. */
export async function lastBuild(cacheDir: string): Promise<BuildRecord | undefined> {
  try {
    return JSON.parse(await readFile(recordFile(cacheDir), 'utf8')) as BuildRecord;
  } catch {
    return undefined;
  }
}

/** Keeps `record` as the last build's, whole or not at all (a reader sees the old record or the new one). */
export async function keepBuild(cacheDir: string, record: BuildRecord): Promise<void> {
  const file = recordFile(cacheDir);
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify(record));
  await rename(temporary, file);
}

/** Removes the last build's record: done as every build starts, before it touches anything. */
export async function forgetBuild(cacheDir: string): Promise<void> {
  await rm(recordFile(cacheDir), { force: true });
}

/**
 * Whether a build with `footprint` would make what the last one made and say what it said: the
 * same footprint, into the very folder it left, with git giving each file it asked about the same
 * day.
 */
export async function stillHolds(record: BuildRecord, footprint: Footprint, root: string): Promise<boolean> {
  if (!sameFootprint(record.footprint, footprint)) return false;
  if ((await outputFolder(footprint.outDir)) !== record.output) return false;
  const days = await Promise.all(record.days.map(([file, day]) => changeDay(root, file).then((now) => now === day)));
  return days.every(Boolean);
}

/**
 * The output folder, as one string: its inode, and when it was made and last changed. Another
 * folder put in its place, even one given the inode of a folder removed, was made at another
 * moment; a file added or removed at its top changes it too. Undefined when there is none.
 */
export async function outputFolder(outDir: string): Promise<string | undefined> {
  try {
    const folder = await stat(outDir);
    return `${folder.ino} ${folder.birthtimeMs} ${folder.ctimeMs} ${folder.mtimeMs}`;
  } catch {
    return undefined;
  }
}
