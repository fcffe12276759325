import { digest } from './fingerprint';

/**
 * What an output is made from, written down as data: each input by name ("code", "source",
 * "edition en", "listing"), with a hash of its value. Two equal records make equal outputs: the
 * cache keeps an output for as long as its record is unchanged, and nothing else decides.
 */
export type Inputs = Readonly<Record<string, string>>;

/** An output file other than a page: its path under the output folder, its inputs, and how to make it. */
export interface PlannedFile {
  file: string;
  inputs: Inputs;
  make: () => string | Uint8Array;
}

/** One hash of a whole record, independent of the order its names were written in. */
export function keyOf(inputs: Inputs): string {
  return digest(
    ...Object.keys(inputs)
      .sort()
      .flatMap((name) => [name, inputs[name] ?? '']),
  );
}

/**
 * Whether two records name the same inputs with the same values. (Hot: called for every output of
 * every build, so it allocates nothing.)
 */
export function sameInputs(a: Inputs | undefined, b: Inputs): boolean {
  if (!a) return false;
  if (a === b) return true;
  let names = 0;
  for (const name in b) {
    if (a[name] !== b[name]) return false;
    names++;
  }
  for (const _ in a) names--;
  return names === 0;
}

/**
 * The names of the inputs that differ between the record an output was last made from and the
 * current one, for `--explain`: "source", "listing", "code (new)", or "(first build)".
 */
export function changedInputs(before: Inputs | undefined, after: Inputs): string[] {
  if (!before) return ['(not in the cache)'];
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return names.flatMap((name) => {
    if (before[name] === after[name]) return [];
    if (!(name in before)) return [`${name} (new)`];
    if (!(name in after)) return [`${name} (gone)`];
    return [name];
  });
}
