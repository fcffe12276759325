/**
 * A build cache's stand-in for one kind of work, as a fresh process finds it: values by file and
 * key (a content hash, a stat signature, a text), noting each file made anew in `madeNow`.
 */
export function keptByFile<V>(): {
  get: (file: string, key: string) => V | undefined;
  set: (file: string, key: string, value: V) => void;
  keep: (file: string) => void;
  madeNow: string[];
} {
  const kept = new Map<string, V>();
  const madeNow: string[] = [];
  return {
    madeNow,
    get: (file, key) => kept.get(`${file}\n${key}`),
    set: (file, key, value) => {
      madeNow.push(file);
      kept.set(`${file}\n${key}`, value);
    },
    keep: () => {},
  };
}
