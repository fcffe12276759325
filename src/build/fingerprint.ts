import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { listFiles } from '../load/files';

/** The tool's own folder, where its source, templates and lockfile live. */
export const TOOL_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Bumped when the layout of cached entries changes, so old caches are never misread. */
const CACHE_FORMAT = 2;

/**
 * A hash of the pipeline code that produces a kind of cached work: every file under the given
 * folders (or the given files) of the tool, plus the lockfile, since a dependency upgrade
 * (remark, React) changes output as surely as an edit of our own code. Stylesheets are not code:
 * the assets list them among their inputs.
 */
export async function codeFingerprint(parts: readonly string[]): Promise<string> {
  const hash = createHash('sha256').update(`format ${CACHE_FORMAT}\n`);
  const files: string[] = [];
  for (const part of [...parts, 'package-lock.json']) {
    const absolute = path.join(TOOL_ROOT, part);
    const inside = await listFiles(absolute);
    files.push(...(inside.length ? inside : [absolute]));
  }
  for (const file of files.filter((f) => !f.endsWith('.css')).sort()) {
    hash.update(`${path.relative(TOOL_ROOT, file)}\n`);
    hash.update(await readFile(file).catch(() => Buffer.from('(missing)')));
  }
  return hash.digest('hex');
}

export { digest } from '../load/digest';
