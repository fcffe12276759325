import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { listFiles } from '../load/files';

/** The tool's own folder, where its source, templates and lockfile live. */
export const TOOL_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Bumped when the layout of cached entries changes, so old caches are never misread. */
const CACHE_FORMAT = 1;

/**
 * A hash of the pipeline code that produces a kind of cached work: every file under the given
 * folders (or the given files) of the tool, plus the lockfile, since a dependency upgrade
 * (remark, React) changes output as surely as an edit of our own code.
 */
export async function codeFingerprint(parts: readonly string[]): Promise<string> {
  if (!codeFingerprint.remember) return fingerprintOf(parts);
  const key = parts.join('\n');
  let known = remembered.get(key);
  if (!known) {
    known = fingerprintOf(parts);
    remembered.set(key, known);
  }
  return known;
}

/**
 * A build thread of `site dev` is replaced whenever the tool's code changes, so within one thread
 * the fingerprints are worked out once, and again only after a stylesheet changes
 * (`forgetCodeFingerprints`): stylesheets are read at every build, by the same thread.
 */
codeFingerprint.remember = false;
const remembered = new Map<string, Promise<string>>();

export function forgetCodeFingerprints(): void {
  remembered.clear();
}

async function fingerprintOf(parts: readonly string[]): Promise<string> {
  const hash = createHash('sha256').update(`format ${CACHE_FORMAT}\n`);
  const files: string[] = [];
  for (const part of [...parts, 'package-lock.json']) {
    const absolute = path.join(TOOL_ROOT, part);
    const inside = await listFiles(absolute);
    files.push(...(inside.length ? inside : [absolute]));
  }
  for (const file of files.sort()) {
    hash.update(`${path.relative(TOOL_ROOT, file)}\n`);
    hash.update(await readFile(file).catch(() => Buffer.from('(missing)')));
  }
  return hash.digest('hex');
}

/** A short content hash of a string or bytes, for cache keys and the output manifest. */
export function digest(...parts: readonly (string | Uint8Array)[]): string {
  const hash = createHash('sha1');
  for (const part of parts) hash.update(part).update('\0');
  return hash.digest('base64url');
}
