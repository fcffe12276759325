import { createHash, type Hash, hash } from 'node:crypto';

/** A short content hash of strings or bytes: cache keys, input records and the output manifest. */
export function digest(...parts: readonly (string | Uint8Array)[]): string {
  return digestAll(parts);
}

/** Strings joined into one call of the hash: a call costs more than hashing a short string. */
const RUN = 512;

/**
 * `digest` of parts as many as a site has pages, or more: given as one list, not spread into
 * arguments, which overflows the stack past some hundred thousand of them. Each part is followed
 * by a NUL. Strings go to the hash a few hundred at a time, joined: a build hashes tens of
 * thousands of short records, where the calls, not the bytes, were most of the cost.
 */
export function digestAll(parts: Iterable<string | Uint8Array>): string {
  const run: string[] = [];
  let hasher: Hash | undefined;
  for (const part of parts) {
    if (typeof part === 'string') {
      run.push(part);
      if (run.length === RUN) hasher = flush(hasher, run);
      continue;
    }
    hasher = flush(hasher, run).update(part).update('\0');
  }
  // A short record of strings alone (most of them): one call.
  if (!hasher) return hash('sha1', run.length > 0 ? `${run.join('\0')}\0` : '', 'base64url');
  return flush(hasher, run).digest('base64url');
}

/**
 * Hashes the strings of `run`, each followed by a NUL, and empties it. (Not a closure: hot code,
 * called for every record.)
 */
function flush(hasher: Hash | undefined, run: string[]): Hash {
  const into = hasher ?? createHash('sha1');
  if (run.length > 0) into.update(`${run.join('\0')}\0`);
  run.length = 0;
  return into;
}
