import { mkdir, rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * Where the folders a measured run replaces are kept until the bench has taken every measure:
 * renamed there (on the same file system as the bench's folders, both under the temporary
 * folder), not removed. Some file systems keep an inode freed in the last minute from being given
 * to a new file: ext4 without a journal, as on the bench machine, then scans past every such inode
 * for each file it makes. There, making 30,000 files took 0.77 s with nothing removed lately and
 * 12.2 s right after 60,000 were removed (docs/performance.md). A run measured right after the
 * last run's output was removed paid for that removal, the more the more files it writes (a cold
 * build of ours writes some 31,000, Eleventy's some 8,000), and each system's runs grew slower one
 * after another. Folders left here by a bench that was stopped are removed by the next one's end.
 */
const ASIDE_ROOT = path.join(os.tmpdir(), 'site-bench-aside');

let next = 0;

/** Moves `dir` out of the way, to be removed by `removeSetAside`; nothing when it does not exist. */
export async function setAside(dir: string): Promise<void> {
  await mkdir(ASIDE_ROOT, { recursive: true });
  const to = path.join(ASIDE_ROOT, `${process.pid}-${next++}-${path.basename(dir)}`);
  try {
    await rename(dir, to);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    // Another file system than the temporary folder's: removed now, as before.
    if (code === 'EXDEV') await rm(dir, { recursive: true, force: true });
    else throw error;
  }
}

/** Removes what was set aside, once nothing more is measured. */
export async function removeSetAside(): Promise<void> {
  await rm(ASIDE_ROOT, { recursive: true, force: true });
}
