import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { pageFile } from '../src/shared/route';

/** Every file under dist/ by its exact, case-sensitive relative path ("blog/tech/Site.html"). */
export async function listDist(distDir: string): Promise<Set<string>> {
  return new DistListing(distDir).list();
}

/** A folder of dist/ as last read: its files and subfolders, by their paths under dist/. */
interface Folder {
  ino: number;
  mtimeMs: number;
  /** When it was read (wall clock, as its modification time). */
  readAt: number;
  files: string[];
  folders: string[];
}

/**
 * A folder modified this recently before it was read may have been modified again within the
 * same tick of the file system's clock, after the reading, with no change to its time: it is
 * read again next time.
 */
const RACY_MS = 1000;

/**
 * The listing of dist/, kept between calls: a folder is read again only when it changed (its
 * modification time, or its inode when the folder was replaced), and the others' files are
 * taken as they were. `site dev` writes a save's pages into a folder or two: reading every file
 * of dist/ again would make the first request after each save wait in proportion to the site.
 */
export class DistListing {
  private readonly folders = new Map<string, Folder>();

  constructor(private readonly distDir: string) {}

  async list(): Promise<Set<string>> {
    const files = new Set<string>();
    const visited = new Set<string>();
    const visit = async (relative: string): Promise<void> => {
      visited.add(relative);
      const folder = await this.folder(relative);
      for (const file of folder.files) files.add(file);
      await Promise.all(folder.folders.map(visit));
    };
    await visit('');
    for (const relative of this.folders.keys()) if (!visited.has(relative)) this.folders.delete(relative);
    return files;
  }

  private async folder(relative: string): Promise<Folder> {
    const absolute = path.join(this.distDir, relative);
    const { ino, mtimeMs } = await stat(absolute);
    const known = this.folders.get(relative);
    if (known && known.ino === ino && known.mtimeMs === mtimeMs && mtimeMs < known.readAt - RACY_MS) return known;
    const readAt = Date.now();
    const entries = await readdir(absolute, { withFileTypes: true });
    const under = (name: string) => (relative ? `${relative}/${name}` : name);
    const folder: Folder = {
      ino,
      mtimeMs,
      readAt,
      files: entries.filter((entry) => entry.isFile()).map((entry) => under(entry.name)),
      folders: entries.filter((entry) => entry.isDirectory()).map((entry) => under(entry.name)),
    };
    this.folders.set(relative, folder);
    return folder;
  }
}

/**
 * The dist/ file for a request path, or undefined. Only files that exist in the listing are
 * ever returned, so no encoding of "..", backslashes or case variants can reach outside dist/ or
 * a file under another name. Page URLs have no extension and map to "<path>.html"; an ".html"
 * URL is not a page URL (every edition has exactly one URL).
 */
export function resolveDistFile(files: ReadonlySet<string>, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (!decoded.startsWith('/') || decoded.includes('\0') || decoded.includes('\\')) return undefined;
  const relative = decoded.slice(1);
  if (relative.split('/').some((segment) => segment === '..' || segment === '.')) return undefined;
  const base = relative.split('/').pop() ?? '';
  if (base.includes('.')) {
    // Compressed copies are sent by negotiation, never under their own names.
    if (relative.endsWith('.html') || relative.endsWith('.br') || relative.endsWith('.gz')) return undefined;
    return files.has(relative) ? relative : undefined;
  }
  if (relative === '' || relative.endsWith('/')) return undefined;
  const page = pageFile(decoded);
  return files.has(page) ? page : undefined;
}
