import { statSync, utimesSync } from 'node:fs';
import { readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BuildSession } from '../../../src/build/session';
import type { Diagnostic } from '../../../src/diagnostics/diagnostic';
import {
  type ArticleSource,
  articleFiles,
  ContentChangedError,
  loadArticles,
  type ParsedArticle,
} from '../../../src/load/articles';
import { copyOfContent } from '../../support/content';
import { keptByFile } from '../../support/kept';

let content: Awaited<ReturnType<typeof copyOfContent>>;
beforeEach(async () => {
  content = await copyOfContent();
});
afterEach(async () => {
  await content.cleanup();
});

/** One load as a new process does it (it remembers no file), with the build cache given. */
async function load(
  parsed: ReturnType<typeof keptByFile<ParsedArticle>>,
): Promise<{ articles: ArticleSource[]; diagnostics: Diagnostic[] }> {
  parsed.madeNow.length = 0;
  const diagnostics: Diagnostic[] = [];
  const articles = await loadArticles(content.root, diagnostics, { ...articleFiles(), parsed });
  return { articles, diagnostics };
}

describe('article files parsed by an earlier build', () => {
  const GIT = 'content/blog/tech/Git.en.md';

  it('are found again by their text, and a file whose text changed is parsed again', async () => {
    const parsed = keptByFile<ParsedArticle>();
    const first = await load(parsed);
    expect(parsed.madeNow).toHaveLength(first.articles.length);

    const again = await load(parsed);
    expect(parsed.madeNow).toEqual([]);
    expect(again.articles).toEqual(first.articles);

    const body = first.articles.find((a) => a.file === GIT)?.body;
    await content.edit(GIT, (t) => t.replace(/^title: .*$/m, 'title: Git, retitled'));
    const edited = await load(parsed);
    expect(parsed.madeNow).toEqual([GIT]);
    expect(edited.articles.find((a) => a.file === GIT)?.frontMatter.title).toBe('Git, retitled');
    expect(edited.articles.find((a) => a.file === GIT)?.body).toBe(body);
  });

  it('never hide an error: a broken front matter or text is reported at every load', async () => {
    const parsed = keptByFile<ParsedArticle>();
    await load(parsed);
    await content.edit(GIT, (t) => t.replace(/^date: .*$/m, 'date: someday'));
    for (let i = 0; i < 2; i++) {
      const { articles, diagnostics } = await load(parsed);
      expect(diagnostics.map((d) => `${d.code} ${d.file}`)).toEqual([`SCHEMA001 ${GIT}`]);
      expect(articles.some((a) => a.file === GIT)).toBe(false);
    }
    await content.edit(GIT, (t) =>
      t.replace(/^date: .*$/m, 'date: 2024-01-01').replace('\n\n', '\n\nA bell: \u0007.\n\n'),
    );
    for (let i = 0; i < 2; i++)
      expect((await load(parsed)).diagnostics.map((d) => `${d.code} ${d.file}`)).toEqual([`TEXT002 ${GIT}`]);
  });

  it('read a text again from its file only while the file is as it was loaded', async () => {
    const { articles } = await load(keptByFile<ParsedArticle>());
    const git = articles.find((a) => a.file === GIT) as ArticleSource;
    expect(git.body).toContain('## ');
    await content.edit(GIT, (t) => t.replace('\n\n', '\n\nEdited after the load.\n\n'));
    // Its body would otherwise be compiled, and cached, under the hash of the text loaded before.
    // The error names the file, and is one site dev takes for a change on its way (a build to run again).
    expect(() => git.body).toThrow(`${GIT} changed while the build was reading it`);
    expect(() => git.body).toThrow(ContentChangedError);
  });

  it('are not read again while their size, inode and times are as they were, and an edit that keeps size and modification time is read', async () => {
    /** A load by a new process, with the build cache the earlier ones left (`site build`, run again). */
    const loadAnew = async () => {
      const session = new BuildSession({ root: content.root });
      const { loaded } = await session.load();
      await session.settle(path.join(content.root, 'dist'), undefined);
      return loaded.content?.articles.find((a) => a.file === GIT);
    };
    // A file changed in the last two seconds is read each time: the copy's files are let settle.
    const settle = () => new Promise((resolve) => setTimeout(resolve, 2100));
    // Whole seconds, so that the time set back after the edit is the very one recorded.
    const absolute = path.join(content.root, GIT);
    const anHourAgo = Math.floor(Date.now() / 1000) - 3600;
    utimesSync(absolute, anHourAgo, anHourAgo);
    await settle();
    expect((await loadAnew())?.frontMatter.title).toBe('Git, from the first commit to GitHub Actions');
    expect((await loadAnew())?.frontMatter.title).toBe('Git, from the first commit to GitHub Actions');
    const before = statSync(absolute);
    await content.edit(GIT, (t) => t.replace(/^title: Git,/m, 'title: Gut,'));
    utimesSync(absolute, anHourAgo, anHourAgo);
    const after = statSync(absolute);
    expect([after.size, after.ino, after.mtimeMs]).toEqual([before.size, before.ino, before.mtimeMs]);
    await settle();
    // Same size, inode and modification time: the change time, which a write always moves, tells.
    const edited = await loadAnew();
    expect(edited?.frontMatter.title).toBe('Gut, from the first commit to GitHub Actions');
    expect(edited?.body).toContain('## ');
  }, 15_000);

  it('report a file that is a link to itself as a diagnostic on it, when the build cache would look at its stat', async () => {
    const absolute = path.join(content.root, GIT);
    await rm(absolute);
    await symlink(absolute, absolute);
    const session = new BuildSession({ root: content.root });
    const { loaded } = await session.load();
    expect(loaded.diagnostics.filter((d) => d.file === GIT).map((d) => d.code)).toEqual(['FILE001']);
  });
});

describe("a session's listing of the article files", () => {
  const GIT = 'content/blog/tech/Git.en.md';

  /** A load as a session makes it after the watcher told it of `stale` (absolute paths). */
  async function reload(files: ReturnType<typeof articleFiles>, stale: string[]): Promise<ArticleSource[]> {
    files.stale = new Set(stale);
    return loadArticles(content.root, [], files);
  }

  it('is kept through a save made by renaming a copy over the article, and listed again for a new article', async () => {
    const files = articleFiles();
    await loadArticles(content.root, [], files);
    const listing = files.listing;
    const absolute = path.join(content.root, GIT);
    // vim's probe, then the copy written beside the article and renamed over it, as vim and `sed -i` save.
    const probe = path.join(path.dirname(absolute), '4913');
    const copy = path.join(path.dirname(absolute), 'sedX1b2c3');
    await writeFile(probe, '');
    await rm(probe);
    await writeFile(copy, (await readFile(absolute, 'utf8')).replace(/^title: .*$/m, 'title: Git, saved by a rename'));
    await rename(copy, absolute);
    const saved = await reload(files, [probe, copy, absolute]);
    expect(saved.find((a) => a.file === GIT)?.frontMatter.title).toBe('Git, saved by a rename');
    // The same listing, not the folder listed again (thousands of files at a time on a large site).
    expect(files.listing).toBe(listing);

    // A new article is a file a listing holds: the folder is listed again, and it is there.
    const added = path.join(path.dirname(absolute), 'Newest.en.md');
    await writeFile(added, (await readFile(absolute, 'utf8')).replace(/^title: .*$/m, 'title: The newest'));
    const grown = await reload(files, [added]);
    expect(files.listing).not.toBe(listing);
    expect(grown.map((a) => a.file)).toContain('content/blog/tech/Newest.en.md');

    // An article deleted: listed again, and gone.
    await rm(added);
    const shrunk = await reload(files, [added]);
    expect(shrunk.map((a) => a.file)).not.toContain('content/blog/tech/Newest.en.md');
  });
});
