import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DistListing } from '../../../server/files';

/** The listing the server keeps of dist/ between requests, read again where dist/ changed. */
describe('the listing of dist/', () => {
  let dist: string;
  const sorted = async (listing: DistListing) => [...(await listing.list())].sort();
  /** Makes a folder's modification time a minute old, as one the last build did not touch. */
  const old = new Date(Date.now() - 60_000);
  const age = async (relative: string) => {
    await utimes(path.join(dist, relative), old, old);
  };

  beforeEach(async () => {
    dist = await mkdtemp(path.join(os.tmpdir(), 'dist-listing-'));
    await mkdir(path.join(dist, 'blog', 'tech'), { recursive: true });
    await mkdir(path.join(dist, 'pt', 'blog'), { recursive: true });
    for (const file of ['blog.html', 'blog/tech/Git.html', 'blog/tech/Git.html.br', 'pt/blog.html'])
      await writeFile(path.join(dist, file), file);
  });
  afterEach(async () => {
    await rm(dist, { recursive: true, force: true });
  });

  it('lists every file by its path under dist/, and follows files and folders added and removed', async () => {
    const listing = new DistListing(dist);
    expect(await sorted(listing)).toEqual(['blog.html', 'blog/tech/Git.html', 'blog/tech/Git.html.br', 'pt/blog.html']);
    await writeFile(path.join(dist, 'blog', 'tech', 'Site.html'), 'new page');
    await mkdir(path.join(dist, 'pt', 'blog', 'tech'));
    await writeFile(path.join(dist, 'pt', 'blog', 'tech', 'Git.html'), 'new folder');
    await rm(path.join(dist, 'blog.html'));
    expect(await sorted(listing)).toEqual([
      'blog/tech/Git.html',
      'blog/tech/Git.html.br',
      'blog/tech/Site.html',
      'pt/blog.html',
      'pt/blog/tech/Git.html',
    ]);
    await rm(path.join(dist, 'pt', 'blog'), { recursive: true });
    expect(await sorted(listing)).toEqual([
      'blog/tech/Git.html',
      'blog/tech/Git.html.br',
      'blog/tech/Site.html',
      'pt/blog.html',
    ]);
  });

  it('reads again only the folders whose modification time changed', async () => {
    const listing = new DistListing(dist);
    for (const folder of ['', 'blog', 'blog/tech', 'pt', 'pt/blog']) await age(folder);
    await listing.list();
    // A file slipped into a folder whose time is then put back is not seen: that folder was not read again.
    await writeFile(path.join(dist, 'blog', 'tech', 'Hidden.html'), 'unseen');
    await age('blog/tech');
    await writeFile(path.join(dist, 'pt', 'blog', 'Seen.html'), 'seen');
    const files = await sorted(listing);
    expect(files).toContain('pt/blog/Seen.html');
    expect(files).not.toContain('blog/tech/Hidden.html');
    // A fresh listing reads every folder.
    expect(await sorted(new DistListing(dist))).toContain('blog/tech/Hidden.html');
  });

  it('reads a folder again when it was modified shortly before it was read, whatever its time says', async () => {
    const listing = new DistListing(dist);
    const now = new Date();
    await utimes(path.join(dist, 'blog', 'tech'), now, now);
    await listing.list();
    // Modified within the same tick of the clock as the reading: its time stays, the file must show.
    await writeFile(path.join(dist, 'blog', 'tech', 'Racy.html'), 'racy');
    await utimes(path.join(dist, 'blog', 'tech'), now, now);
    expect(await sorted(listing)).toContain('blog/tech/Racy.html');
  });
});
