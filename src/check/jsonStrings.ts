/** Every string of a JSON value with its path ("pages.0.link"), depth first, in the order of the value. */
export function* jsonStrings(value: unknown, at: (string | number)[] = []): Generator<[string, (string | number)[]]> {
  if (typeof value === 'string') yield [value, at];
  else if (Array.isArray(value)) for (let i = 0; i < value.length; i++) yield* jsonStrings(value[i], [...at, i]);
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) yield* jsonStrings(v, [...at, k]);
}
