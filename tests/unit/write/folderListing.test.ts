import { mkdir, mkdtemp, rename, rm, unlink, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listFolder, listFolderAhead, stillListed } from '../../../src/write/folderListing';

let scratch: string;
let root: string;
beforeEach(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'site-listing-'));
  root = path.join(scratch, 'out');
  for (const file of [
    'index.html',
    'index.html.br',
    'blog/tech/post.html',
    'blog/tech/post.html.gz',
    'media/photo.svg',
  ])
    await mkdir(path.dirname(path.join(root, file)), { recursive: true }).then(() =>
      writeFile(path.join(root, file), file),
    );
  // Settled, as a spare is: written by a build before the last.
  const past = new Date(Date.now() - 60_000);
  for (const folder of ['', 'blog', 'blog/tech', 'media']) await utimes(path.join(root, folder), past, past);
});
afterEach(async () => {
  await rm(scratch, { recursive: true, force: true });
});

const sorted = ({ files, folders }: { files: string[]; folders: string[] }) => ({
  files: [...files].sort(),
  folders: [...folders].sort(),
});
const skip = new Set(['media']);

describe('a folder listed ahead of its use', () => {
  it('lists what listing it then would, and still does once the folder is renamed', async () => {
    const ahead = await listFolderAhead(root);
    const renamed = path.join(scratch, 'taken');
    await rename(root, renamed);
    const listed = stillListed(ahead, renamed, skip);
    expect(listed && sorted(listed)).toEqual(sorted(listFolder(renamed, skip)));
    expect(listed?.files).toContain('blog/tech/post.html.gz');
    expect(listed?.files).not.toContain('media/photo.svg');
  });

  it('is not used once a file was added, removed or renamed in any of its folders since', async () => {
    for (const change of [
      () => writeFile(path.join(root, 'blog/tech/late.html'), 'late'),
      () => unlink(path.join(root, 'index.html.br')),
      () => rename(path.join(root, 'blog/tech/post.html'), path.join(root, 'blog/tech/Post.html')),
      () => mkdir(path.join(root, 'blog/new')),
    ]) {
      const ahead = await listFolderAhead(root);
      expect(ahead).toBeDefined();
      await change();
      expect(stillListed(ahead, root, skip)).toBeUndefined();
      // Settled again for the next change.
      const past = new Date(Date.now() - 60_000);
      for (const folder of ['', 'blog', 'blog/tech']) await utimes(path.join(root, folder), past, past);
    }
  });

  it('is not used for another folder put at its place, with the same folders stamped the same', async () => {
    const ahead = await listFolderAhead(root);
    if (!ahead) throw new Error('not listed ahead');
    await rename(root, path.join(scratch, 'old'));
    // Deepest first: making a folder stamps its parent.
    for (const folder of [...ahead.stamps.keys()].sort((a, b) => b.length - a.length))
      await mkdir(path.join(root, folder), { recursive: true });
    for (const [folder, stamp] of [...ahead.stamps].sort((a, b) => b[0].length - a[0].length))
      await utimes(path.join(root, folder), new Date(stamp), new Date(stamp));
    expect(stillListed(ahead, root, skip)).toBeUndefined();
  });

  it('is not taken of a folder stamped to the second that changed in the last two seconds', async () => {
    // As a file system that keeps times to the second stamps a folder changed a moment ago.
    const second = new Date(Math.floor((Date.now() - 500) / 1000) * 1000);
    await utimes(path.join(root, 'blog'), second, second);
    expect(await listFolderAhead(root)).toBeUndefined();
    const older = new Date(Math.floor((Date.now() - 5_000) / 1000) * 1000);
    await utimes(path.join(root, 'blog'), older, older);
    expect(await listFolderAhead(root)).toBeDefined();
  });

  it('is not taken of a folder changed a moment ago, nor of none', async () => {
    await writeFile(path.join(root, 'blog/tech/now.html'), 'now');
    expect(await listFolderAhead(root)).toBeUndefined();
    expect(await listFolderAhead(path.join(scratch, 'none'))).toBeUndefined();
  });
});
