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

/**
 * `site dev`'s second line of defence: every couple of seconds, the size, inode and times of every
 * file under the watched folders, compared with the sweep before. A file that differs, and that the
 * watcher did not report since, is reported now. The watcher is the first line, and hears a save at
 * once; but a file watcher is a set of watches on folders, each bound to a folder as it was when
 * watched, and a branch switch that deletes and writes folders while watches are being set up can
 * leave one bound to a folder that is gone: saves in its place went unheard until `site dev` was
 * started again. The sweep finds them within its interval, says so once, and they are built.
 */
export class MissedChangeSweep {
  private known = new Map<string, string>();
  /** Files the watcher reported since the last sweep (a path ending in a separator: everything under it). */
  private heard: string[] = [];
  /** Files found changed by the last sweep and not reported yet: missed, unless reported before the next. */
  private suspects: string[] = [];
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

  /** The watcher reported `file` (or, ending in a separator, everything under a folder). */
  reported(file: string): void {
    this.heard.push(file);
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }

  /**
   * One sweep. A file found changed that the watcher has not reported is a suspect: the watcher may
   * report it a moment late, on a loaded machine. One still not reported by the next sweep was
   * missed, and is reported now. Resolves with the files reported.
   */
  sweep(): string[] {
    const now = this.look();
    const changed: string[] = [];
    for (const [file, signature] of now) if (this.known.get(file) !== signature) changed.push(file);
    for (const file of this.known.keys()) if (!now.has(file)) changed.push(file);
    this.known = now;
    const heard = this.heard;
    this.heard = [];
    const unheard = (file: string) =>
      !heard.some((told) => told === file || (told.endsWith(path.sep) && file.startsWith(told)));
    const missed = this.suspects.filter(unheard);
    this.suspects = changed.filter(unheard).filter((file) => !missed.includes(file));
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
        this.sweep();
        this.schedule(performance.now() - started);
      },
      Math.max(this.leastMs, lastMs / SWEEP_SHARE),
    );
    this.timer.unref();
  }

  /**
   * Every file under the roots, by path, with its size, inode and times. Read synchronously: a few
   * tens of milliseconds on a site of thousands of files, and a third of the time the same reading
   * takes through the thread pool.
   */
  private look(): Map<string, string> {
    const files = new Map<string, string>();
    for (const root of this.roots) {
      let entries: Dirent[];
      try {
        entries = readdirSync(root, { withFileTypes: true, recursive: true });
      } catch {
        continue;
      }
      for (const entry of entries) {
        if (entry.isDirectory()) continue;
        const file = path.join(entry.parentPath, entry.name);
        if (this.ignored(file)) continue;
        const stats = statSync(file, { throwIfNoEntry: false });
        files.set(file, stats ? `${stats.ino} ${stats.size} ${stats.mtimeMs} ${stats.ctimeMs}` : 'unreadable');
      }
    }
    return files;
  }
}
