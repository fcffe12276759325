import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';

/**
 * One kind of cached work (compiled markdown, rendered pages, ...) in `<root>/.cache/site/`:
 * entries by content-hash key, valid only for the pipeline code fingerprint they were made with.
 * Saving keeps only the entries this build used, so the cache never outgrows the site.
 */
export class WorkCache<T> {
  /**
   * `site dev` builds again and again in one process: its caches stay in memory between builds
   * (read from disk once, written to disk once, after the first build).
   */
  static retainInMemory = false;
  private static readonly memory = new Map<string, { fingerprint: string; entries: Map<string, unknown>; onDisk: boolean }>();

  private readonly used = new Map<string, T>();
  private changed = false;

  private constructor(
    private readonly file: string,
    private readonly fingerprint: string,
    private readonly entries: Map<string, T>,
  ) {}

  static async open<T>(root: string | undefined, name: string, fingerprint: string): Promise<WorkCache<T>> {
    const file = root ? path.join(root, '.cache', 'site', `${name}.bin`) : '';
    let entries = new Map<string, T>();
    const kept = WorkCache.retainInMemory ? WorkCache.memory.get(file) : undefined;
    if (kept?.fingerprint === fingerprint) {
      entries = kept.entries as Map<string, T>;
    } else if (file) {
      try {
        const stored = deserialize(await readFile(file)) as { fingerprint: string; entries: Map<string, T> };
        if (stored.fingerprint === fingerprint && stored.entries instanceof Map) entries = stored.entries;
      } catch {
        // No cache yet, or an unreadable one: start empty; the build does the work itself.
      }
    }
    return new WorkCache(file, fingerprint, entries);
  }

  get(key: string): T | undefined {
    const value = this.used.get(key) ?? this.entries.get(key);
    if (value !== undefined) this.used.set(key, value);
    return value;
  }

  set(key: string, value: T): void {
    this.used.set(key, value);
    this.changed = true;
  }

  /** Writes the entries used by this build (atomically: a half-written cache is never read). */
  async save(): Promise<void> {
    if (!this.file) return;
    if (WorkCache.retainInMemory) {
      const onDisk = WorkCache.memory.get(this.file)?.onDisk ?? false;
      WorkCache.memory.set(this.file, { fingerprint: this.fingerprint, entries: this.used, onDisk: true });
      if (onDisk) return;
    }
    if (!this.changed && this.used.size === this.entries.size) return;
    await mkdir(path.dirname(this.file), { recursive: true });
    const temporary = `${this.file}.${process.pid}.tmp`;
    await writeFile(temporary, serialize({ fingerprint: this.fingerprint, entries: this.used }));
    await rename(temporary, this.file);
  }
}
