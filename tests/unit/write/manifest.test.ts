import { mkdir, mkdtemp, rename, rm, stat, truncate } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type ManifestEntry,
  type OutputManifest,
  readManifest,
  readManifestLog,
  writeManifest,
} from '../../../src/write/manifest';
import { logPrefix } from '../../../src/write/recordLog';

describe("an output folder's manifest, kept as a log", () => {
  let dir: string;
  let outDir: string;
  let file: string;
  let inode: number;
  let born: number;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'site-manifest-'));
    outDir = path.join(dir, 'dist');
    await mkdir(outDir);
    ({ ino: inode, birthtimeMs: born } = await stat(outDir));
    file = path.join(dir, 'cache', 'output.log');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const entry = (page: number, version = 0): ManifestEntry => ({
    hash: `hash${page}-${version}`,
    bytes: 1000 + page,
    inputs: { code: 'code', site: 'site', 'edition en': `source${page}-${version}` },
  });
  const manifest = (pages: number, changed: Record<number, number> = {}): OutputManifest => ({
    outDir,
    inode,
    born,
    copies: { media: 'signature' },
    files: new Map(Array.from({ length: pages }, (_, page) => [`blog/post${page}.html`, entry(page, changed[page])])),
  });

  it('is read back as it was written, in the next process', async () => {
    const written = manifest(50);
    await writeManifest(file, written, undefined);
    expect((await readManifest(file, outDir))?.manifest).toEqual(written);
  });

  it('describes no other folder, even one given the inode number of the folder it was written for', async () => {
    // Another folder made at another moment, with the same inode number: what an ext4 file system
    // may give a folder made right after one was removed.
    await writeManifest(file, { ...manifest(5), born: born - 1000 }, undefined);
    expect(await readManifest(file, outDir)).toBeUndefined();
    // Written by an older build, which kept no time of birth: the next build writes its output whole.
    const { born: _, ...older } = manifest(5);
    await writeManifest(path.join(dir, 'cache', 'older.log'), older, undefined);
    expect(await readManifest(path.join(dir, 'cache', 'older.log'), outDir)).toBeUndefined();
  });

  it('appends the entries a build changed and the files it removed, and reads back the manifest they make', async () => {
    const first = await writeManifest(file, manifest(200), undefined);
    const before = (await stat(file)).size;
    const files = new Map(manifest(200, { 7: 1 }).files);
    files.delete('blog/post9.html');
    // Entries carried over are the same objects: only the changed one is a record.
    for (const name of files.keys())
      if (name !== 'blog/post7.html') files.set(name, first.manifest.files.get(name) as ManifestEntry);
    const next = { ...manifest(0), files };
    const log = await writeManifest(file, next, first);
    expect(log.records).toBe(first.records + 2);
    const after = (await stat(file)).size;
    expect(after - before).toBeLessThan(400);
    const read = await readManifest(file, outDir);
    expect(read?.manifest).toEqual(next);
    expect(read?.manifest.files.get('blog/post9.html')).toBeUndefined();
  });

  it('is written anew once a quarter of its records are superseded: never more than a quarter more than the live ones', async () => {
    let log = await writeManifest(file, manifest(20), undefined);
    const size = (await stat(file)).size;
    const all = (version: number) =>
      manifest(20, Object.fromEntries(Array.from({ length: 20 }, (_, page) => [page, version])));
    for (let version = 1; version <= 5; version++) {
      log = await writeManifest(file, all(version), log);
      expect(log.records).toBeLessThanOrEqual(26);
      expect((await stat(file)).size).toBeLessThan(size * 1.3);
    }
    expect((await readManifest(file, outDir))?.manifest).toEqual(all(5));
  });

  it.each([
    ['all of it changes at once (a first build after a change of code)', 20, 20],
    ['half of it changes at once, as pages made again beside the share cards they keep', 40, 20],
  ])('is written anew when %s, leaving the next builds no dead generation to read', async (_, pages, changed) => {
    const first = await writeManifest(file, manifest(pages), undefined);
    const size = (await stat(file)).size;
    const files = new Map(
      manifest(pages, Object.fromEntries(Array.from({ length: changed }, (_, page) => [page, 1]))).files,
    );
    // The others are carried over: the very entries of the last build.
    for (let page = changed; page < pages; page++)
      files.set(`blog/post${page}.html`, first.manifest.files.get(`blog/post${page}.html`) as ManifestEntry);
    const next = { ...manifest(0), files };
    const log = await writeManifest(file, next, first);
    expect(log.records).toBe(first.records);
    expect((await stat(file)).size).toBeLessThan(size * 1.2);
    expect((await readManifest(file, outDir))?.manifest).toEqual(next);
  });

  it('keeps the whole records of a log cut short by a crash, and describes no other folder', async () => {
    const first = await writeManifest(file, manifest(10), undefined);
    await writeManifest(
      file,
      { ...first.manifest, files: new Map([...first.manifest.files, ['blog/post3.html', entry(3, 1)]]) },
      first,
    );
    await truncate(file, (await stat(file)).size - 5);
    const read = await readManifest(file, outDir);
    expect(read?.records).toBe(Number.POSITIVE_INFINITY);
    expect(read?.manifest.files.get('blog/post3.html')).toEqual(entry(3));
    // Another folder put where the output was (made while the first still exists: another inode).
    const other = path.join(dir, 'other');
    await mkdir(other);
    await rm(outDir, { recursive: true });
    await rename(other, outDir);
    expect(await readManifest(file, outDir)).toBeUndefined();
  });

  it('gives back, from the log as it grew, the manifest its first bytes made: the output before the last build', async () => {
    const first = await writeManifest(file, manifest(30), undefined);
    const second = await writeManifest(
      file,
      { ...first.manifest, files: new Map([...first.manifest.files, ['blog/post4.html', entry(4, 1)]]) },
      first,
    );
    const prefix = await logPrefix(file);
    // The next build changes two pages, adds one, removes one, and is swapped in (another folder);
    // the other entries are carried over, the very objects of the last build.
    const files = new Map(second.manifest.files);
    files.set('blog/post4.html', entry(4, 2));
    files.set('blog/post8.html', entry(8, 1));
    files.set('blog/post30.html', entry(30));
    files.delete('blog/post12.html');
    const next = { ...manifest(0), inode: inode + 1, files };
    let anew: boolean | undefined;
    await writeManifest(file, next, second, async (rewrite) => {
      anew = rewrite;
    });
    expect(anew).toBe(false);
    const read = await readManifestLog(file, prefix);
    expect(read?.manifest).toEqual(next);
    expect(read?.earlier?.manifest()).toEqual(manifest(30, { 4: 1 }));
    // Read without a prefix, or once the log is written anew, there is none.
    expect((await readManifestLog(file))?.earlier).toBeUndefined();
    const all = manifest(30, Object.fromEntries(Array.from({ length: 30 }, (_, page) => [page, 3])));
    await writeManifest(file, all, read, async (rewrite) => {
      anew = rewrite;
    });
    expect(anew).toBe(true);
    expect((await readManifestLog(file, prefix))?.earlier).toBeUndefined();
  });
});
