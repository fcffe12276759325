import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { appendLog, readLog, rewriteLog } from '../write/recordLog';
import { type Inputs, sameInputs } from './inputs';

interface Entry<T> {
  inputs: Inputs;
  value: T;
}

/** How a memo's values are written to its file and read back, when not as they are (see `packedFacts`). */
export interface MemoCodec<T> {
  write(value: T): unknown;
  read(stored: unknown): T;
}

/** An entry in memory, with the number of the last build that used or made it. */
interface Held<T> extends Entry<T> {
  used: number;
}

/**
 * One kind of cached work (compiled markdown, page ids, the client bundle): for each output, by
 * name, the value last made and the inputs it was made from. A lookup with the same inputs finds
 * the value; any other record misses. Only the outputs looked up or made since the last save are
 * kept, so the cache never outgrows the site.
 *
 * On disk a memo is a record log (recordLog.ts), each record one output's entry, serialized by v8
 * in batches. A save appends the entries made since the last one (a body edit writes one record,
 * not the whole cache), and writes the file anew, atomically, once it holds more superseded or
 * unused records than live ones. Reading, a later record of an output replaces an earlier one, and
 * a batch cut short (a crash while appending) ends the log.
 */
export class Memo<T> {
  /** The builds saved so far: an entry whose `used` is not this one was not used by the current build. */
  private build = 1;
  /** Outputs made since the last save, to append. */
  private made = new Set<string>();
  /** Whether the file's folder is known to exist. */
  private folder = false;

  private constructor(
    /** The file it is kept in; undefined when nothing is kept on disk (`--no-cache`). */
    private readonly file: string | undefined,
    private readonly entries: Map<string, Held<T>>,
    /**
     * Records in the file, live or not; Infinity when it ends in a damaged record (appending after
     * it would be lost).
     */
    private records: number,
    private readonly codec: MemoCodec<T> | undefined,
  ) {}

  /** The memo kept in `file`, or an empty one when there is none or it cannot be read. */
  static async open<T>(file: string | undefined, codec?: MemoCodec<T>): Promise<Memo<T>> {
    if (!file) return new Memo<T>(undefined, new Map(), 0, codec);
    // No cache yet, or a damaged record: what was read is kept; the build does the rest.
    const { records, whole } = await readLog(file);
    const entries = new Map<string, Held<T>>();
    for (const record of records) {
      const [output, entry] = record as [string, Entry<unknown>];
      entries.set(output, {
        inputs: entry.inputs,
        value: codec ? codec.read(entry.value) : (entry.value as T),
        used: 0,
      });
    }
    // A log that does not end with a whole record is written anew at the next save.
    return new Memo<T>(file, entries, whole ? records.length : Number.POSITIVE_INFINITY, codec);
  }

  /** The value made for `output` from exactly these inputs, if the memo has it. */
  get(output: string, inputs: Inputs): T | undefined {
    const entry = this.entries.get(output);
    if (!entry || !sameInputs(entry.inputs, inputs)) return undefined;
    entry.used = this.build;
    return entry.value;
  }

  /** How many outputs the memo keeps. */
  get size(): number {
    return this.entries.size;
  }

  /** Every value the memo keeps (after a save: those the last build used or made). */
  values(): T[] {
    return Array.from(this.entries.values(), (entry) => entry.value);
  }

  /** The value last made for `output`, whatever it was made from. */
  latest(output: string): T | undefined {
    return this.entries.get(output)?.value;
  }

  /** The inputs `output` was last made from (for `--explain`). */
  previous(output: string): Inputs | undefined {
    return this.entries.get(output)?.inputs;
  }

  /**
   * Keeps the entry of `output` through the next save, as a lookup that found it would: for a value
   * the build knows is still current.
   */
  keep(output: string): void {
    const entry = this.entries.get(output);
    if (entry) entry.used = this.build;
  }

  /** Keeps every entry through the next save: for a build that knows it uses all of them. */
  keepAll(): void {
    this.entries.forEach((entry) => {
      entry.used = this.build;
    });
  }

  set(output: string, inputs: Inputs, value: T): void {
    this.entries.set(output, { inputs, value, used: this.build });
    this.made.add(output);
  }

  /** Ends a build: keeps what it used, and adds to the file what it made. */
  async save(): Promise<void> {
    // forEach: no [key, value] pair made for each of thousands of entries.
    this.entries.forEach((entry, output) => {
      if (entry.used !== this.build) this.entries.delete(output);
    });
    this.build++;
    const made = [...this.made].filter((output) => this.entries.has(output));
    this.made.clear();
    if (!this.file || (made.length === 0 && this.records <= 2 * this.entries.size)) return;
    if (!this.folder) await mkdir(path.dirname(this.file), { recursive: true });
    this.folder = true;
    const record = (output: string) => {
      const { inputs, value } = this.entries.get(output) as Held<T>;
      return [output, { inputs, value: this.codec ? this.codec.write(value) : value }];
    };
    // Anew when most of it is dead, or most of it is made now (appending would cost as much).
    if (this.records + made.length > 2 * this.entries.size || 2 * made.length > this.entries.size) {
      await rewriteLog(this.file, [...this.entries.keys()].map(record));
      this.records = this.entries.size;
    } else if (made.length > 0) {
      await appendLog(this.file, made.map(record));
      this.records += made.length;
    }
  }
}
