import { mkdir, rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * A folder where the folders a measured run replaces are kept until the bench has taken every
 * measure: renamed there (on the same file system as the bench's folders, both under the temporary
 * folder), not removed. Some file systems keep an inode freed in the last minute from being given
 * to a new file: ext4 without a journal, as on the bench machine, then scans past every such inode
 * for each file it makes. There, making 30,000 files took 0.77 s with nothing removed lately and
 * 12.2 s right after 60,000 were removed (docs/performance.md). A run measured right after the
 * last run's output was removed paid for that removal, the more the more files it writes (a cold
 * build of ours writes some 31,000, Eleventy's some 8,000), and each system's runs grew slower one
 * after another. Folders left here by a bench that was stopped are removed by the next one's end.
 */
export class AsideFolder {
  private next = 0;

  constructor(readonly root: string) {}

  /** Moves `dir` out of the way, into this folder; nothing when it does not exist. */
  async put(dir: string): Promise<void> {
    await mkdir(this.root, { recursive: true });
    const to = path.join(this.root, `${process.pid}-${this.next++}-${path.basename(dir)}`);
    try {
      await rename(dir, to);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return;
      // Another file system than this folder's: removed now, as before.
      if (code === 'EXDEV') await rm(dir, { recursive: true, force: true });
      else throw error;
    }
  }

  /** Removes everything put here, once nothing more is measured. */
  async removeAll(): Promise<void> {
    await rm(this.root, { recursive: true, force: true });
  }
}

const BENCH_ASIDE = new AsideFolder(path.join(os.tmpdir(), 'site-bench-aside'));

/** Sets `dir` aside in the bench's folder of such (see `AsideFolder`). */
export const setAside = (dir: string): Promise<void> => BENCH_ASIDE.put(dir);

/** Removes what the bench set aside. */
export const removeSetAside = (): Promise<void> => BENCH_ASIDE.removeAll();
