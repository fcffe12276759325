import { describe, expect, it } from 'vitest';
import { staleSequence } from '../../support/stale';

/**
 * Whatever the cache or a running `site dev` holds, what they make equals a build from nothing of
 * the same files (see tests/support/stale.ts). A failure names its seed and step; run it again
 * with `STALE_SEED=<seed> STALE_STEPS=<step> npx vitest run tests/integration/build/stale.test.ts`.
 * `npm run fuzz -- --only stale` runs a long sequence.
 */
const seed = Number(process.env.STALE_SEED ?? Math.floor(Math.random() * 2 ** 31));
const steps = Number(process.env.STALE_STEPS ?? 20);

describe('stale output', () => {
  it(
    `site build with its cache and a running site dev match builds from nothing, step after step (seed ${seed}, ${steps} seeded steps after a branch switch and five saves)`,
    async () => {
      // The first six: content/ deleted and written again under site dev, then the saves that a
      // session which lost its watch ignored (a UI string, a category text, a photo, a body, a title).
      const first = ['replace', 'string', 'category', 'photo', 'body', 'title'] as const;
      const report = await staleSequence({
        seed,
        steps: first.length + steps,
        first,
        log: (line) => console.log(line),
      });
      expect(report.steps).toBe(first.length + steps);
    },
    // About 6 s a step alone, 20 on a loaded machine.
    Math.max(10 * 60_000, (steps + 6) * 30_000),
  );
});
