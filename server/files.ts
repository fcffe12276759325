import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { pageFile } from '../src/shared/route';

/** Every file under dist/ by its exact, case-sensitive relative path ("blog/tech/Site.html"). */
export async function listDist(distDir: string): Promise<Set<string>> {
  const entries = await readdir(distDir, { withFileTypes: true, recursive: true });
  return new Set(entries.filter((e) => e.isFile()).map((e) => path.relative(distDir, path.join(e.parentPath, e.name)).split(path.sep).join('/')));
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
