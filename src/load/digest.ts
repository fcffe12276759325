import { createHash } from 'node:crypto';

/** A short content hash of strings or bytes: cache keys, input records and the output manifest. */
export function digest(...parts: readonly (string | Uint8Array)[]): string {
  return digestAll(parts);
}

/**
 * `digest` of parts as many as a site has pages, or more: given as one list, not spread into
 * arguments, which overflows the stack past some hundred thousand of them.
 */
export function digestAll(parts: Iterable<string | Uint8Array>): string {
  const hash = createHash('sha1');
  for (const part of parts) hash.update(part).update('\0');
  return hash.digest('base64url');
}
