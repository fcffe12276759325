import { defineConfig } from 'vitest/config';
import { SlowestFirst } from './tests/support/sequencer.ts';

/**
 * Tests that run in-process and need no built site, no child process, browser or database: they
 * start without waiting for a build. Everything else (a test file that is not listed here
 * included) is an integration test and runs after the one build of the real content that
 * global-build.ts makes.
 */
const UNIT = [
  'tests/bench/work.test.ts',
  'tests/build/bodyContents.test.ts',
  'tests/build/cache.test.ts',
  'tests/build/cacheSweep.test.ts',
  'tests/build/fingerprint.test.ts',
  'tests/build/memo.test.ts',
  'tests/build/session.test.ts',
  'tests/build/workers.test.ts',
  'tests/cards/**/*.test.ts',
  'tests/check/**/*.test.ts',
  'tests/dev/rehearsal.test.ts',
  'tests/dev/roots.test.ts',
  'tests/dev/watch.test.ts',
  'tests/dev/session.test.ts',
  'tests/diagnostics/**/*.test.ts',
  'tests/docs/**/*.test.ts',
  'tests/images/**/*.test.ts',
  'tests/load/**/*.test.ts',
  'tests/markdown/**/*.test.ts',
  'tests/model/**/*.test.ts',
  'tests/search/**/*.test.ts',
  'tests/server/listing.test.ts',
  'tests/templates/**/*.test.{ts,tsx}',
  'tests/typecheck/**/*.test.ts',
  'tests/write/**/*.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Two test files at once even on two cores (Vitest's default is one fewer than the cores):
    // the browser and server files spend much of their time waiting on Chromium or a child process.
    maxWorkers: 2,
    sequence: { sequencer: SlowestFirst },
    projects: [
      { extends: true, test: { name: 'unit', include: UNIT } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/**/*.test.{ts,tsx}'],
          exclude: [...UNIT, '**/node_modules/**'],
          globalSetup: ['tests/support/global-build.ts'],
        },
      },
    ],
  },
});
