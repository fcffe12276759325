import { defineConfig } from 'vitest/config';
import { SlowestFirst } from './tests/support/sequencer.ts';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Two test files at once even on two cores (Vitest's default is one fewer than the cores):
    // the browser and server files spend much of their time waiting on Chromium or a child process.
    maxWorkers: 2,
    sequence: { sequencer: SlowestFirst },
    projects: [
      // A test file's folder decides its layer (tests/unit/layers.test.ts holds each file to it).
      // tests/unit: in-process, with no built site, no child process of the CLI, no browser and no
      // database; the layer runs without building anything.
      // Its files share each worker's modules (isolate: false): none keeps state in a module of its
      // own (each makes its sessions, copies and servers), and most import the same heavy ones (the
      // pipeline, satori, sharp, TypeScript), which each file would otherwise load anew.
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.{ts,tsx}'], isolate: false } },
      // tests/integration and tests/browser: after the one build of the real content that
      // global-build.ts makes (inject('distDir')), with the CLI, Chromium and PostgreSQL at hand.
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.{ts,tsx}', 'tests/browser/**/*.test.{ts,tsx}'],
          globalSetup: ['tests/support/global-build.ts'],
        },
      },
    ],
  },
});
