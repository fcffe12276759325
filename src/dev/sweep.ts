import { type Dirent, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** The least time between two sweeps; a sweep that takes long waits longer (see `SWEEP_SHARE`). */
const SWEEP_MS = 2_000;
/** At most this share of the time is spent sweeping, on a site with many files. */
const SWEEP_SHARE = 1 / 40;

/** What the sweep reports to. */
export interface SweepEvents {
  /** A file whose change no watcher reported: build it as if it had. */
  missed(file: string): void;
  log(line: string): void;
  /** Whether nothing is being built: a sweep waits for that, and never slows a build. */
  idle?(): boolean;
}

/** A file as a sweep finds it: what tells one version from another, and when it last changed. */
interface Seen {
  signature: string;
  /** Its change time (ms since the epoch), or undefined for a file that cannot be read. */
  changed: number | undefined;
}

/**
 * `site dev`'s second line of defence: every couple of seconds while no build runs, the size, inode
 * and times of every file under the watched folders, compared with the sweep before. A file that
 * differs, and that the watcher has not reported since it changed, is reported. The watcher is the
 * first line, and hears a save at once; but a file watcher is a set of watches on folders, each
 * bound to a folder as it was when watched, and a branch switch that deletes and writes folders
 * while watches are being set up can leave one bound to a folder that is gone: saves in its place
 * went unheard until `site dev` was started again. The sweep finds them, says so once, and they
 * are built.
 */
export class MissedChangeSweep {
  /** The files as the last sweep found them; undefined until one could read every folder. */
  private known: Map<string, Seen> | undefined;
  /** When the watcher last reported each file since the last sweep. */
  private heard = new Map<string, number>();
  /** When it last reported each folder as a whole (a path ending in a separator) since the last sweep. */
  private heardFolders = new Map<string, number>();
  /**
   * Files the last sweep found changed and not reported since: missed, unless reported by the next
   * (the watcher may report a moment late on a loaded machine), with when they changed.
   */
  private suspects = new Map<string, number | undefined>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private told = false;

  /**
   * @param ignored files the watcher leaves out (editors' swap files), which the sweep leaves out too
   * @param leastMs the least time between two sweeps
   */
  constructor(
    private readonly roots: readonly string[],
    private readonly events: SweepEvents,
    private readonly ignored: (file: string) => boolean = () => false,
    private readonly leastMs = SWEEP_MS,
  ) {}

  /** Notes every file as it is now, then sweeps again and again. */
  start(): void {
    this.known = this.look();
    this.schedule(0);
  }

  /** The watcher reported `file` (or, ending in a separator, everything under a folder) now. */
  reported(file: string): void {
    (file.endsWith(path.sep) ? this.heardFolders : this.heard).set(file, Date.now());
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }

  /**
   * One sweep; returns the files it reported. A change counts as reported when the watcher named
   * the file, or a folder holding it, at or after the time it changed: a report of a folder read
   * whole by a build that began before a later save does not cover that save. A file that cannot
   * be listed this time (a folder removed while it was read) leaves the sweep to the next one.
   */
  sweep(): string[] {
    const now = this.look();
    if (!now) return [];
    // No reading to compare with yet (the first could not be made): this one is the first.
    if (!this.known) {
      this.known = now;
      return [];
    }
    const changed = new Map<string, number | undefined>();
    for (const [file, seen] of now)
      if (this.known.get(file)?.signature !== seen.signature) changed.set(file, seen.changed);
    for (const file of this.known.keys()) if (!now.has(file)) changed.set(file, undefined);
    this.known = now;
    const missed = [...this.suspects].filter(([file, at]) => !this.covered(file, at)).map(([file]) => file);
    this.suspects = new Map([...changed].filter(([file, at]) => !missed.includes(file) && !this.covered(file, at)));
    this.heard.clear();
    this.heardFolders.clear();
    if (missed.length > 0 && !this.closed) {
      if (!this.told)
        this.events.log(
          `a save the file watcher did not report was found (${this.shown(missed[0] ?? '')}): built now, as is any other the sweep finds every few seconds`,
        );
      this.told = true;
      for (const file of missed) this.events.missed(file);
    }
    return missed;
  }

  /**
   * Whether the watcher reported `file`, or a folder holding it, at or after `at` (its change
   * time; a millisecond's grace for the clock's rounding), or at all since the last sweep for a
   * file gone, which has no time.
   */
  private covered(file: string, at: number | undefined): boolean {
    const since = (reported: number | undefined) => reported !== undefined && (at === undefined || reported + 1 >= at);
    if (since(this.heard.get(file))) return true;
    for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
      if (since(this.heardFolders.get(dir + path.sep))) return true;
      if (path.dirname(dir) === dir) return false;
    }
  }

  /** A file as the log shows it: from its root's folder on ("content/blog/…"). */
  private shown(file: string): string {
    const root = this.roots.find((dir) => file.startsWith(dir + path.sep));
    return root ? path.relative(path.dirname(root), file) : file;
  }

  private schedule(lastMs: number): void {
    if (this.closed) return;
    this.timer = setTimeout(
      () => {
        if (this.events.idle?.() === false) return this.schedule(lastMs);
        const started = performance.now();
        try {
          this.sweep();
        } catch {
          // A sweep is a safeguard: one that fails leaves the watcher to itself until the next.
        }
        this.schedule(performance.now() - started);
      },
      Math.max(this.leastMs, lastMs / SWEEP_SHARE),
    );
    this.timer.unref();
  }

  /**
   * Every file under the roots, by path, with its size, inode and times; undefined when a folder
   * could not be read whole (one removed while it was read). A root that is missing has no files.
   * Read synchronously: a few tens of milliseconds on a site of thousands of files, a third of the
   * time the same reading takes through the thread pool.
   */
  private look(): Map<string, Seen> | undefined {
    const files = new Map<string, Seen>();
    for (const root of this.roots) {
      let entries: Dirent[];
      try {
        entries = readdirSync(root, { withFileTypes: true, recursive: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !statSync(root, { throwIfNoEntry: false })) continue;
        return undefined;
      }
      for (const entry of entries) {
        if (entry.isDirectory()) continue;
        const file = path.join(entry.parentPath, entry.name);
        if (this.ignored(file)) continue;
        let seen: Seen = { signature: 'unreadable', changed: undefined };
        try {
          const stats = statSync(file, { throwIfNoEntry: false });
          if (stats)
            seen = {
              signature: `${stats.ino} ${stats.size} ${stats.mtimeMs} ${stats.ctimeMs}`,
              changed: stats.ctimeMs,
            };
        } catch {
          // A link in a loop, a file it may not read: unreadable, as a missing one.
        }
        files.set(file, seen);
      }
    }
    return files;
  }
}
