import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { type FSWatcher, watch } from 'chokidar';
import { RootGuard } from './roots';
import { MissedChangeSweep } from './sweep';

/**
 * `site dev`'s watch over its folders (content/, templates/, src/): every change under them is
 * told to `changed`, whatever happens to the folders themselves. Each folder has a watcher of its
 * own; one deleted and written again, or replaced by a renamed copy (see `RootGuard`), gets a new
 * watcher, made from nothing: a watcher told to watch again a folder it knew keeps what it knew of
 * the old one's subfolders, and saves in some of them went unseen. The new watcher's folder is read
 * whole once it is ready, and the guard's readings before and after cover the files written meanwhile.
 * A sweep (`MissedChangeSweep`) finds, within seconds, any save that no watch reported all the same.
 */
export class SiteWatcher {
  private readonly watchers = new Map<string, FSWatcher>();
  private readonly guard: RootGuard;
  /** Finds the saves no watcher reported (see `MissedChangeSweep`). */
  private readonly sweep: MissedChangeSweep;
  private readonly changed: (file: string) => void;
  private closed = false;

  /** @param idle whether nothing is being built (the sweep waits for that) */
  constructor(
    private readonly roots: readonly string[],
    changed: (file: string) => void,
    log: (line: string) => void,
    idle?: () => boolean,
  ) {
    this.sweep = new MissedChangeSweep(roots, { missed: changed, log, ...(idle && { idle }) }, editorFile);
    this.changed = (file) => {
      this.sweep.reported(file);
      changed(file);
    };
    this.guard = new RootGuard(roots, {
      replaced: (root) => void this.rewatch(root),
      rescan: (root) => this.changed(folder(root)),
      log,
    });
  }

  /** Watches every folder; resolves once each watcher is ready and the guard and the sweep look on. */
  async start(): Promise<void> {
    await Promise.all(this.roots.map((root) => this.watchRoot(root)));
    await this.guard.start();
    this.sweep.start();
  }

  /** Whether a folder's reading is still due after a replacement. */
  busy(): boolean {
    return this.guard.busy() || this.pending > 0;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.guard.close();
    this.sweep.close();
    await Promise.all([...this.watchers.values()].map((watcher) => watcher.close()));
  }

  /** Watchers being made again, until ready. */
  private pending = 0;
  /** Each folder's replacement under way: one after another, never two at once for a folder. */
  private readonly chains = new Map<string, Promise<void>>();

  private rewatch(root: string): Promise<void> {
    this.pending++;
    const next = (this.chains.get(root) ?? Promise.resolve())
      .then(async () => {
        await this.watchers.get(root)?.close();
        if (this.closed) return;
        await this.watchRoot(root);
        // The folder as a whole: every file under it read again.
        this.changed(folder(root));
      })
      .finally(() => {
        this.pending--;
      });
    this.chains.set(root, next);
    return next;
  }

  private watchRoot(root: string): Promise<void> {
    const watcher = watch(root, {
      ignoreInitial: true,
      // Editors' swap and backup files are not content.
      ignored: editorFile,
    });
    this.watchers.set(root, watcher);
    watcher.on('all', (event, file) => {
      const absolute = path.resolve(file);
      // The folder itself deleted: the guard watches it again once it is back.
      if (event === 'unlinkDir' && absolute === root) this.guard.lost(root);
      this.changed(event === 'addDir' || event === 'unlinkDir' ? folder(absolute) : absolute);
    });
    // Chokidar drops a file's change when the file was read since its previous change and the new
    // write lands within a few milliseconds of the read (its access-time check): a fix saved right
    // after a failed build read the broken file was never built. It also says nothing of a link to
    // a file that does not exist. The system's own notices are heard too; the session merges them
    // with chokidar's.
    watcher.on('raw', (_event, name, details) => {
      const watched = (details as { watchedPath?: string } | undefined)?.watchedPath;
      if (!watched || !name) return;
      const file = path.resolve(path.basename(watched) === name ? watched : path.join(watched, name));
      if (file === root) this.guard.lost(root);
      if (!editorFile(file)) this.changed(file);
    });
    // Ready, or closed before it was (closing drops the listeners): either way nothing waits for ever.
    return new Promise<void>((resolve) => {
      watcher.once('ready', () => void watchEveryFolder(watcher, root).finally(resolve));
      const close = watcher.close.bind(watcher);
      watcher.close = () => close().finally(resolve);
    });
  }
}

/**
 * Has the watcher watch every folder under `root` it does not watch yet. A folder written while
 * the watcher read the tree (a branch switch writes hundreds of files into new folders) can be
 * made after the watcher read its parent and before it heard of new folders there: no event ever
 * comes from it, and a save in it went unseen (seen once in the stale-output test, after a branch
 * switch). The folder is read again whole after this (see `rewatch`), so its files are not lost.
 */
export async function watchEveryFolder(watcher: FSWatcher, root: string): Promise<void> {
  const watched = new Set(Object.keys(watcher.getWatched()).map((dir) => path.resolve(dir)));
  const missing: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    await Promise.all(
      entries
        .filter((entry) => entry.isDirectory())
        .map((entry) => {
          const sub = path.join(dir, entry.name);
          if (!watched.has(sub)) missing.push(sub);
          return walk(sub);
        }),
    );
  };
  await walk(root);
  if (missing.length > 0) watcher.add(missing);
}

/**
 * A folder as the watcher reports it: its path with a separator at the end, so that whoever is told
 * knows it stands for everything under it (a deleted folder cannot be asked).
 */
export function folder(absolute: string): string {
  return absolute.endsWith(path.sep) ? absolute : absolute + path.sep;
}

/** Editors' swap and backup files, which are not content. */
export function editorFile(file: string): boolean {
  return /(^|[/\\])(\.[^/\\]*\.sw.|[^/\\]*~|\.#[^/\\]*)$/.test(file);
}
