import { copyFile, link, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { type Inputs, sameInputs } from '../build/inputs';
import { operational } from '../diagnostics/failure';
import { digest } from '../load/digest';
import { CompressThreads, type CopySizes, compressible, writeWithCopies } from './compress';
import { prepareOutputFolder, removeAbandonedStaging, stagingFolder } from './folder';
import type { ManifestEntry, OutputManifest } from './manifest';
import type { OutputStore } from './store';

/** A file's bytes as the output's manifest records them: their digest (`digest` in load/digest.ts) and length. */
export interface FileFacts {
  hash: string;
  bytes: number;
}

/**
 * Files being written and compressed at once: enough to keep the disk and the zlib threads busy.
 * Each holds its bytes and its compressors' memory meanwhile: twice as many made a cold build's
 * memory larger at its end, and the build no faster.
 */
export const IN_FLIGHT = 16;

/**
 * Compressed files written through zlib's asynchronous calls before an output starts threads of
 * its own to write the rest (`CompressThreads`): a build that writes a few (an edit) does not
 * start them.
 */
const BEFORE_THREADS = 2 * IN_FLIGHT;
/** The threads an output that writes many compressed files starts. */
const COMPRESS_THREADS = 2;

/**
 * A build's output as it is made, next to the previous one. Each file is either carried over
 * (`keep`: made from the same inputs, or found identical) or written now into a fresh staging
 * folder beside the output folder, and compressed, while later files are still being made. How
 * the staged files then replace the old output is `commit.ts`'s job.
 */
export class Output {
  /**
   * Every file of the output with its entry. It starts as a copy of the previous output's, made
   * at once rather than file by file (most files are carried over); `finish` takes out what this
   * build neither carried over nor made again.
   */
  readonly files: Map<string, ManifestEntry>;
  /** The previous output's files carried over or made again so far (see `finish`). */
  private readonly reached: string[] = [];
  /** Files written now (into the staging folder): every other file is carried over from the previous output. */
  readonly made = new Set<string>();
  /** Files written now and already moved into the output folder, ahead of the rest (see `placeWritten`). */
  readonly placed = new Set<string>();
  /** The staging folder, once a file was written into it. */
  staging: string | undefined;
  private readonly pending = new Set<Promise<void>>();
  private failure: unknown;
  /** Compressed files written so far, and the threads writing them once there are many (see `BEFORE_THREADS`). */
  private compressed = 0;
  private threads: CompressThreads | undefined;
  /** Whether the threads were ended for good (`endThreads`). */
  private threadsEnded = false;

  private constructor(
    readonly outDir: string,
    /** The previous output, when it is intact and ours, or the store holds it; undefined: everything is written. */
    readonly previous: OutputManifest | undefined,
    private readonly compress: boolean,
    /** Where the previous output's files are, when not in the output folder (a clone given another's build cache). */
    readonly restoredFrom: OutputStore | undefined,
  ) {
    this.files = new Map(previous?.files);
  }

  static async open(
    outDir: string,
    previous: OutputManifest | undefined,
    options: { compress: boolean; restoredFrom?: OutputStore | undefined },
  ): Promise<Output> {
    await prepareOutputFolder(outDir);
    await removeAbandonedStaging(outDir);
    return new Output(path.resolve(outDir), previous, options.compress, previous && options.restoredFrom);
  }

  /** Where a file carried over from the previous output is (its compressed copies beside it, with their suffix). */
  carriedFrom(file: string): string {
    const entry = this.previous?.files.get(file);
    return this.restoredFrom && entry ? this.restoredFrom.where(file, entry.hash) : path.join(this.outDir, file);
  }

  /** The inputs a file was made from in the previous output. */
  previousInputs(file: string): Inputs | undefined {
    return this.previous?.files.get(file)?.inputs;
  }

  /** Carries a file over from the previous output when it was made there from exactly these inputs; false otherwise. */
  carry(file: string, inputs: Inputs): boolean {
    const entry = this.previous?.files.get(file);
    if (!entry || !sameInputs(entry.inputs, inputs)) return false;
    // The very record from now on (of the same value): the next build compares it by identity.
    entry.inputs = inputs;
    this.reached.push(file);
    return true;
  }

  /**
   * Carries a file over when the previous output has it, for a file named by a hash of its inputs
   * (a share card): the same name is the same inputs, so its entry records none. False otherwise.
   */
  carryNamed(file: string): boolean {
    if (!this.previous?.files.has(file)) return false;
    this.reached.push(file);
    return true;
  }

  /**
   * Carries over a file the caller knows the previous output made from the very inputs it has now
   * (see `BuildSession.madeFrom`).
   */
  carryMade(file: string): void {
    this.reached.push(file);
  }

  /**
   * Takes out of `files` the previous output's files this build did not carry over or make again
   * (a page gone): called once every file was made, before the output is committed.
   */
  finish(): void {
    const { previous } = this;
    if (!previous || this.reached.length === previous.files.size) return;
    const reached = new Set(this.reached);
    for (const file of previous.files.keys()) if (!reached.has(file)) this.files.delete(file);
  }

  /**
   * Adds a file; it is written (and compressed) now unless the previous output has it identical.
   * Not async itself: a page's string is turned into bytes and let go at once, where an async
   * function would hold it in its frame while the file is written and compressed; there, alive
   * across many young collections, it would pile up in the old generation until a full one.
   */
  add(file: string, text: string | Uint8Array, inputs?: Inputs, card?: string): Promise<void> {
    return this.addBytes(file, typeof text === 'string' ? Buffer.from(text) : text, inputs, card);
  }

  /**
   * Adds a file whose bytes are already in the file `source` (a drawn share card in the build
   * cache), known by their `digest` and length as whoever wrote them worked them out: it is
   * hard-linked into the output rather than written again, or copied where a link cannot be made
   * (another file system). Never compressed: for files compressed already. The source must never
   * be written in place afterwards, only replaced (written under another name, then renamed), as
   * every file of the build cache is.
   */
  addLinked(file: string, source: string, facts: FileFacts, inputs?: Inputs): Promise<void> {
    return this.addEntry(file, facts, inputs, (to) => linkOrCopy(source, to));
  }

  private addBytes(file: string, contents: Uint8Array, inputs: Inputs | undefined, card?: string): Promise<void> {
    return this.addEntry(
      file,
      { hash: digest(contents), bytes: contents.byteLength },
      inputs,
      (_to, staging) => writeWithCopies(staging, file, contents, this.compress, this.threadsFor(file)),
      card,
    );
  }

  /** The threads to write `file` on, once this output writes many compressed files. */
  private threadsFor(file: string): CompressThreads | undefined {
    if (!this.compress || this.threadsEnded || !compressible(file)) return undefined;
    if (++this.compressed > BEFORE_THREADS) this.threads ??= new CompressThreads(COMPRESS_THREADS);
    return this.threads;
  }

  private async addEntry(
    file: string,
    { hash, bytes }: FileFacts,
    inputs: Inputs | undefined,
    write: (to: string, staging: string) => Promise<CopySizes>,
    card?: string,
  ): Promise<void> {
    const before = this.previous?.files.get(file);
    // Counted once: a file whose entry this build already replaced was reached before.
    if (before && this.files.get(file) === before) this.reached.push(file);
    if (before && before.hash === hash) {
      this.files.set(
        file,
        (!inputs || sameInputs(before.inputs, inputs)) && before.card === card
          ? before
          : { ...before, inputs, ...(card && { card }) },
      );
      return;
    }
    const entry: ManifestEntry = { hash, bytes, ...(inputs ? { inputs } : {}), ...(card && { card }) };
    this.files.set(file, entry);
    this.made.add(file);
    const staging = await this.stagingDir();
    const task = this.folderOf(staging, file)
      .then(() => write(path.join(staging, file), staging))
      .then(
        (copies) => {
          entry.copies = copies;
        },
        (error: unknown) => {
          this.failure ??= error;
        },
      );
    this.pending.add(task);
    void task.finally(() => this.pending.delete(task));
    if (this.pending.size >= IN_FLIGHT) await Promise.race(this.pending);
  }

  /** Waits for every file in flight; throws the first write failure. */
  async settle(): Promise<void> {
    await Promise.all(this.pending);
    await this.endThreads();
    if (this.failure) throw this.failure;
  }

  /**
   * Ends the compressing threads once the files they hold are written: the files added after are
   * compressed through zlib's asynchronous calls. For the end of the pages, which are most of an
   * output's files: what a build makes after them is a few dozen files, and the threads' memory
   * would add to its peak, which comes at its end.
   */
  async endThreads(): Promise<void> {
    const threads = this.threads;
    this.threads = undefined;
    this.threadsEnded = true;
    await threads?.close();
  }

  /** Drops everything written so far; the previous output is left as it was. */
  async abort(): Promise<void> {
    await Promise.allSettled(this.pending);
    await this.endThreads();
    if (this.staging) await rm(this.staging, { recursive: true, force: true });
    this.staging = undefined;
    this.folders.clear();
  }

  /** The folders made in the staging folder, each once (a cold build writes thousands of files into a few dozen). */
  private readonly folders = new Map<string, Promise<unknown>>();

  /** Makes the staging folder's folder for `file`, once. */
  private folderOf(staging: string, file: string): Promise<unknown> {
    const folder = path.dirname(path.join(staging, file));
    let made = this.folders.get(folder);
    if (!made) {
      made = mkdir(folder, { recursive: true });
      this.folders.set(folder, made);
    }
    return made;
  }

  private async stagingDir(): Promise<string> {
    if (!this.staging) {
      const staging = stagingFolder(this.outDir);
      // Not recursive: prepareOutputFolder made the parent, and a recursive mkdir can loop forever.
      await mkdir(staging).catch((error: unknown) => {
        throw operational(error, `cannot create a folder beside ${this.outDir}`);
      });
      this.staging = staging;
    }
    return this.staging;
  }
}

/** A hard link of `from` at `to`, or a copy where a link cannot be made; no compressed copies. */
async function linkOrCopy(from: string, to: string): Promise<CopySizes> {
  try {
    await link(from, to);
  } catch {
    await copyFile(from, to);
  }
  return {};
}
