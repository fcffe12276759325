import { readdirSync, statSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

/** Every file and folder under a root, as paths relative to it with "/". */
export interface Listing {
  files: string[];
  folders: string[];
}

/** A listing taken ahead of its use, with what shows whether each folder it read changed since. */
export interface ListingAhead extends Listing {
  /** The modification time of each folder listed, by its path ('' for the root), read before it was listed. */
  stamps: Map<string, number>;
  /** The root's device and inode: the folder listed, whatever it is named by then. */
  identity: string;
}

/**
 * A folder changed within this many milliseconds before a listing began may change again with
 * the same modification time: the kernel stamps a folder from a clock that advances by a tick
 * (1 to 10 ms), not by each nanosecond.
 */
const SETTLED_MS = 50;

/**
 * The same on a file system that keeps times to the second (FAT, HFS+, some network shares), told
 * by a time that falls on a whole second: a change a second later may keep the same time.
 */
const SETTLED_COARSE_MS = 2_050;

/** Whether a folder stamped at `mtimeMs` changed long enough before `began` for a later change to stamp it anew. */
function settled(mtimeMs: number, began: number): boolean {
  return mtimeMs <= began - (mtimeMs % 1000 === 0 ? SETTLED_COARSE_MS : SETTLED_MS);
}

/**
 * Every file and folder under `root`, but the top-level entries named in `skip` and what they
 * hold. One directory read per folder (an output has dozens of folders for tens of thousands of
 * files), and no path resolved per file.
 */
export function listFolder(root: string, skip: ReadonlySet<string>): Listing {
  const files: string[] = [];
  const folders: string[] = [];
  const queue = [''];
  for (let folder = queue.pop(); folder !== undefined; folder = queue.pop()) {
    for (const entry of readdirSync(folder ? path.join(root, folder) : root, { withFileTypes: true })) {
      if (!folder && skip.has(entry.name)) continue;
      const name = folder ? `${folder}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        folders.push(name);
        queue.push(name);
      } else files.push(name);
    }
  }
  return { files, folders };
}

/**
 * `listFolder` of the whole of `root`, started ahead of its use: its folders are read on the
 * thread pool, in parallel, while the build's thread does other work. Undefined when `root`
 * cannot be listed (there is none) or a folder in it changed too lately for `stillListed` to tell
 * a later change from it.
 */
export async function listFolderAhead(root: string): Promise<ListingAhead | undefined> {
  const began = Date.now();
  const listing: ListingAhead = { files: [], folders: [], stamps: new Map(), identity: '' };
  const read = async (folder: string): Promise<void> => {
    const dir = folder ? path.join(root, folder) : root;
    const { mtimeMs, dev, ino } = await stat(dir);
    if (!settled(mtimeMs, began)) throw new Error(`${dir} changed too lately to be listed ahead`);
    if (!folder) listing.identity = `${dev} ${ino}`;
    listing.stamps.set(folder, mtimeMs);
    const inner: Promise<void>[] = [];
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const name = folder ? `${folder}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        listing.folders.push(name);
        inner.push(read(name));
      } else listing.files.push(name);
    }
    await Promise.all(inner);
  };
  try {
    await read('');
    return listing;
  } catch {
    return undefined;
  }
}

/**
 * The listing taken ahead of `root` (the same folder by its device and inode, maybe renamed since:
 * a rename changes no folder's modification time), but the top-level entries named in `skip`,
 * when no folder it read has changed since: an entry added, removed or renamed stamps its folder
 * anew. Undefined otherwise, when it must be listed again.
 */
export function stillListed(
  ahead: ListingAhead | undefined,
  root: string,
  skip: ReadonlySet<string>,
): Listing | undefined {
  if (!ahead) return undefined;
  const taken = statSync(root, { throwIfNoEntry: false });
  if (!taken || `${taken.dev} ${taken.ino}` !== ahead.identity) return undefined;
  for (const [folder, stamp] of ahead.stamps) {
    const now = statSync(folder ? path.join(root, folder) : root, { throwIfNoEntry: false });
    if (now?.mtimeMs !== stamp) return undefined;
  }
  const kept = (name: string) => {
    const slash = name.indexOf('/');
    return !skip.has(slash === -1 ? name : name.slice(0, slash));
  };
  return { files: ahead.files.filter(kept), folders: ahead.folders.filter(kept) };
}
