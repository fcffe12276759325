import { access, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AsideFolder } from '../../bench/setAside';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'bench-aside-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

describe('AsideFolder', () => {
  it("moves a run's output out of its place whole, and removes it only when told", async () => {
    const output = path.join(dir, 'site', 'dist');
    await mkdir(path.join(output, 'blog'), { recursive: true });
    await writeFile(path.join(output, 'blog', 'index.html'), '<p>old</p>');
    const aside = new AsideFolder(path.join(dir, 'aside'));

    await aside.put(output);
    expect(await exists(output)).toBe(false);
    const [kept, ...more] = await readdir(aside.root);
    expect(more).toEqual([]);
    expect(await readFile(path.join(aside.root, kept as string, 'blog', 'index.html'), 'utf8')).toBe('<p>old</p>');

    // The same place filled and set aside again: both kept, apart.
    await mkdir(output);
    await aside.put(output);
    expect(await readdir(aside.root)).toHaveLength(2);

    await aside.removeAll();
    expect(await exists(aside.root)).toBe(false);
  });

  it('passes over a folder that is not there', async () => {
    const aside = new AsideFolder(path.join(dir, 'aside'));
    await aside.put(path.join(dir, 'never-built'));
    expect(await readdir(aside.root)).toEqual([]);
  });
});
