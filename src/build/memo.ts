import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { type Inputs, sameInputs } from './inputs';

interface Entry<T> {
  inputs: Inputs;
  value: T;
}

/**
 * One kind of cached work (compiled markdown, search indexes, page ids, the client bundle): for
 * each output, by name, the value last made and the inputs it was made from. A lookup with the
 * same inputs finds the value; any other record misses. Only the outputs looked up or made since
 * the last save are kept, so the cache never outgrows the site.
 */
export class Memo<T> {
  private used = new Map<string, Entry<T>>();
  private changed = false;

  private constructor(
    /** The file it is kept in; undefined when nothing is kept on disk (`--no-cache`). */
    private readonly file: string | undefined,
    private entries: Map<string, Entry<T>>,
  ) {}

  /** The memo kept in `file`, or an empty one when there is none or it cannot be read. */
  static async open<T>(file: string | undefined): Promise<Memo<T>> {
    if (!file) return new Memo<T>(undefined, new Map());
    try {
      const stored = deserialize(await readFile(file)) as unknown;
      if (stored instanceof Map) return new Memo<T>(file, stored as Map<string, Entry<T>>);
    } catch {
      // No cache yet, or an unreadable one: start empty; the build does the work itself.
    }
    return new Memo<T>(file, new Map());
  }

  /** The value made for `output` from exactly these inputs, if the memo has it. */
  get(output: string, inputs: Inputs): T | undefined {
    const entry = this.used.get(output) ?? this.entries.get(output);
    if (!entry || !sameInputs(entry.inputs, inputs)) return undefined;
    this.used.set(output, entry);
    return entry.value;
  }

  /** The inputs `output` was last made from (for `--explain`). */
  previous(output: string): Inputs | undefined {
    return (this.used.get(output) ?? this.entries.get(output))?.inputs;
  }

  set(output: string, inputs: Inputs, value: T): void {
    this.used.set(output, { inputs, value });
    this.changed = true;
  }

  /**
   * Ends a build: keeps what it used, and writes that to disk when it differs from what was read
   * (atomically: a half-written cache is never read).
   */
  async save(): Promise<void> {
    const dropped = this.used.size !== this.entries.size;
    const changed = this.changed || dropped;
    this.entries = this.used;
    this.used = new Map();
    this.changed = false;
    if (!this.file || !changed) return;
    await mkdir(path.dirname(this.file), { recursive: true });
    const temporary = `${this.file}.${process.pid}.tmp`;
    await writeFile(temporary, serialize(this.entries));
    await rename(temporary, this.file);
  }
}
