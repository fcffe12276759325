import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MissedChangeSweep } from '../../../src/dev/sweep';
import { editorFile } from '../../../src/dev/watch';

/** site dev's sweep for saves the file watcher did not report. */
describe('MissedChangeSweep', () => {
  let dir: string;
  let content: string;
  let sweep: MissedChangeSweep | undefined;
  const missed: string[] = [];
  const logged: string[] = [];

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'site-sweep-'));
    content = path.join(dir, 'content');
    await mkdir(path.join(content, 'blog', 'books'), { recursive: true });
    await writeFile(path.join(content, 'strings.json'), '{}');
    await writeFile(path.join(content, 'blog', 'books', 'Book.en.md'), '# Book\n');
    missed.length = 0;
    logged.length = 0;
    // Swept by hand: the interval is longer than any test.
    sweep = new MissedChangeSweep(
      [content],
      { missed: (file) => missed.push(path.relative(content, file)), log: (line) => logged.push(line) },
      editorFile,
      3_600_000,
    );
    sweep.start();
  });

  afterEach(async () => {
    sweep?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const book = () => path.join(content, 'blog', 'books', 'Book.en.md');

  it('reports a save the watcher did not report, at the sweep after the one that found it, and says so once', async () => {
    await writeFile(book(), '# Book\n\nA line.\n');
    expect(sweep?.sweep()).toEqual([]);
    expect(sweep?.sweep()).toEqual([book()]);
    expect(missed).toEqual(['blog/books/Book.en.md']);
    expect(logged).toEqual([
      'a save the file watcher did not report was found (content/blog/books/Book.en.md): built now, as is any other the sweep finds every few seconds',
    ]);
    // Reported once: the file has not changed since.
    sweep?.sweep();
    await writeFile(path.join(content, 'strings.json'), '{"a":1}');
    sweep?.sweep();
    sweep?.sweep();
    expect(missed).toEqual(['blog/books/Book.en.md', 'strings.json']);
    expect(logged).toHaveLength(1);
  });

  it('reports nothing the watcher reported, at once or a sweep late, file by file or by its folder', async () => {
    await writeFile(book(), '# Book\n\nA line.\n');
    sweep?.reported(book());
    sweep?.sweep();
    await writeFile(path.join(content, 'strings.json'), '{"a":1}');
    sweep?.sweep();
    sweep?.reported(path.join(content, 'strings.json'));
    sweep?.sweep();
    await rm(path.join(content, 'blog', 'books'), { recursive: true });
    sweep?.reported(`${path.join(content, 'blog')}${path.sep}`);
    sweep?.sweep();
    sweep?.sweep();
    expect(missed).toEqual([]);
    expect(logged).toEqual([]);
  });

  it('reports a save made after the watcher reported its folder, as a build that read the folder began before it', async () => {
    sweep?.reported(`${content}${path.sep}`);
    // Past the clock's rounding: the save is later than the report.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await writeFile(book(), '# Book\n\nSaved after the folder was read.\n');
    sweep?.sweep();
    sweep?.sweep();
    expect(missed).toEqual(['blog/books/Book.en.md']);
  });

  it('reports every file of a folder deleted behind the watcher, and nothing when the watcher saw it go', async () => {
    await rm(path.join(content, 'blog'), { recursive: true });
    sweep?.sweep();
    sweep?.sweep();
    expect(missed).toEqual(['blog/books/Book.en.md']);
    await rm(content, { recursive: true });
    sweep?.reported(`${content}${path.sep}`);
    sweep?.sweep();
    sweep?.sweep();
    expect(missed).toEqual(['blog/books/Book.en.md']);
  });

  it('reports a file added or deleted behind the watcher, and leaves editors’ swap files out', async () => {
    await writeFile(path.join(content, 'blog', 'books', 'New.pt.md'), '# Novo\n');
    await rm(path.join(content, 'strings.json'));
    await writeFile(path.join(content, 'blog', 'books', '.Book.en.md.swp'), 'swap');
    sweep?.sweep();
    sweep?.sweep();
    expect(missed.sort()).toEqual(['blog/books/New.pt.md', 'strings.json']);
  });

  it('sweeps on its own every interval, and not while a build runs', async () => {
    let building = true;
    const found: string[] = [];
    const own = new MissedChangeSweep(
      [content],
      { missed: (file) => found.push(file), log: () => undefined, idle: () => !building },
      editorFile,
      50,
    );
    own.start();
    try {
      await writeFile(book(), '# Book\n\nSaved behind the watcher.\n');
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(found).toEqual([]);
      building = false;
      const deadline = Date.now() + 5_000;
      while (found.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(found).toEqual([book()]);
    } finally {
      own.close();
    }
  });
});
