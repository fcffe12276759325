/**
 * Where a key worked out once as data has a faster way to the same answer (an object that is the
 * very one of the last build, a comparison of identities rather than of hashes), the shortcut must
 * never decide otherwise than the data. With `SITE_CHECK_SHORTCUTS=1` (the stale-output test sets
 * it), each shortcut taken is checked against the data it stands for, and a disagreement stops the
 * build: a shortcut that decides on its own is a stale page waiting to happen.
 */
export const CHECK_SHORTCUTS = process.env.SITE_CHECK_SHORTCUTS === '1';

/** A shortcut that decided otherwise than the data it stands for (only under `SITE_CHECK_SHORTCUTS=1`). */
export class ShortcutDisagreement extends Error {
  constructor(what: string, shortcut: unknown, data: unknown) {
    super(
      `a shortcut disagrees with the data it stands for: ${what}\n  shortcut: ${JSON.stringify(shortcut)}\n  data:     ${JSON.stringify(data)}`,
    );
    this.name = 'ShortcutDisagreement';
  }
}

/** Under `SITE_CHECK_SHORTCUTS=1`, throws when what a shortcut found is not what the data says. */
export function agrees<T>(what: string, shortcut: T, data: () => T, same: (a: T, b: T) => boolean = Object.is): void {
  if (!CHECK_SHORTCUTS) return;
  const truth = data();
  if (!same(shortcut, truth)) throw new ShortcutDisagreement(what, shortcut, truth);
}
