import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Output } from '../../../src/write/output';

/** A page of its own: markup repeated with a few words that differ, as pages are. */
const page = (i: number) =>
  `<!doctype html><html><body>${`<p class="body">Article ${i}, part of a series about things.</p>`.repeat(40 + (i % 7))}</body></html>`;

describe('an output written with compressed copies', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'site-output-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("writes every page's copies as zlib makes them, on its threads once they are many, and records their sizes", async () => {
    const output = await Output.open(path.join(dir, 'dist'), undefined, { compress: true });
    const count = 80;
    for (let i = 0; i < count; i++) await output.add(`blog/post${i}.html`, page(i));
    await output.settle();
    for (let i = 0; i < count; i++) {
      const file = path.join(output.staging as string, `blog/post${i}.html`);
      const raw = Buffer.from(page(i));
      expect(await readFile(file)).toEqual(raw);
      const br = brotliCompressSync(raw, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
      });
      const gz = gzipSync(raw, { level: 6 });
      expect(await readFile(`${file}.br`), `post${i}.html.br`).toEqual(br);
      expect(await readFile(`${file}.gz`), `post${i}.html.gz`).toEqual(gz);
      expect(output.files.get(`blog/post${i}.html`)?.copies).toEqual({ br: br.length, gz: gz.length });
    }
  });

  it('fails to settle when a file cannot be written, on a compressing thread as on the build’s own', async () => {
    const output = await Output.open(path.join(dir, 'dist'), undefined, { compress: true });
    for (let i = 0; i < 40; i++) await output.add(`blog/post${i}.html`, page(i));
    // A name longer than a file system allows.
    await output.add(`blog/${'x'.repeat(300)}.html`, page(0));
    await expect(output.settle()).rejects.toMatchObject({ code: 'ENAMETOOLONG' });
    await output.abort();
  });
});
