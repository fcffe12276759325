import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type FSWatcher, watch } from 'chokidar';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SiteWatcher, watchEveryFolder } from '../../../src/dev/watch';

/** site dev's watcher: every folder under a watched one is watched, a folder its first reading missed too. */
describe('the folders site dev watches', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'site-watch-'));
    await mkdir(path.join(root, 'blog/tech'), { recursive: true });
    await mkdir(path.join(root, 'blog/books'), { recursive: true });
    await writeFile(path.join(root, 'blog/tech/a.md'), 'a');
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('hears a save in a folder the watcher had missed, once every folder is watched again', async () => {
    // A folder the watcher's first reading of the tree did not see, as one made during it is not.
    const missed = path.join(root, 'blog/tech');
    let seen = false;
    const watcher = watch(root, { ignoreInitial: true, ignored: (file) => !seen && path.resolve(file) === missed });
    const heard: string[] = [];
    watcher.on('all', (_event, file) => heard.push(path.resolve(file)));
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
    try {
      expect(Object.keys(watcher.getWatched()).map((dir) => path.resolve(dir))).not.toContain(missed);
      seen = true;
      const saved = path.join(missed, 'a.md');
      // Unwatched, a save there is never heard.
      await writeFile(saved, 'a, saved unheard');
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(heard).not.toContain(saved);
      await watchEveryFolder(watcher, root);
      const deadline = Date.now() + 10_000;
      // Saved until heard: the new watch may take a moment to be in place.
      while (!heard.includes(saved) && Date.now() < deadline) {
        await writeFile(saved, `a ${Date.now()}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(heard).toContain(saved);
    } finally {
      await watcher.close();
    }
  });

  it('adds nothing where every folder is watched', async () => {
    const watcher = watch(root, { ignoreInitial: true });
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
    try {
      const before = Object.keys(watcher.getWatched()).sort();
      expect(before.map((dir) => path.resolve(dir))).toEqual(
        expect.arrayContaining([path.join(root, 'blog/tech'), path.join(root, 'blog/books')]),
      );
      await watchEveryFolder(watcher, root);
      expect(Object.keys(watcher.getWatched()).sort()).toEqual(before);
    } finally {
      await watcher.close();
    }
  });

  it('reports within seconds a save its watch has gone blind to, and says so', async () => {
    const heard: string[] = [];
    const logged: string[] = [];
    const site = new SiteWatcher(
      [root],
      (file) => heard.push(file),
      (line) => logged.push(line),
    );
    await site.start();
    try {
      // Blind, as a watch bound to folders a branch switch replaced is.
      await (site as unknown as { watchers: Map<string, FSWatcher> }).watchers.get(root)?.close();
      const saved = path.join(root, 'blog/tech/a.md');
      await writeFile(saved, 'a, saved behind the watcher');
      const deadline = Date.now() + 15_000;
      while (!heard.includes(saved) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(heard).toContain(saved);
      expect(logged.join('\n')).toContain('a save the file watcher did not report was found');
    } finally {
      await site.close();
    }
  }, 20_000);
});
