import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { relativeBelow, relativeFile } from '../../../src/load/files';

describe('relative paths of content files', () => {
  const root = path.join(path.sep, 'home', 'owner', 'site');
  const cases = [
    path.join(root, 'content', 'blog', 'tech', 'Git.en.md'),
    `${root}${path.sep}content${path.sep}.${path.sep}blog${path.sep}a.md`,
    `${root}${path.sep}content${path.sep}..${path.sep}other.md`,
    `${root}${path.sep}content${path.sep}${path.sep}blog.md`,
    `${root}${path.sep}content${path.sep}...${path.sep}a.md`,
    `${root}${path.sep}content${path.sep}.hidden${path.sep}..a${path.sep}a..${path.sep}b.md`,
    `${root}${path.sep}.`,
    `${root}${path.sep}..`,
    `${root}${path.sep}content${path.sep}`,
    `${root}-other${path.sep}content${path.sep}a.md`,
    path.join(path.sep, 'elsewhere', 'a.md'),
    root,
  ];

  it('names every path as path.relative does, below the folder or not', () => {
    for (const dir of [root, `${root}${path.sep}`, 'site', `.${path.sep}site`]) {
      for (const absolute of [...cases, path.join('site', 'content', 'a.md'), `site${path.sep}..${path.sep}a.md`]) {
        expect(relativeBelow(dir, absolute), `${dir} → ${absolute}`).toBe(path.relative(dir, absolute));
      }
    }
  });

  it('prints a content file with forward slashes', () => {
    expect(relativeFile(root, path.join(root, 'content', 'blog', 'tech', 'Git.en.md'))).toBe(
      'content/blog/tech/Git.en.md',
    );
  });
});
