import type { Stats } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Inputs } from '../build/inputs';
import type { CopySizes } from './compress';
import { appendLog, type LogPrefix, readLog, rewriteLog } from './recordLog';

/** One file of an output folder, as the build cache remembers it. */
export interface ManifestEntry {
  /** Content hash. */
  hash: string;
  /** What the file was made from (rendered pages): equal inputs, equal file. */
  inputs?: Inputs;
  bytes: number;
  /**
   * A page's share card (assets/cards/…), which the page names in its head: what the page's own
   * inputs determine (see `PagePlan.inputs`), recorded so that a page carried over tells its card
   * without the card being planned again.
   */
  card?: string;
  /**
   * The compressed copies written beside the file (`<file>.br`, `<file>.gz`), with their sizes:
   * `{}` when none was. Absent from an entry an older build wrote, which did not record them.
   */
  copies?: CopySizes;
}

/** What a build wrote into an output folder. */
export interface OutputManifest {
  outDir: string;
  /** The output folder's inode after the swap: another folder at the same path is not ours. */
  inode: number;
  /**
   * The output folder's time of birth (ms), with its inode: a folder removed and another made at
   * once can be given the very inode number it had. Absent from a manifest an older build wrote,
   * which then describes no folder (the next build writes its output whole, once).
   */
  born?: number;
  files: ReadonlyMap<string, ManifestEntry>;
  /** Signature (paths, sizes, times) of every copied folder, by destination. */
  copies: Record<string, string>;
}

/**
 * An output folder's manifest as its file holds it: a log (see recordLog.ts) of the folder's
 * description (`["head", { outDir, inode, copies }]`), and of each file's entry as it was made
 * (`["file", path, entry]`) or removed (`["gone", path]`). A build that changed one page appends
 * that page's record, not a large site's whole manifest.
 */
export interface ManifestLog {
  manifest: OutputManifest;
  /** Records in the log, live or not; Infinity when it ends in a damaged record. */
  records: number;
  /** The manifest the log's first bytes made, when it was read for a prefix it still begins with. */
  earlier?: { prefix: LogPrefix; manifest: () => OutputManifest };
}

type ManifestRecord = ['head', Omit<OutputManifest, 'files'>] | ['file', string, ManifestEntry] | ['gone', string];

/**
 * The manifest of `outDir` kept in `file`, when it still describes that very folder; with `prefix`,
 * also the manifest the log's first bytes made (`earlier`), whatever folder that describes.
 */
export async function readManifest(file: string, outDir: string, prefix?: LogPrefix): Promise<ManifestLog | undefined> {
  const read = await readManifestLog(file, prefix);
  const manifest = read && (await stillDescribes(read.manifest, outDir));
  return manifest && { ...read, manifest };
}

/**
 * The manifest kept in `file`, whatever folder it describes now; with `prefix`, also the one the
 * log's first bytes made (`earlier`), when it still begins with them.
 */
export async function readManifestLog(file: string, prefix?: LogPrefix): Promise<ManifestLog | undefined> {
  const { records, whole, inPrefix } = await readLog(file, prefix);
  let head: Omit<OutputManifest, 'files'> | undefined;
  const files = new Map<string, ManifestEntry>();
  // What the records after the prefix changed: the head, and each file's entry as the prefix left it.
  let headThen: Omit<OutputManifest, 'files'> | undefined;
  const entriesThen = new Map<string, ManifestEntry | undefined>();
  (records as ManifestRecord[]).forEach((record, i) => {
    if (i === inPrefix) headThen = head;
    if (inPrefix !== undefined && i >= inPrefix && record[0] !== 'head' && !entriesThen.has(record[1]))
      entriesThen.set(record[1], files.get(record[1]));
    if (record[0] === 'head') head = record[1];
    else if (record[0] === 'file') files.set(record[1], record[2]);
    else files.delete(record[1]);
  });
  if (inPrefix === records.length) headThen = head;
  const before = headThen;
  const earlier = prefix &&
    before && {
      prefix,
      manifest: (): OutputManifest => {
        const then = new Map(files);
        for (const [name, entry] of entriesThen) {
          if (entry) then.set(name, entry);
          else then.delete(name);
        }
        return { ...before, files: then };
      },
    };
  return (
    head && {
      manifest: { ...head, files },
      records: whole ? records.length : Number.POSITIVE_INFINITY,
      ...(earlier && { earlier }),
    }
  );
}

/** Whether `folder` is the very folder `manifest` was written for: its inode and its time of birth. */
export function isFolderOf(manifest: Pick<OutputManifest, 'inode' | 'born'>, folder: Stats): boolean {
  return folder.ino === manifest.inode && folder.birthtimeMs === manifest.born;
}

/** The manifest, when the folder at `outDir` is still the one it was written for. */
export async function stillDescribes(manifest: OutputManifest, outDir: string): Promise<OutputManifest | undefined> {
  try {
    const current = await stat(outDir);
    return manifest.outDir === path.resolve(outDir) && isFolderOf(manifest, current) ? manifest : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Keeps `manifest` in `file`, where `previous` (when given) is what the file holds: the records of
 * what changed since are appended, and the log is written anew once a quarter of it is superseded.
 * `keep`, when given, is called once it is known which (`anew`), before the file is touched.
 */
export async function writeManifest(
  file: string,
  manifest: OutputManifest,
  previous: ManifestLog | undefined,
  keep?: (anew: boolean) => Promise<void>,
): Promise<ManifestLog> {
  await mkdir(path.dirname(file), { recursive: true });
  const { files, ...head } = manifest;
  const whole = (): ManifestRecord[] => [
    ['head', head],
    ...Array.from(files, ([name, entry]): ManifestRecord => ['file', name, entry]),
  ];
  const live = files.size + 1;
  if (!previous) {
    await keep?.(true);
    await rewriteLog(file, whole());
    return { manifest, records: live };
  }
  const before = previous.manifest;
  const changed: ManifestRecord[] = [];
  if (
    before.outDir !== head.outDir ||
    before.inode !== head.inode ||
    before.born !== head.born ||
    JSON.stringify(before.copies) !== JSON.stringify(head.copies)
  )
    changed.push(['head', head]);
  // Every file of before is still there when none is new and there are as many: the usual build has
  // no file to look for.
  let added = 0;
  for (const [name, entry] of files) {
    const was = before.files.get(name);
    if (was === undefined) added++;
    if (was !== entry) changed.push(['file', name, entry]);
  }
  if (files.size !== before.files.size + added)
    for (const name of before.files.keys()) if (!files.has(name)) changed.push(['gone', name]);
  // Written anew once its superseded records would outnumber a quarter of the live ones: every
  // build reads them all. A build that makes many entries again (the first after a change of code
  // makes every page again, and carries their share cards, half of the entries) writes it anew at
  // once rather than leave each later build a dead generation to read.
  if (4 * (previous.records + changed.length - live) > live) {
    await keep?.(true);
    await rewriteLog(file, whole());
    return { manifest, records: live };
  }
  await keep?.(false);
  if (changed.length > 0) await appendLog(file, changed);
  return { manifest, records: previous.records + changed.length };
}
