import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import matter from 'gray-matter';
import { describe, expect, it } from 'vitest';
import { rehearsedEdit } from '../../../src/dev/rehearsal';
import { PROJECT_ROOT } from '../../support/content';

/** Every article file of the real content, with its text. */
async function articles(): Promise<[string, string][]> {
  const blog = path.join(PROJECT_ROOT, 'content', 'blog');
  const files = (await readdir(blog, { recursive: true })).filter((file) => file.endsWith('.md')).sort();
  return Promise.all(
    files.map(async (file): Promise<[string, string]> => [file, await readFile(path.join(blog, file), 'utf8')]),
  );
}

/**
 * `site dev` rehearses edits of one article while the owner reads (see `warmUp`): each must be
 * the edit it stands for, on any article the site may start with, or the rehearsal takes another path.
 */
describe('the edits site dev rehearses', () => {
  it('adds a paragraph to the body and leaves the front matter as it was', async () => {
    for (const [file, text] of await articles()) {
      const [before, after] = [matter(text, {}), matter(rehearsedEdit(text, 0), {})];
      expect(after.data, file).toEqual(before.data);
      expect(after.content.trim(), file).toBe(
        `A paragraph rehearsed by site dev (1).\n\n${before.content.trim()}`.trim(),
      );
    }
  });

  it('changes the title alone, whether it is quoted or not', async () => {
    const quoted = (title: string) => `---\ntitle: ${title}\ndate: 2024-01-02\n---\n\nBody.\n`;
    expect(matter(rehearsedEdit(quoted('"A: quoted title"'), 1), {}).data.title).toBe(
      'A: quoted title, rehearsed by site dev (2)',
    );
    expect(matter(rehearsedEdit(quoted("'Single'"), 3), {}).data.title).toBe('Single, rehearsed by site dev (4)');
    for (const [file, text] of await articles()) {
      const [before, after] = [matter(text, {}), matter(rehearsedEdit(text, 1), {})];
      expect(after.data, file).toEqual({ ...before.data, title: `${before.data.title}, rehearsed by site dev (2)` });
      expect(after.content, file).toBe(before.content);
    }
  });
});
