import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileInWorkers } from '../../src/build/markdown';
import { OperationalError } from '../../src/diagnostics/failure';

describe('markdown worker threads', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'site-workers-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  /** Compiles two texts on a worker running `source` instead of the compiler. */
  const compileWith = async (source: string) => {
    const entry = path.join(dir, `${Math.random().toString(36).slice(2)}.mjs`);
    await writeFile(entry, source);
    const jobs = [
      { markdown: '# A', lang: 'en' as const },
      { markdown: '# B', lang: 'en' as const },
    ];
    return compileInWorkers([0, 1], jobs, { routes: [], imageCdn: undefined, mediaDir: dir, images: new Map() }, 1, () => {}, pathToFileURL(entry));
  };

  it('turns a worker that stops into one operational failure, not a crash', async () => {
    const failure = compileWith("import { parentPort } from 'node:worker_threads';\nparentPort.on('message', () => process.exit(3));\n");
    await expect(failure).rejects.toBeInstanceOf(OperationalError);
    await expect(failure).rejects.toThrow('a markdown worker thread stopped (exit code 3)');
  });

  it('turns a worker that throws into one operational failure naming the error', async () => {
    const failure = compileWith("import { parentPort } from 'node:worker_threads';\nparentPort.on('message', () => { throw new Error('out of memory'); });\n");
    await expect(failure).rejects.toThrow('a markdown worker thread failed: out of memory');
  });
});
