import { stat } from 'node:fs/promises';
import path from 'node:path';

/** How often each watched folder is looked at: a branch switch is seen within this, once it is over. */
const LOOK_MS = 250;

/** What the guard does for a folder that was replaced. */
export interface RootEvents {
  /** The folder at `root` is another one than the one watched (or was missing and is back): watch it again. */
  replaced(root: string): void;
  /** Read every file under `root` again: changes made while it was not watched were not reported. */
  rescan(root: string): void;
  log(line: string): void;
}

/**
 * Keeps `site dev`'s watch on its folders (content/, templates/, src/) whatever happens to them. A
 * file watcher follows a folder by the folder itself (its inode), not by its name: when content/
 * is deleted and written again (a `git checkout` of a branch without some folder, `git stash -u`,
 * a sync tool) or renamed, the watcher is left on a folder that no longer exists, and every later
 * save goes unseen. The guard looks at each folder's identity a few times a second; when it
 * changes, the folder is watched again and read whole, once at once and once more after a second,
 * for the files written while the new watch was being set up.
 */
export class RootGuard {
  private readonly known = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;
  private readonly later = new Set<NodeJS.Timeout>();
  private looking = false;

  constructor(
    private readonly roots: readonly string[],
    private readonly events: RootEvents,
    private readonly lookMs = LOOK_MS,
  ) {}

  /** Notes each folder as it is now, then keeps looking. */
  async start(): Promise<void> {
    for (const root of this.roots) this.known.set(root, await identity(root));
    this.timer = setInterval(() => void this.look(), this.lookMs);
    this.timer.unref();
  }

  /**
   * The watcher saw `root` itself go (deleted or renamed): it is watched again at the next look
   * whatever its identity then, where a file system without times of birth could not tell.
   */
  lost(root: string): void {
    if (this.known.has(root)) this.known.set(root, 'lost');
  }

  /** Whether a folder's second reading is still due. */
  busy(): boolean {
    return this.later.size > 0;
  }

  close(): void {
    clearInterval(this.timer);
    for (const timer of this.later) clearTimeout(timer);
    this.later.clear();
  }

  private async look(): Promise<void> {
    if (this.looking) return;
    this.looking = true;
    try {
      for (const root of this.roots) {
        const now = await identity(root);
        const before = this.known.get(root);
        if (now === before) continue;
        this.known.set(root, now);
        const name = `${path.basename(root)}/`;
        if (now === 'missing') {
          this.events.log(`${name} is gone: its pages stay as they were until it is back`);
          this.events.rescan(root);
          continue;
        }
        this.events.log(
          `${name} was replaced (a branch switch, a stash, a sync?): watching it again, every file read anew`,
        );
        this.events.replaced(root);
        this.events.rescan(root);
        const again = setTimeout(() => {
          this.later.delete(again);
          this.events.rescan(root);
        }, 1_000);
        this.later.add(again);
      }
    } finally {
      this.looking = false;
    }
  }
}

/**
 * A folder's identity: its inode and its time of birth, or 'missing' (also when a file stands in
 * its place). The inode alone is not enough: a folder deleted and made again at once often gets
 * the very inode number it had (seen on ext4).
 */
async function identity(root: string): Promise<string> {
  try {
    const stats = await stat(root, { bigint: true });
    return stats.isDirectory() ? `${stats.ino} ${stats.birthtimeNs}` : 'missing';
  } catch {
    return 'missing';
  }
}
