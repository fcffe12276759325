import { mkdir, open, readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { type Inputs, sameInputs } from './inputs';

/** Bytes of records written at a time. */
const WRITE_CHUNK = 4 * 1024 * 1024;

interface Entry<T> {
  inputs: Inputs;
  value: T;
}

/**
 * One kind of cached work (compiled markdown, page ids, the client bundle): for each output, by
 * name, the value last made and the inputs it was made from. A lookup with the same inputs finds
 * the value; any other record misses. Only the outputs looked up or made since the last save are
 * kept, so the cache never outgrows the site.
 *
 * On disk a memo is a log of records, each one output's entry serialized by v8 after its length.
 * A save appends the entries made since the last one (a body edit writes one record, not the
 * whole cache), and writes the file anew, atomically, once it holds more superseded or unused
 * records than live ones. Reading, a later record of an output replaces an earlier one, and a
 * record cut short (a crash while appending) ends the log.
 */
export class Memo<T> {
  private used = new Map<string, Entry<T>>();
  /** Outputs made since the last save, to append. */
  private made = new Set<string>();

  private constructor(
    /** The file it is kept in; undefined when nothing is kept on disk (`--no-cache`). */
    private readonly file: string | undefined,
    private entries: Map<string, Entry<T>>,
    /** Records in the file, live or not; Infinity when it ends in a damaged record (appending after it would be lost). */
    private records: number,
  ) {}

  /** The memo kept in `file`, or an empty one when there is none or it cannot be read. */
  static async open<T>(file: string | undefined): Promise<Memo<T>> {
    if (!file) return new Memo<T>(undefined, new Map(), 0);
    const entries = new Map<string, Entry<T>>();
    let records = 0;
    let log: Buffer | undefined;
    let at = 0;
    try {
      log = await readFile(file);
      while (at + 4 <= log.length) {
        const length = log.readUInt32LE(at);
        if (at + 4 + length > log.length) break;
        const [output, entry] = deserialize(log.subarray(at + 4, at + 4 + length)) as [string, Entry<T>];
        entries.set(output, entry);
        records++;
        at += 4 + length;
      }
    } catch {
      // No cache yet, or an unreadable record: what was read so far is kept; the build does the rest.
    }
    // A log that does not end with a whole record is written anew at the next save.
    return new Memo<T>(file, entries, log && at !== log.length ? Number.POSITIVE_INFINITY : records);
  }

  /** The value made for `output` from exactly these inputs, if the memo has it. */
  get(output: string, inputs: Inputs): T | undefined {
    const entry = this.used.get(output) ?? this.entries.get(output);
    if (!entry || !sameInputs(entry.inputs, inputs)) return undefined;
    this.used.set(output, entry);
    return entry.value;
  }

  /** Every value the memo keeps (after a save: those the last build used or made). */
  values(): T[] {
    return [...this.entries.values()].map((entry) => entry.value);
  }

  /** The value last made for `output`, whatever it was made from. */
  latest(output: string): T | undefined {
    return (this.used.get(output) ?? this.entries.get(output))?.value;
  }

  /** The inputs `output` was last made from (for `--explain`). */
  previous(output: string): Inputs | undefined {
    return (this.used.get(output) ?? this.entries.get(output))?.inputs;
  }

  /** Keeps the entry of `output` through the next save, as a lookup that found it would: for a value the build knows is still current. */
  keep(output: string): void {
    const entry = this.used.get(output) ?? this.entries.get(output);
    if (entry) this.used.set(output, entry);
  }

  set(output: string, inputs: Inputs, value: T): void {
    this.used.set(output, { inputs, value });
    this.made.add(output);
  }

  /** Ends a build: keeps what it used, and adds to the file what it made. */
  async save(): Promise<void> {
    this.entries = this.used;
    this.used = new Map();
    const made = [...this.made].filter((output) => this.entries.has(output));
    this.made.clear();
    if (!this.file) return;
    await mkdir(path.dirname(this.file), { recursive: true });
    if (this.records + made.length > 2 * this.entries.size) {
      const temporary = `${this.file}.${process.pid}.tmp`;
      await this.write(temporary, 'w', this.entries.keys());
      await rename(temporary, this.file);
      this.records = this.entries.size;
    } else if (made.length > 0) {
      await this.write(this.file, 'a', made);
      this.records += made.length;
    }
  }

  /**
   * Writes the records of `outputs` to `file` (`a`: at its end), a few megabytes at a time: a
   * cold build's cache is hundreds of megabytes, which would otherwise be held twice in memory
   * (the records, and the buffer joining them) just as the build's memory is at its peak.
   */
  private async write(file: string, flags: 'w' | 'a', outputs: Iterable<string>): Promise<void> {
    const handle = await open(file, flags);
    try {
      let parts: Buffer[] = [];
      let bytes = 0;
      const flush = async () => {
        // Each write holds whole records: appends of two processes do not cut into a record.
        if (parts.length > 0) await handle.write(Buffer.concat(parts, bytes));
        parts = [];
        bytes = 0;
      };
      for (const output of outputs) {
        const record = serialize([output, this.entries.get(output)]);
        const length = Buffer.alloc(4);
        length.writeUInt32LE(record.length);
        parts.push(length, record);
        bytes += 4 + record.length;
        if (bytes >= WRITE_CHUNK) await flush();
      }
      await flush();
    } finally {
      await handle.close();
    }
  }
}
