import { statSync, type Stats } from 'node:fs';
import { copyFile, cp, link, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { digest } from '../build/fingerprint';
import { operational } from '../diagnostics/failure';
import { prepareOutputFolder } from './folder';

export interface CommitOptions {
  /** The copied folders are known to be as they were: their files are not looked at. */
  copiesUnchanged?: boolean;
  /**
   * In place, with the manifest kept in memory: the manifest is removed from disk now and written
   * by the next commit (`site dev`'s quick edit, followed at once by a full build).
   */
  manifestLater?: boolean;
}

/** One file of a previous output, as the build cache remembers it. */
export interface ManifestEntry {
  /** Content hash. */
  hash: string;
  /** The hash of the inputs the file was produced from (rendered pages), when it has one. */
  key?: string;
  bytes: number;
  /** Size of the precompressed gzip copy, when one was written. */
  gzipBytes?: number;
}

/** What a previous build wrote into an output folder. */
interface OutputManifest {
  outDir: string;
  /** The output folder's inode after the swap: another folder at the same path is not ours. */
  inode: number;
  files: Record<string, ManifestEntry>;
  /** Signature (paths, sizes, times) of every copied folder, by destination. */
  copies: Record<string, string>;
}

export interface WriteReport {
  /** Files written (new or changed) by this build. */
  written: number;
  /** Files carried over unchanged from the previous output. */
  unchanged: number;
  /** Every file of the output with its sizes. */
  files: Readonly<Record<string, ManifestEntry>>;
}

/** Files being written and compressed at once: enough to keep the disk and the zlib threads busy. */
const IN_FLIGHT = 32;

/**
 * Writes a complete site into a fresh folder beside `outDir`, then swaps it in with renames.
 * Until the swap, `outDir` is untouched; if anything fails the temporary folder is removed and
 * the previous output stays exactly as it was.
 *
 * With a manifest file (in the build cache), files identical to the previous output are
 * hard-linked from it instead of being written and compressed again, pages whose inputs are
 * unchanged need not even be rendered (`previousKey`, `keep`), and an output identical in every
 * file is left exactly as it is. Files are written and compressed as they are added, so the
 * compression threads work while pages are still being rendered.
 */
export class OutputWriter {
  /**
   * `site dev` writes its output again and again in one process: the manifest of its last write is
   * kept in memory rather than read and parsed from the build cache each time.
   */
  static retainInMemory = false;
  private static readonly memory = new Map<string, OutputManifest>();

  private readonly files: Record<string, ManifestEntry> = {};
  private readonly carried = new Set<string>();
  private readonly pending = new Set<Promise<void>>();
  private staging: string | undefined;
  private failure: unknown;

  private constructor(
    private readonly outDir: string,
    private readonly manifestFile: string | undefined,
    private readonly previous: OutputManifest | undefined,
    private readonly inPlace: boolean,
  ) {}

  /**
   * `reuse: false` ignores the previous output (the manifest is still written for the next build).
   * `inPlace` (site dev's own output folder): when the previous output is intact, changed files
   * replace their old versions one by one (each by a rename, so a file is never half-written)
   * instead of the whole folder being assembled anew and swapped.
   */
  static async open(outDir: string, manifestFile?: string, options: { reuse?: boolean; inPlace?: boolean } = {}): Promise<OutputWriter> {
    await prepareOutputFolder(outDir);
    const previous = manifestFile && options.reuse !== false ? await readManifest(manifestFile, outDir, OutputWriter.retainInMemory ? OutputWriter.memory.get(manifestFile) : undefined) : undefined;
    return new OutputWriter(path.resolve(outDir), manifestFile, previous, options.inPlace ?? false);
  }

  /** The inputs key a file was produced from in the previous, intact output. */
  previousKey(file: string): string | undefined {
    return this.previous?.files[file]?.key;
  }

  /** Every file of the previous, intact output. */
  previousFiles(): string[] {
    return Object.keys(this.previous?.files ?? {});
  }

  /** True when the previous, intact output has this file. */
  had(file: string): boolean {
    return this.previous?.files[file] !== undefined;
  }

  /** Carries a file over from the previous output unchanged (its inputs key is the same). */
  keep(file: string): void {
    const entry = this.previous?.files[file];
    if (!entry) throw new Error(`${file} is not in the previous output`);
    this.files[file] = entry;
    this.carried.add(file);
  }

  /** Adds a file; it is written (and compressed) now unless the previous output has it identical. */
  async add(file: string, contents: string | Uint8Array, key?: string): Promise<void> {
    const hash = digest(contents);
    const before = this.previous?.files[file];
    if (before && before.hash === hash) {
      this.files[file] = { ...before, ...(key ? { key } : {}) };
      this.carried.add(file);
      return;
    }
    this.files[file] = { hash, bytes: Buffer.byteLength(contents), ...(key ? { key } : {}) };
    const staging = await this.stagingDir();
    // In place (site dev), pages are served as they are: compressing them would only slow the loop.
    const task = writeWithCopies(staging, file, contents, !(this.inPlace && this.previous)).then(
      (gzipBytes) => {
        if (gzipBytes !== undefined) (this.files[file] as ManifestEntry).gzipBytes = gzipBytes;
      },
      (error: unknown) => {
        this.failure ??= error;
      },
    );
    this.pending.add(task);
    void task.finally(() => this.pending.delete(task));
    if (this.pending.size >= IN_FLIGHT) await Promise.race(this.pending);
  }

  /**
   * Completes the output: copies the folders (media), links everything carried over, and swaps
   * the new folder in. When every file and folder is as before, nothing is touched.
   */
  async commit(copies: readonly { from: string; to: string }[], options: CommitOptions = {}): Promise<WriteReport> {
    try {
      await Promise.all(this.pending);
      if (this.failure) throw this.failure;
      const signatures: Record<string, string> = {};
      for (const copy of copies) signatures[copy.to] = (options.copiesUnchanged && this.previous?.copies[copy.to]) || (await treeSignature(copy.from));
      const report = (written: number): WriteReport => ({ written, unchanged: Object.keys(this.files).length - written, files: this.files });
      const written = Object.keys(this.files).length - this.carried.size;
      const previous = this.previous;
      if (!this.staging && previous && Object.keys(previous.files).length === this.carried.size && sameRecords(previous.copies, signatures)) {
        return report(0);
      }
      if (this.inPlace && previous) {
        if (options.manifestLater && OutputWriter.retainInMemory && this.manifestFile) {
          // Gone from disk before any file changes, so that a manifest there never describes older files.
          await rm(this.manifestFile, { force: true });
          await this.replaceInPlace(previous, copies, signatures);
          OutputWriter.memory.set(this.manifestFile, this.manifestOf(previous.inode, signatures));
          return report(written);
        }
        await this.replaceInPlace(previous, copies, signatures);
        await this.writeManifest(signatures);
        return report(written);
      }
      const staging = await this.stagingDir();
      for (const copy of copies) {
        const target = path.join(staging, copy.to);
        if (previous && previous.copies[copy.to] === signatures[copy.to]) await linkTree(path.join(this.outDir, copy.to), target);
        else await cp(copy.from, target, { recursive: true });
      }
      const dirs = new Set([...this.carried].map((file) => path.dirname(path.join(staging, file))));
      await Promise.all([...dirs].map((dir) => mkdir(dir, { recursive: true })));
      await inParallel([...this.carried], (file) => carryOver(this.outDir, staging, file));
      await swapIn(staging, this.outDir);
      this.staging = undefined;
      await this.writeManifest(signatures);
      return report(written);
    } catch (error) {
      await this.abort();
      throw operational(error, `cannot write the site into ${this.outDir}`);
    }
  }

  private manifestOf(inode: number, signatures: Record<string, string>): OutputManifest {
    return { outDir: this.outDir, inode, files: this.files, copies: signatures };
  }

  private async writeManifest(signatures: Record<string, string>): Promise<void> {
    if (!this.manifestFile) return;
    const manifest = this.manifestOf((await stat(this.outDir)).ino, signatures);
    if (OutputWriter.retainInMemory) OutputWriter.memory.set(this.manifestFile, manifest);
    await mkdir(path.dirname(this.manifestFile), { recursive: true });
    await writeFile(this.manifestFile, JSON.stringify(manifest));
  }

  /** Moves each new or changed file over its old version, removes what is gone, refreshes copies. */
  private async replaceInPlace(previous: OutputManifest, copies: readonly { from: string; to: string }[], signatures: Record<string, string>): Promise<void> {
    const staging = this.staging;
    if (staging) {
      for (const file of Object.keys(this.files)) {
        if (this.carried.has(file)) continue;
        await mkdir(path.dirname(path.join(this.outDir, file)), { recursive: true });
        for (const suffix of ['', '.br', '.gz']) {
          // A compressed copy the new version lacks must not outlive the old version.
          await rename(path.join(staging, file + suffix), path.join(this.outDir, file + suffix)).catch(() => rm(path.join(this.outDir, file + suffix), { force: true }));
        }
      }
    }
    for (const file of Object.keys(previous.files)) {
      if (file in this.files) continue;
      for (const suffix of ['', '.br', '.gz']) await rm(path.join(this.outDir, file + suffix), { force: true });
    }
    for (const copy of copies) {
      if (previous.copies[copy.to] === signatures[copy.to]) continue;
      await rm(path.join(this.outDir, copy.to), { recursive: true, force: true });
      await cp(copy.from, path.join(this.outDir, copy.to), { recursive: true });
    }
    if (staging) await rm(staging, { recursive: true, force: true });
    this.staging = undefined;
  }

  /** Drops everything written so far; the previous output is left as it was. */
  async abort(): Promise<void> {
    await Promise.allSettled(this.pending);
    if (this.staging) await rm(this.staging, { recursive: true, force: true });
    this.staging = undefined;
  }

  private async stagingDir(): Promise<string> {
    if (!this.staging) {
      const staging = path.join(path.dirname(this.outDir), `.dist-new-${process.pid}-${Date.now()}`);
      // Not recursive: prepareOutputFolder made the parent, and a recursive mkdir can loop forever.
      await mkdir(staging).catch((error: unknown) => {
        throw operational(error, `cannot create a folder beside ${this.outDir}`);
      });
      this.staging = staging;
    }
    return this.staging;
  }
}

/** Renames the finished folder into place; the previous output is removed only after the swap. */
async function swapIn(staging: string, outDir: string): Promise<void> {
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
  if (hadPrevious) await rm(retired, { recursive: true, force: true });
}

async function readManifest(file: string, outDir: string, inMemory?: OutputManifest): Promise<OutputManifest | undefined> {
  try {
    const manifest = inMemory ?? (JSON.parse(await readFile(file, 'utf8')) as OutputManifest);
    const current = await stat(outDir);
    return manifest.outDir === path.resolve(outDir) && manifest.inode === current.ino ? manifest : undefined;
  } catch {
    return undefined;
  }
}

function sameRecords(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(b);
  return Object.keys(a).length === keys.length && keys.every((k) => a[k] === b[k]);
}

/**
 * The previous output lacks a file the build cache says it holds (someone deleted it by hand):
 * the build is run again without carrying anything over.
 */
export class StaleOutputError extends Error {}

/** Links an unchanged file, and its compressed copies, from the previous output into the new one. */
async function carryOver(outDir: string, staging: string, file: string): Promise<void> {
  try {
    await linkOrCopy(path.join(outDir, file), path.join(staging, file));
  } catch (error) {
    throw new StaleOutputError(`${file} is missing from the previous output`, { cause: error });
  }
  for (const suffix of ['.br', '.gz']) await linkOrCopy(path.join(outDir, file + suffix), path.join(staging, file + suffix)).catch(() => undefined);
}

async function linkOrCopy(from: string, to: string): Promise<void> {
  try {
    await link(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw error;
    await copyFile(from, to);
  }
}

async function linkTree(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    if (entry.isDirectory()) await linkTree(path.join(from, entry.name), path.join(to, entry.name));
    else await linkOrCopy(path.join(from, entry.name), path.join(to, entry.name));
  }
}

/** Paths, sizes and modification times of every file in a folder: changes when any file does. */
async function treeSignature(dir: string): Promise<string> {
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

/**
 * Runs `work` over every item with a bounded number in flight. On a failure no new item starts,
 * and the failure is thrown only once every item in flight has finished, so the caller can clean
 * up a folder nothing is writing into any more.
 */
async function inParallel<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  await Promise.all(
    Array.from({ length: Math.min(IN_FLIGHT, items.length) }, async () => {
      while (!failure && next < items.length) {
        try {
          await work(items[next++] as T);
        } catch (error) {
          failure ??= { error };
        }
      }
    }),
  );
  if (failure) throw failure.error;
}

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text files worth compressing; media (video, images but SVG, PDF) are compressed already. */
const COMPRESSIBLE = /\.(html|css|js|json|svg|xml|txt)$/;

/**
 * Brotli quality per file: the hashed assets are few and cached for a year, so they get the
 * densest setting (11); pages are many and change with content, and quality 5 compresses them
 * about 50 times faster than 11 for some 3 % more bytes.
 */
function brotliQuality(file: string): number {
  return file.startsWith('assets/') ? 11 : 5;
}

/**
 * Writes a file and, for text, a brotli (.br) and a gzip (.gz) copy beside it, so the server
 * answers by negotiation without compressing on each request. A copy that would not be smaller is
 * skipped. Returns the gzip copy's size, when written.
 */
async function writeWithCopies(dir: string, file: string, contents: string | Uint8Array, compress: boolean): Promise<number | undefined> {
  const target = path.join(dir, file);
  await mkdir(path.dirname(target), { recursive: true });
  await writeFile(target, contents);
  if (!compress || !COMPRESSIBLE.test(file)) return undefined;
  const raw = typeof contents === 'string' ? Buffer.from(contents) : contents;
  const [br, gzipped] = await Promise.all([
    brotli(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: brotliQuality(file), [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
    gz(raw, { level: 9 }),
  ]);
  if (br.length < raw.length) await writeFile(`${target}.br`, br);
  if (gzipped.length >= raw.length) return undefined;
  await writeFile(`${target}.gz`, gzipped);
  return gzipped.length;
}
