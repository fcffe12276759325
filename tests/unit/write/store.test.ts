import { mkdir, mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { digest } from '../../../src/load/digest';
import type { ManifestEntry, OutputManifest } from '../../../src/write/manifest';
import { OutputStore } from '../../../src/write/store';

/**
 * The build cache's store of output files (see src/write/store.ts and
 * tests/integration/build/portableCache.test.ts).
 */
describe('the store of output files', () => {
  let work: string;
  let outDir: string;
  let store: OutputStore;

  beforeEach(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'site-store-'));
    outDir = path.join(work, 'dist');
    store = new OutputStore(path.join(work, 'outputs'));
    await mkdir(outDir);
  });

  afterEach(async () => {
    await rm(work, { recursive: true, force: true });
  });

  /** Writes pages with these texts into the output folder; gives their manifest. */
  async function output(pages: Record<string, string>, gzipped = false): Promise<OutputManifest> {
    const files = new Map<string, ManifestEntry>();
    for (const [file, text] of Object.entries(pages)) {
      await writeFile(path.join(outDir, file), text);
      if (gzipped) await writeFile(path.join(outDir, `${file}.gz`), `gz of ${text}`);
      files.set(file, { hash: digest(Buffer.from(text)), bytes: text.length });
    }
    return { outDir, inode: 0, files, copies: {} };
  }

  it('holds what it kept, compressed copies beside it, and says so only while every file has its content', async () => {
    const manifest = await output({ 'a.html': 'page a', 'b.html': 'page b' }, true);
    store.keep(outDir, manifest, new Set(manifest.files.keys()));
    expect(store.holds(manifest)).toBe(true);
    expect((await readdir(store.dir)).length).toBe(4);
    await writeFile(store.where('a.html', manifest.files.get('a.html')?.hash as string), 'changed since');
    expect(store.holds(manifest)).toBe(false);
  });

  it('does not hold an output one of whose files it never kept', async () => {
    const manifest = await output({ 'a.html': 'page a', 'b.html': 'page b' });
    store.keep(outDir, manifest, new Set(['a.html']));
    expect(store.holds(manifest)).toBe(false);
  });

  it('lets go of contents no output holds any more, once they outnumber the live ones, and keeps what another folder still links', async () => {
    const pages = (version: number) =>
      Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`p${i}.html`, `page ${i}, version ${version}`]));
    const stored = (version: number) =>
      Object.keys(pages(version)).map((file) =>
        path.basename(store.where(file, digest(Buffer.from(pages(version)[file] as string)))),
      );
    for (let version = 1; version <= 5; version++) {
      if (version === 5) {
        // The output of version 4 kept as the spare, as a swap keeps it: its files are linked from there too.
        await rename(outDir, path.join(work, '.dist-spare'));
      } else await rm(outDir, { recursive: true });
      await mkdir(outDir);
      const manifest = await output(pages(version));
      store.keep(outDir, manifest, new Set(manifest.files.keys()));
      // Four versions of 40 files: not yet more than three names for each live file and 64 more.
      if (version === 4) expect((await readdir(store.dir)).length).toBe(160);
    }
    // Past that: the live output's files stay, and the spare's; versions 1 to 3, linked nowhere else, went.
    expect(new Set(await readdir(store.dir))).toEqual(new Set([...stored(4), ...stored(5)]));
  });

  it('lists itself again when the count of its names is lost, and lets go of what no output holds', async () => {
    const pages = (version: number) =>
      Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`p${i}.html`, `page ${i}, version ${version}`]));
    for (let version = 1; version <= 4; version++) {
      await rm(outDir, { recursive: true });
      await mkdir(outDir);
      const manifest = await output(pages(version));
      store.keep(outDir, manifest, new Set(manifest.files.keys()));
    }
    expect((await readdir(store.dir)).length).toBe(160);
    // 100 names linked behind the store's back (another process): uncounted, 260 in all.
    for (let i = 0; i < 100; i++) await writeFile(path.join(store.dir, `stray${i}`), 'x');
    await rm(`${store.dir}.names`);
    await rm(outDir, { recursive: true });
    await mkdir(outDir);
    const manifest = await output({ 'p0.html': 'page 0, version 5' });
    store.keep(outDir, manifest, new Set(manifest.files.keys()));
    expect(await readdir(store.dir)).toEqual([
      path.basename(store.where('p0.html', digest(Buffer.from('page 0, version 5')))),
    ]);
  });
});
