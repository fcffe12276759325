import { copyFileSync, linkSync, mkdirSync, renameSync, rmdirSync, rmSync, type Stats, statSync } from 'node:fs';
import { cp, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { operational } from '../diagnostics/failure';
import { digest } from '../load/digest';
import { stagingFolder } from './folder';
import { type ListingAhead, listFolder, stillListed } from './folderListing';
import { isFolderOf, type ManifestEntry, type OutputManifest } from './manifest';
import type { Output } from './output';

/** A folder copied into the output as it is (content/media → media). */
export interface Copy {
  from: string;
  to: string;
  /** Its `treeSignature`, when the caller knows it. */
  signature?: string;
  /** Files of it left out (by their path), published otherwise (raster images, as their variants). */
  exclude?: (file: string) => boolean;
}

/** How the staged files replace the previous output; `none`: they do not (a rehearsal, see `BuildSession.rehearse`). */
export type Commit = 'swap' | 'in-place' | 'none';

export interface WriteReport {
  /** Files written (new or changed) by this build. */
  written: number;
  /** Files carried over unchanged from the previous output. */
  unchanged: number;
  /** The files this build wrote (new or changed). */
  made: ReadonlySet<string>;
  /** The output as it now is (with `none`, as it would be). */
  manifest: OutputManifest;
  /** The output a swap replaced, kept as `spareFolder(outDir)` for the next swap to start from. */
  spare?: OutputManifest;
}

/**
 * Where the output a swap replaced is kept (beside it, on the same file system): the next swap
 * starts from it, and changes only the files that differ, rather than linking every file anew
 * into an empty folder and removing the old one (tens of thousands of files on a large site).
 */
export function spareFolder(outDir: string): string {
  return path.join(path.dirname(path.resolve(outDir)), `.${path.basename(outDir)}-spare`);
}

/**
 * The previous output lacks a file the build cache says it holds (someone deleted it by hand):
 * the build is run again without carrying anything over.
 */
export class StaleOutputError extends Error {}

/**
 * Completes an output. `swap` assembles a whole new folder beside the old one (everything carried
 * over is hard-linked into it, or already there when it starts from the spare, the output before
 * the previous one) and swaps it in with renames: until then the old output is untouched, and a
 * failure leaves it exactly as it was; the old output is then kept as the spare. `in-place` (a
 * folder only `site dev` serves) moves each new file over its old version, one rename each, and
 * removes what is gone; it needs an intact previous output, and swaps otherwise. When every file
 * and copied folder is as before, nothing is touched. `none` drops the staged files once they are
 * written, and leaves the output as it was. `spare` reads the spare's manifest, asked for by a swap
 * alone; `spareListed`, the spare's folder as listed ahead (`listFolderAhead`), when the caller
 * started that early.
 */
export async function commitOutput(
  output: Output,
  copies: readonly Copy[],
  how: Commit,
  spare?: () => Promise<OutputManifest | undefined>,
  spareListed?: Promise<ListingAhead | undefined>,
): Promise<WriteReport> {
  try {
    await output.settle();
    output.finish();
    const signatures: Record<string, string> = {};
    for (const copy of copies) signatures[copy.to] = copy.signature ?? (await treeSignature(copy.from));
    const previous = output.previous;
    const written = output.made.size;
    if (how === 'none') {
      await output.abort();
      return {
        written,
        unchanged: output.files.size - written,
        made: output.made,
        manifest: {
          outDir: output.outDir,
          inode: previous?.inode ?? 0,
          ...(previous?.born !== undefined && { born: previous.born }),
          files: output.files,
          copies: signatures,
        },
      };
    }
    const unchanged =
      !output.staging &&
      previous &&
      previous.files.size === output.files.size &&
      output.made.size === 0 &&
      sameRecords(previous.copies, signatures);
    let kept: OutputManifest | undefined;
    if (!unchanged) {
      if (how === 'in-place' && previous) await replaceInPlace(output, previous, copies, signatures);
      else kept = await swapFolder(output, copies, signatures, await spare?.(), spareListed);
    }
    // Every file carried over with its very entry (not one made again, found identical, under new
    // inputs): the manifest is the previous one.
    const same = unchanged && everyEntry(output.files, (file, entry) => previous.files.get(file) === entry);
    let manifest: OutputManifest;
    if (same) manifest = previous;
    else {
      const folder = await stat(output.outDir);
      manifest = {
        outDir: output.outDir,
        inode: folder.ino,
        born: folder.birthtimeMs,
        files: output.files,
        copies: signatures,
      };
    }
    return {
      written,
      unchanged: output.files.size - written,
      made: output.made,
      manifest,
      ...(kept && { spare: kept }),
    };
  } catch (error) {
    await output.abort();
    if (error instanceof StaleOutputError) throw error;
    throw operational(error, `cannot write the site into ${output.outDir}`);
  }
}

/**
 * Assembles the new output beside the old one and swaps it in. It starts from the spare (the
 * output before the previous one) when there is one the caller trusts, or from the folder the new
 * files were written into. The previous output, when it is ours, is then kept as the spare;
 * resolves with its manifest.
 */
async function swapFolder(
  output: Output,
  copies: readonly Copy[],
  signatures: Record<string, string>,
  spare: OutputManifest | undefined,
  spareListed: Promise<ListingAhead | undefined> | undefined,
): Promise<OutputManifest | undefined> {
  const { previous, outDir, restoredFrom } = output;
  // Listed before it is taken: a listing still reading it would find it gone.
  const ahead = await spareListed;
  // A previous output taken from the store has no folder, and no spare beside one.
  const base = spare && previous && !restoredFrom ? takeSpare(outDir, spare) : undefined;
  let staging: string;
  if (base && spare && previous) {
    await updateSpare({ output, base, spare, previous, ahead }, copies, signatures).catch(async (error: unknown) => {
      await rm(base, { recursive: true, force: true });
      throw error;
    });
    staging = base;
  } else {
    // With nothing written now (a file was removed, or the media changed): an empty folder to fill.
    staging = output.staging ?? stagingFolder(outDir);
    if (!output.staging) await mkdir(staging);
    output.staging = staging;
    for (const copy of copies) {
      const target = path.join(staging, copy.to);
      if (previous && !restoredFrom && previous.copies[copy.to] === signatures[copy.to])
        await linkTree(path.join(outDir, copy.to), target);
      else await copyTree(copy, target);
    }
    // Synchronous: a link is a short system call, and tens of thousands of them in a tight loop
    // take far less time than a round trip through the thread pool for each.
    const carried = [...output.files.keys()].filter((file) => !output.made.has(file));
    for (const dir of new Set(carried.map((file) => path.dirname(path.join(staging, file)))))
      mkdirSync(dir, { recursive: true });
    for (const file of carried) carryOver(output.carriedFrom(file), path.join(staging, file), file);
  }
  output.staging = staging;
  const retired = await swapIn(staging, outDir);
  output.staging = undefined;
  if (!retired) return undefined;
  if (!previous || restoredFrom) {
    // Not ours (no manifest describes it): nothing to start a next build from.
    await rm(retired, { recursive: true, force: true });
    return undefined;
  }
  // The new output is in place: keeping the old one as the spare is only a saving, and a failure
  // to keep it removes it instead.
  const spareDir = spareFolder(outDir);
  try {
    await rm(spareDir, { recursive: true, force: true });
    await rename(retired, spareDir);
    return previous;
  } catch {
    await rm(retired, { recursive: true, force: true });
    return undefined;
  }
}

/**
 * Takes the spare folder to build the new output in, when it is the one `spare` describes (the
 * same folder, by its inode); undefined otherwise. Renamed first: a build stopped while updating
 * it leaves no spare that a manifest describes.
 */
function takeSpare(outDir: string, spare: OutputManifest): string | undefined {
  const spareDir = spareFolder(outDir);
  const info = statOrUndefined(spareDir);
  if (!info?.isDirectory() || !isFolderOf(spare, info)) return undefined;
  const work = stagingFolder(spareDir, '-base');
  renameSync(spareDir, work);
  return work;
}

/**
 * The spare brought to a new output: the output being made, the spare's folder taken as its base,
 * and the two manifests.
 */
interface SpareUpdate {
  output: Output;
  /** The spare's folder, taken (renamed) to become the new output. */
  base: string;
  /** What the spare holds. */
  spare: OutputManifest;
  /** What the output being replaced holds. */
  previous: OutputManifest;
  /** The spare's folder as listed ahead, before it was taken. */
  ahead: ListingAhead | undefined;
}

/**
 * Brings the spare, taken as `base`, to the new output. The folder itself is listed (ahead, when
 * no folder of it changed since), not only its manifest: whatever the new output lacks is removed first (a file the manifest does not name, a
 * page renamed in case only), then the files written now are moved in, and a carried file the
 * spare lacks, or holds with another content, size or set of compressed copies, is linked from the
 * previous output. A copied folder that changed is copied again, and folders left empty are removed.
 */
async function updateSpare(
  { output, base, spare, previous, ahead }: SpareUpdate,
  copies: readonly Copy[],
  signatures: Record<string, string>,
): Promise<void> {
  const { outDir, files, made, staging } = output;
  const skip = new Set(copies.map((copy) => copy.to));
  const listed = stillListed(ahead, base, skip) ?? listFolder(base, skip);
  // What the spare holds of each file the new output keeps: the file itself and its copies, as `HELD` bits.
  const held = new Map<string, number>();
  for (const file of listed.files) {
    if (files.has(file)) {
      held.set(file, (held.get(file) ?? 0) | HELD.file);
      continue;
    }
    const copy = file.endsWith('.br') ? HELD.br : file.endsWith('.gz') ? HELD.gz : 0;
    const main = copy ? file.slice(0, -3) : '';
    if (copy && files.has(main) && !made.has(main)) held.set(main, (held.get(main) ?? 0) | copy);
    else rmSync(path.join(base, file), { force: true });
  }
  for (const [file, entry] of files) {
    if (made.has(file)) {
      moveIn(staging as string, base, file);
      continue;
    }
    const kept = spare.files.get(file);
    if (kept?.hash === entry.hash && kept.bytes === entry.bytes && sameCopies(outDir, file, entry, held.get(file) ?? 0))
      continue;
    const target = path.join(base, file);
    removeWithCopies(base, file);
    mkdirSync(path.dirname(target), { recursive: true });
    carryOver(path.join(outDir, file), target, file);
  }
  for (const copy of copies) {
    if (spare.copies[copy.to] === signatures[copy.to]) continue;
    const target = path.join(base, copy.to);
    await rm(target, { recursive: true, force: true });
    if (previous.copies[copy.to] === signatures[copy.to]) await linkTree(path.join(outDir, copy.to), target);
    else await copyTree(copy, target);
  }
  // Deepest first: a folder holding only empty folders is empty once they are gone.
  for (const folder of listed.folders.sort((a, b) => b.length - a.length)) {
    try {
      rmdirSync(path.join(base, folder));
    } catch {
      // Not empty.
    }
  }
  if (staging) await rm(staging, { recursive: true, force: true });
}

/** A file of an output, and its compressed copies, as bits of what a folder holds of it. */
const HELD = { file: 1, br: 2, gz: 4 } as const;

/**
 * Whether the spare holds carried `file` (`held`, as `HELD` bits) with the same compressed copies
 * as the previous output: those its entry records, or, for an entry an older build wrote, those
 * beside it in the output.
 */
function sameCopies(outDir: string, file: string, entry: ManifestEntry, held: number): boolean {
  if ((held & HELD.file) === 0) return false;
  const recorded = entry.copies;
  return (['br', 'gz'] as const).every(
    (suffix) =>
      ((held & HELD[suffix]) !== 0) ===
      (recorded
        ? recorded[suffix] !== undefined
        : statOrUndefined(path.join(outDir, `${file}.${suffix}`)) !== undefined),
  );
}

/** Moves each new or changed file over its old version, removes what is gone, refreshes copies. */
async function replaceInPlace(
  output: Output,
  previous: OutputManifest,
  copies: readonly Copy[],
  signatures: Record<string, string>,
): Promise<void> {
  const { staging, outDir, files } = output;
  // Synchronous: an edit moves a few files, each a system call far shorter than a round trip
  // through the thread pool.
  if (staging) {
    for (const file of output.made) if (!output.placed.has(file)) moveIn(staging, outDir, file);
  }
  for (const file of previous.files.keys()) {
    if (files.has(file)) continue;
    removeWithCopies(outDir, file);
  }
  for (const copy of copies) {
    if (previous.copies[copy.to] === signatures[copy.to]) continue;
    await rm(path.join(outDir, copy.to), { recursive: true, force: true });
    await copyTree(copy, path.join(outDir, copy.to));
  }
  if (staging) await rm(staging, { recursive: true, force: true });
  output.staging = undefined;
}

/**
 * In place (a folder only `site dev` serves, with a previous output): moves the files written so
 * far over their old versions now, ahead of the rest of the build, and resolves with each one's
 * hash. The files made after them, and those gone, are dealt with by `commitOutput` as usual.
 */
export async function placeWritten(output: Output): Promise<Map<string, string>> {
  await output.settle();
  const placed = new Map<string, string>();
  const { staging, outDir } = output;
  if (!staging) return placed;
  for (const file of output.made) {
    const entry = output.files.get(file);
    if (output.placed.has(file) || !entry) continue;
    moveIn(staging, outDir, file);
    output.placed.add(file);
    placed.set(file, entry.hash);
  }
  return placed;
}

/** Renames the finished folder into place; resolves with where the previous output went, if there was one. */
async function swapIn(staging: string, outDir: string): Promise<string | undefined> {
  const retired = path.join(path.dirname(outDir), `.dist-old-${process.pid}-${Date.now()}`);
  let hadPrevious = true;
  try {
    await rename(outDir, retired);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    hadPrevious = false;
  }
  try {
    await rename(staging, outDir);
  } catch (error) {
    if (hadPrevious) await rename(retired, outDir);
    throw error;
  }
  return hadPrevious ? retired : undefined;
}

/** Moves a file written now, and its compressed copies, from `staging` into `dir` over their old versions. */
function moveIn(staging: string, dir: string, file: string): void {
  mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  for (const suffix of ['', '.br', '.gz']) {
    try {
      renameSync(path.join(staging, file + suffix), path.join(dir, file + suffix));
    } catch {
      // A compressed copy the new version lacks must not outlive the old version.
      rmSync(path.join(dir, file + suffix), { force: true });
    }
  }
}

/** Removes a file of an output and its compressed copies. */
function removeWithCopies(dir: string, file: string): void {
  for (const suffix of ['', '.br', '.gz']) rmSync(path.join(dir, file + suffix), { force: true });
}

function everyEntry<V>(map: ReadonlyMap<string, V>, test: (key: string, value: V) => boolean): boolean {
  for (const [key, value] of map) if (!test(key, value)) return false;
  return true;
}

function sameRecords(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(b);
  return Object.keys(a).length === keys.length && keys.every((k) => a[k] === b[k]);
}

/**
 * Links an unchanged file (`file` of the output), and its compressed copies, from where the
 * previous output has it into the new one.
 */
function carryOver(from: string, to: string, file: string): void {
  try {
    linkOrCopy(from, to);
  } catch (error) {
    throw new StaleOutputError(`${file} is missing from the previous output`, { cause: error });
  }
  for (const suffix of ['.br', '.gz']) {
    try {
      linkOrCopy(from + suffix, to + suffix);
    } catch {
      // Not every file has compressed copies.
    }
  }
}

function linkOrCopy(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw error;
    copyFileSync(from, to);
  }
}

/** Copies a folder into the output, without the files it excludes. */
async function copyTree(copy: Copy, target: string): Promise<void> {
  const { exclude } = copy;
  await cp(copy.from, target, { recursive: true, ...(exclude && { filter: (file: string) => !exclude(file) }) });
}

async function linkTree(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    if (entry.isDirectory()) await linkTree(path.join(from, entry.name), path.join(to, entry.name));
    else linkOrCopy(path.join(from, entry.name), path.join(to, entry.name));
  }
}

/** Paths, sizes and modification times of every file in a folder: changes when any file does. */
export async function treeSignature(dir: string): Promise<string> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  const parts: string[] = [];
  for (const entry of entries) {
    const absolute = path.join(entry.parentPath, entry.name);
    // Synchronous: a stat the kernel has cached takes microseconds, a trip through the thread pool far longer.
    const info = statOrUndefined(absolute);
    if (info?.isFile()) parts.push(`${path.relative(dir, absolute)} ${info.size} ${info.mtimeMs}`);
  }
  return digest(parts.sort().join('\n'));
}

function statOrUndefined(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}
