import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { build } from '../../src/build/pipeline';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A build of the real content, made once for the whole run. */
    distDir: string;
  }
}

/** Builds the real content once into a temporary folder that every test file can read. */
export default async function setup(project: TestProject) {
  const outRoot = await mkdtemp(path.join(os.tmpdir(), 'site-test-dist-'));
  const distDir = path.join(outRoot, 'dist');
  // SITE_TEST_ROOT builds another site folder instead of the real content (for trying the suite on a variant).
  const root = process.env.SITE_TEST_ROOT ?? path.resolve(import.meta.dirname, '../..');
  const result = await build({ root, outDir: distDir, year: 2026 });
  if (!result.ok) throw new Error(`the real content does not build:\n${JSON.stringify(result.diagnostics, null, 2)}`);
  project.provide('distDir', distDir);
  return async () => {
    await rm(outRoot, { recursive: true, force: true });
  };
}
