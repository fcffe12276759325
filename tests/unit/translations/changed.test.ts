import { chmod, mkdir, mkdtemp, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { changeDay } from '../../../src/translations/changed';

// A `git` first on the PATH that notes each time it is started and dates every file 2020-01-02.
let scratch: string;
let saved: { path?: string; gitDir?: string };
beforeEach(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'site-changed-'));
  const bin = path.join(scratch, 'bin');
  await mkdir(bin);
  await writeFile(
    path.join(bin, 'git'),
    `#!/bin/sh\necho started >> "${path.join(scratch, 'git-calls')}"\ncase "$*" in *status*) exit 0;; esac\necho 2020-01-02\n`,
  );
  await chmod(path.join(bin, 'git'), 0o755);
  saved = { path: process.env.PATH, gitDir: process.env.GIT_DIR };
  process.env.PATH = `${bin}${path.delimiter}${process.env.PATH ?? ''}`;
  delete process.env.GIT_DIR;
});
afterEach(async () => {
  process.env.PATH = saved.path;
  if (saved.gitDir !== undefined) process.env.GIT_DIR = saved.gitDir;
  await rm(scratch, { recursive: true, force: true });
});

const gitCalls = () =>
  readFile(path.join(scratch, 'git-calls'), 'utf8').then(
    (text) => text.split('\n').length - 1,
    () => 0,
  );

async function siteWithArticle(name: string): Promise<string> {
  const root = path.join(scratch, name);
  await mkdir(path.join(root, 'content'), { recursive: true });
  await writeFile(path.join(root, 'content/post.en.md'), '# A post\n');
  await utimes(
    path.join(root, 'content/post.en.md'),
    new Date('2024-03-05T12:00:00Z'),
    new Date('2024-03-05T12:00:00Z'),
  );
  return root;
}

describe('the day a content file last changed', () => {
  it('is its last commit in a repository', async () => {
    const root = await siteWithArticle('in-repo');
    await mkdir(path.join(root, '.git'));
    expect(await changeDay(root, 'content/post.en.md')).toBe('2020-01-02');
    expect(await gitCalls()).toBe(2);
  });

  it('is found in a repository a folder above the site', async () => {
    await mkdir(path.join(scratch, 'above', '.git'), { recursive: true });
    const root = await siteWithArticle(path.join('above', 'site'));
    expect(await changeDay(root, 'content/post.en.md')).toBe('2020-01-02');
  });

  it('is its last commit for a site reached through a link from outside its repository', async () => {
    await mkdir(path.join(scratch, 'repo', '.git'), { recursive: true });
    const real = await siteWithArticle(path.join('repo', 'site'));
    const link = path.join(scratch, 'elsewhere');
    await symlink(real, link);
    expect(await changeDay(link, 'content/post.en.md')).toBe('2020-01-02');
  });

  it('is its last write outside any repository, with no git started', async () => {
    const root = await siteWithArticle('no-repo');
    expect(await changeDay(root, 'content/post.en.md')).toBe('2024-03-05');
    expect(await gitCalls()).toBe(0);
  });
});
