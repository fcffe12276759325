import { mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OutputFolders } from '../../../src/build/outputs';
import type { ManifestEntry, OutputManifest } from '../../../src/write/manifest';
import { readFirstRecord } from '../../../src/write/recordLog';

describe("the spare's manifest, as a swap keeps it", () => {
  let root: string;
  let cacheDir: string;
  let outDir: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'site-outputs-'));
    cacheDir = path.join(root, '.cache', 'site');
    outDir = path.join(root, 'dist');
    await mkdir(cacheDir, { recursive: true });
    await mkdir(outDir);
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  const entry = (page: number, version = 0): ManifestEntry => ({
    hash: `hash${page}-${version}`,
    bytes: 1000 + page,
    inputs: { code: 'code', 'edition en': `source${page}-${version}` },
  });
  /** A manifest of `pages` pages describing `dist/` as it is now; `carried`'s entries kept as they are. */
  const manifest = async (
    pages: number,
    carried?: OutputManifest,
    changed: number[] = [],
  ): Promise<OutputManifest> => ({
    outDir,
    inode: (await stat(outDir)).ino,
    born: (await stat(outDir)).birthtimeMs,
    copies: { media: 'signature' },
    files: new Map(
      Array.from({ length: pages }, (_, page) => {
        const file = `blog/post${page}.html`;
        const kept = carried?.files.get(file);
        return [file, kept && !changed.includes(page) ? kept : entry(page, changed.includes(page) ? 1 : 0)];
      }),
    ),
  });
  /** A swap: a new folder takes the output's place. */
  const swap = async () => {
    await rm(outDir, { recursive: true });
    await mkdir(outDir);
  };
  /** What a process started now finds: the previous output, then the spare a swap would start from. */
  const nextProcess = async () => {
    const folders = new OutputFolders(cacheDir, true, root);
    return { previous: await folders.previousOutput(outDir), spare: await folders.spareOutput(outDir) };
  };

  it('names the bytes of the output log that held it when the build appends to that log, and reads it back from there', async () => {
    const first = new OutputFolders(cacheDir, true, root);
    const one = await manifest(200);
    await first.record(outDir, one);
    const second = new OutputFolders(cacheDir, true, root);
    const previous = await second.previousOutput(outDir);
    expect(previous).toEqual(one);
    await swap();
    const two = await manifest(201, previous, [3, 7]);
    await second.record(outDir, two, previous);
    // The spare's log is one record naming the output log's first bytes, not a copy of its manifest.
    const spareLog = second.manifestFile(outDir, 'spare') as string;
    expect((await readFirstRecord(spareLog)) as unknown[]).toEqual(['prefix', expect.anything()]);
    expect((await readFile(spareLog)).length).toBeLessThan(200);
    const found = await nextProcess();
    expect(found.previous).toEqual(two);
    expect(found.spare).toEqual(one);
  });

  it('keeps a copy of the output log when the build writes that log anew, and reads the spare from it', async () => {
    const first = new OutputFolders(cacheDir, true, root);
    const one = await manifest(20);
    await first.record(outDir, one);
    const second = new OutputFolders(cacheDir, true, root);
    const previous = await second.previousOutput(outDir);
    await swap();
    // Every page made again: the log is written anew.
    const two = await manifest(
      20,
      previous,
      Array.from({ length: 20 }, (_, page) => page),
    );
    await second.record(outDir, two, previous);
    const spareLog = second.manifestFile(outDir, 'spare') as string;
    expect(((await readFirstRecord(spareLog)) as unknown[])[0]).not.toBe('prefix');
    const found = await nextProcess();
    expect(found.previous).toEqual(two);
    expect(found.spare).toEqual(one);
  });

  it('has no spare once the output log no longer begins with the bytes the spare log names', async () => {
    const first = new OutputFolders(cacheDir, true, root);
    await first.record(outDir, await manifest(200));
    const second = new OutputFolders(cacheDir, true, root);
    const previous = await second.previousOutput(outDir);
    await swap();
    const two = await manifest(200, previous, [1]);
    await second.record(outDir, two, previous);
    // Then a build that does not swap (site dev's, in place) writes the output log anew.
    const third = new OutputFolders(cacheDir, true, root);
    const now = await third.previousOutput(outDir);
    await third.record(
      outDir,
      await manifest(
        200,
        now,
        Array.from({ length: 200 }, (_, page) => page),
      ),
    );
    const found = await nextProcess();
    expect(found.previous?.files.size).toBe(200);
    expect(found.spare).toBeUndefined();
  });
});
