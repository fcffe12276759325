import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RootGuard } from '../../../src/dev/roots';

/**
 * site dev's guard of its watched folders: a folder deleted and made again, or renamed over, is
 * watched again and read whole.
 */
describe('RootGuard', () => {
  let dir: string;
  let guard: RootGuard | undefined;
  const said: string[] = [];

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'site-roots-'));
    said.length = 0;
  });

  afterEach(async () => {
    guard?.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function watch(root: string): Promise<RootGuard> {
    guard = new RootGuard(
      [root],
      {
        replaced: (r) => said.push(`replaced ${path.basename(r)}`),
        rescan: (r) => said.push(`rescan ${path.basename(r)}`),
        log: () => undefined,
      },
      20,
    );
    await guard.start();
    return guard;
  }

  const settle = () => new Promise((resolve) => setTimeout(resolve, 120));

  it('says nothing while the folder is the same one, whatever is saved in it', async () => {
    const content = path.join(dir, 'content');
    await mkdir(content);
    await watch(content);
    await writeFile(path.join(content, 'strings.json'), '{}');
    await writeFile(path.join(content, 'a.tmp'), 'x');
    await rename(path.join(content, 'a.tmp'), path.join(content, 'site.json'));
    await settle();
    expect(said).toEqual([]);
  });

  it('watches again and reads whole a folder deleted and made again at once (the same inode number, often)', async () => {
    const content = path.join(dir, 'content');
    await mkdir(content);
    await watch(content);
    await rm(content, { recursive: true });
    await mkdir(content);
    await writeFile(path.join(content, 'strings.json'), '{}');
    await settle();
    expect(said).toEqual(['replaced content', 'rescan content']);
    expect(guard?.busy()).toBe(true);
    // Read once more a second later, for files written while the new watch was being set up.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(said).toEqual(['replaced content', 'rescan content', 'rescan content']);
    expect(guard?.busy()).toBe(false);
  });

  it('watches again a folder replaced by a renamed copy, and one gone then back', async () => {
    const content = path.join(dir, 'content');
    await mkdir(content);
    await watch(content);
    await mkdir(path.join(dir, 'copy'));
    await rename(content, path.join(dir, 'old'));
    await rename(path.join(dir, 'copy'), content);
    await settle();
    expect(said.slice(0, 2)).toEqual(['replaced content', 'rescan content']);
    said.length = 0;
    await rm(content, { recursive: true });
    await settle();
    expect(said).toEqual(['rescan content']);
    await mkdir(content);
    await settle();
    expect(said).toEqual(['rescan content', 'replaced content', 'rescan content']);
  });

  it('watches again a folder the watcher saw go, even when it looks the same', async () => {
    const content = path.join(dir, 'content');
    await mkdir(content);
    const watching = await watch(content);
    watching.lost(content);
    await settle();
    expect(said).toEqual(['replaced content', 'rescan content']);
  });
});
