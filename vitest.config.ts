import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    globalSetup: ['tests/support/global-build.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
