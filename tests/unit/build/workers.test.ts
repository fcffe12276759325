import { mkdtemp, readdir, rm, stat, truncate } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BodyContents, type ContentPlace } from '../../../src/build/bodyContents';
import type { CompiledBody, CompileWorkerData } from '../../../src/build/compileWorker';
import { compileInWorkers, type WorkerScript } from '../../../src/build/markdown';
import { LoadedModules } from '../../../src/build/modules';
import { compilerFile, compileWorkerCode } from '../../../src/build/workerCode';
import { OperationalError } from '../../../src/diagnostics/failure';

describe('markdown worker threads', () => {
  const jobs = [
    { markdown: '# A', lang: 'en' as const },
    { markdown: 'Some `code`:\n\n```bash\necho hi\n```\n', lang: 'pt' as const },
  ];

  /** Compiles the two texts on a worker running `script` (code, or the file of the compiler's bundle). */
  const compileWith = (
    script: WorkerScript | string,
    record: (i: number, compiled: CompiledBody) => void = () => {},
    more: Partial<CompileWorkerData> = {},
  ) =>
    compileInWorkers(
      {
        misses: [0, 1],
        jobs,
        data: { routes: [], imageCdn: undefined, mediaDir: process.cwd(), images: new Map(), ...more },
        threads: 1,
        script: typeof script === 'string' ? { code: script } : script,
      },
      record,
    );

  it('compiles on the bundled worker script what the compiler makes in this thread', async () => {
    const bodies: string[] = [];
    await compileWith(await compileWorkerCode(), (i, compiled) => {
      bodies[i] = compiled.content?.html ?? '';
    });
    expect(bodies[0]).toContain('<h1 id="a">A</h1>');
    expect(bodies[1]).toContain('<span class="hljs-built_in">echo</span>');
  });

  it('stores each content in the cache folder itself when given one, and sends back only the facts', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'site-bodies-'));
    try {
      const answers: CompiledBody[] = [];
      await compileWith(await compileWorkerCode(), (i, compiled) => (answers[i] = compiled), { contentsDir: dir });
      expect(answers.map((answer) => answer.content)).toEqual([undefined, undefined]);
      // Each told where its content is, in the pack of the worker that compiled it: read back from there.
      const contents = await BodyContents.open(dir, true);
      for (const answer of answers) contents.adopt(answer.facts.hash, answer.place as ContentPlace);
      const first = answers[0] as CompiledBody;
      expect(contents.get(first.facts.hash)).toEqual({ html: '<h1 id="a">A</h1>', text: 'A' });
      expect((await readdir(dir)).every((name) => name.endsWith('.pack'))).toBe(true);
      // A content compiled again (its pack cut short by a crash) is appended again, and read from its new place.
      const place = first.place as ContentPlace;
      await truncate(path.join(dir, place.pack), place.at);
      expect(() => contents.get(first.facts.hash)).toThrow(/cannot be read/);
      const again: CompiledBody[] = [];
      await compileWith(await compileWorkerCode(), (i, compiled) => (again[i] = compiled), { contentsDir: dir });
      contents.adopt(first.facts.hash, again[0]?.place as ContentPlace);
      expect(contents.get(first.facts.hash)).toEqual({ html: '<h1 id="a">A</h1>', text: 'A' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('runs the compiler bundle kept in the build cache, which this thread loads its compiler from too', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'site-compiler-'));
    try {
      const file = await compilerFile(dir, 'first', true);
      expect(file).toBe(path.join(dir, 'compiler-first.cjs'));
      const bodies: string[] = [];
      await compileWith({ file: file as string }, (i, compiled) => {
        bodies[i] = compiled.content?.html ?? '';
      });
      expect(bodies[1]).toContain('<span class="hljs-built_in">echo</span>');
      const { compileTracked } = createRequire(import.meta.url)(
        file as string,
      ) as typeof import('../../../src/build/compileWorker');
      const site = { routes: new Map(), imageCdn: undefined, mediaDir: process.cwd(), images: new Map() };
      expect(jobs.map((job) => compileTracked(job.markdown, job.lang, site).body.html)).toEqual(bodies);
      // Found again by its name, not made again; none made where nothing may be written.
      const made = (await stat(file as string)).mtimeMs;
      expect(await compilerFile(dir, 'first', true)).toBe(file);
      expect((await stat(file as string)).mtimeMs).toBe(made);
      expect(await compilerFile(dir, 'second', false)).toBeUndefined();
      // Older code's bundles are removed but the last three.
      for (const key of ['second', 'third', 'fourth', 'fifth']) await compilerFile(dir, key, true);
      expect((await readdir(dir)).length).toBe(4);
      expect(await readdir(dir)).toContain('compiler-fifth.cjs');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('starts workers on a bundle made in memory when the session bundle file was removed meanwhile', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'site-modules-'));
    try {
      const modules = new LoadedModules(dir, true);
      const first = await modules.workerCode();
      expect('file' in first && first.file.startsWith(path.join(dir, 'compiler-'))).toBe(true);
      // Removed by the bundles of newer code (compilerFile keeps the last three).
      await rm((first as { file: string }).file);
      const again = await modules.workerCode();
      expect('code' in again).toBe(true);
      const bodies: string[] = [];
      await compileWith(again, (i, compiled) => {
        bodies[i] = compiled.content?.html ?? '';
      });
      expect(bodies[0]).toContain('<h1 id="a">A</h1>');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('turns a worker that stops into one operational failure, not a crash', async () => {
    const failure = compileWith(
      "const { parentPort } = require('node:worker_threads');\nparentPort.on('message', () => process.exit(3));\n",
    );
    await expect(failure).rejects.toBeInstanceOf(OperationalError);
    await expect(failure).rejects.toThrow('a markdown worker thread stopped (exit code 3)');
  });

  it('turns a worker that throws into one operational failure naming the error', async () => {
    const failure = compileWith(
      "const { parentPort } = require('node:worker_threads');\nparentPort.on('message', () => { throw new Error('out of memory'); });\n",
    );
    await expect(failure).rejects.toThrow('a markdown worker thread failed: out of memory');
  });
});
