import { type Stats, statSync } from 'node:fs';

/** How long ago a file must have last changed for its stat signature to be trusted. */
const SETTLED_MS = 2000;

/**
 * A file's size, inode and modification and change times, as one string: any write changes the
 * change time, which cannot be set back. Undefined for a file changed in the last two seconds:
 * a second write within the clock's granularity could leave every one of them as it was, so such
 * a file is read each time until it has settled (the rule git follows for its index).
 */
export function statSignature(absolute: string, now = Date.now()): string | undefined {
  let info: Stats | undefined;
  try {
    info = statSync(absolute, { throwIfNoEntry: false });
  } catch {
    // A link loop, a permission: the read that follows reports it on the file.
    return undefined;
  }
  if (!info?.isFile()) return undefined;
  const settled = now - SETTLED_MS;
  if (info.mtimeMs > settled || info.ctimeMs > settled) return undefined;
  return `${info.size} ${info.ino} ${info.mtimeMs} ${info.ctimeMs}`;
}
