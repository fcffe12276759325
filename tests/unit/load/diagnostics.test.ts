import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../../src/diagnostics/diagnostic';
import { loadContent } from '../../../src/load/content';
import { LOCK_FILE, readLock } from '../../../src/translations/lock';
import { copyOfContent } from '../../support/content';
import { keptByFile } from '../../support/kept';

let content: Awaited<ReturnType<typeof copyOfContent>>;
beforeEach(async () => {
  content = await copyOfContent();
});
afterEach(async () => {
  await content.cleanup();
});

describe('content diagnostics', () => {
  it('loads the real content without a diagnostic', async () => {
    const { content: loaded, diagnostics } = await loadContent(content.root);
    expect(diagnostics).toEqual([]);
    expect(loaded?.categories.map((c) => c.key).sort()).toEqual([
      'books',
      'cinema',
      'culture',
      'finances',
      'fitness',
      'gastronomy',
      'music',
      'opinions',
      'photos',
      'tech',
    ]);
  });

  it('names the file, line, column and field of a JSON value of the wrong type', async () => {
    await content.edit('content/owner.json', (t) => t.replace('"pt": "Engenheiro de Software"', '"pt": 42'));
    const { content: loaded, diagnostics } = await loadContent(content.root);
    expect(loaded).toBeUndefined();
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ code: 'SCHEMA001', severity: 'error', file: 'content/owner.json', line: 3 });
    expect(diagnostics[0]?.message).toMatch(/^subtitle\.pt: .*expected string, received number/);
    expect(diagnostics[0]?.column).toBeGreaterThan(1);
  });

  it('reports a missing required field at its parent and an unknown field by name', async () => {
    await content.edit('content/pages/projects.json', (t) => {
      const data = JSON.parse(t);
      delete data.projects[1].img;
      data.projects[2].colour = 'red';
      return JSON.stringify(data, null, 2);
    });
    const { diagnostics } = await loadContent(content.root);
    const messages = diagnostics.map((d) => `${d.file}:${d.line} ${d.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^content\/pages\/projects\.json:\d+ projects\.1\.img: required field is missing/),
        expect.stringMatching(/^content\/pages\/projects\.json:\d+ projects\.2: unknown field "colour"/),
      ]),
    );
  });

  it('places a JSON syntax error at its line and column', async () => {
    await content.edit('content/navigation.json', (t) => t.replace('"path": "/blog",', '"path": "/blog"'));
    const { diagnostics } = await loadContent(content.root);
    expect(diagnostics[0]).toMatchObject({ code: 'JSON001', file: 'content/navigation.json', line: 4 });
  });

  it('points a front-matter error at the line of the failing key', async () => {
    await content.edit('content/blog/culture/gulbenkian.pt.md', (t) => t.replace(/^date: .*$/m, 'date: yesterday'));
    const { diagnostics } = await loadContent(content.root);
    expect(diagnostics).toHaveLength(1);
    const source = (await import('node:fs')).readFileSync(
      `${content.root}/content/blog/culture/gulbenkian.pt.md`,
      'utf8',
    );
    const dateLine = source.split('\n').findIndex((l) => l.startsWith('date:')) + 1;
    expect(diagnostics[0]).toMatchObject({
      code: 'SCHEMA001',
      file: 'content/blog/culture/gulbenkian.pt.md',
      line: dateLine,
      column: 1,
    });
    expect(diagnostics[0]?.message).toMatch(/^date: /);
  });

  it('rejects a UI string missing in one language', async () => {
    await content.edit('content/strings.json', (t) => t.replace('"pt": "Pedido inválido."', '"pt": ""'));
    const { diagnostics } = await loadContent(content.root);
    expect(diagnostics[0]).toMatchObject({ code: 'SCHEMA001', file: 'content/strings.json' });
    expect(diagnostics[0]?.message).toMatch(/^newsletter\.invalid\.pt: /);
  });

  it('rejects an article file outside the naming layout and an unknown category', async () => {
    const { writeFile, mkdir } = await import('node:fs/promises');
    await writeFile(`${content.root}/content/blog/tech/Notes.md`, '---\ntitle: x\n---\n');
    await mkdir(`${content.root}/content/blog/poetry`);
    await writeFile(
      `${content.root}/content/blog/poetry/Verse.en.md`,
      '---\ntitle: Verse\ndescription: A poem.\ndate: 2024-01-01\n---\nText.\n',
    );
    const { diagnostics } = await loadContent(content.root);
    expect(diagnostics.map((d) => [d.code, d.file])).toEqual(
      expect.arrayContaining([
        ['PATH001', 'content/blog/tech/Notes.md'],
        ['CAT001', 'content/blog/poetry/Verse.en.md'],
      ]),
    );
  });

  it("reports a folder standing in an article file's or a category file's place (FILE001)", async () => {
    await rm(path.join(content.root, 'content/blog/opinions/remotework.pt.md'));
    await mkdir(path.join(content.root, 'content/blog/opinions/remotework.pt.md'));
    await mkdir(path.join(content.root, 'content/categories/travel.json'));
    const { diagnostics } = await loadContent(content.root);
    expect(diagnostics.map((d) => [d.code, d.file, d.message])).toEqual([
      ['FILE001', 'content/categories/travel.json', 'content/categories/travel.json is a folder, not a file'],
      [
        'FILE001',
        'content/blog/opinions/remotework.pt.md',
        'content/blog/opinions/remotework.pt.md is a folder, not a file',
      ],
    ]);
  });

  it('reports the first ten syntax errors of a JSON file, not thousands', async () => {
    await content.edit('content/pages/blog.json', (t) => t.replace('"', `"${'{"a":'.repeat(20_000)}`));
    const { diagnostics } = await loadContent(content.root);
    expect(diagnostics).toHaveLength(10);
    expect(diagnostics.every((d) => d.code === 'JSON001' && d.file === 'content/pages/blog.json')).toBe(true);
    expect(diagnostics[9]?.message).toMatch(/\(and [\d,]+ more syntax errors after it\)$/);
  });
});

describe('JSON content files an earlier build validated', () => {
  it('are found again by their text, and one edited is validated again, its mistake reported at every load', async () => {
    const cache = keptByFile<unknown>();
    const first = await loadContent(content.root, undefined, undefined, cache);
    expect(cache.madeNow).toContain('content/owner.json');
    expect(cache.madeNow).toContain('content/categories/tech.json');

    cache.madeNow.length = 0;
    const again = await loadContent(content.root, undefined, undefined, cache);
    expect(cache.madeNow).toEqual([]);
    expect(again.content?.owner).toEqual(first.content?.owner);
    expect(again.diagnostics).toEqual([]);

    await content.edit('content/owner.json', (t) => t.replace('"pt": "Engenheiro de Software"', '"pt": 42'));
    for (let load = 0; load < 2; load++) {
      const broken = await loadContent(content.root, undefined, undefined, cache);
      expect(broken.content).toBeUndefined();
      expect(broken.diagnostics.map((d) => [d.code, d.file])).toEqual([['SCHEMA001', 'content/owner.json']]);
    }

    await content.edit('content/owner.json', (t) => t.replace('"pt": 42', '"pt": "Engenheira de Software"'));
    const fixed = await loadContent(content.root, undefined, undefined, cache);
    expect(cache.madeNow).toEqual(['content/owner.json']);
    expect(fixed.content?.owner.subtitle.pt).toBe('Engenheira de Software');
  });
});

describe('the translation lock an earlier build validated', () => {
  it('is found again by its text, and once edited is read and validated again, its mistake reported at every read', async () => {
    const cache = keptByFile<unknown>();
    const read = () => {
      const diagnostics: Diagnostic[] = [];
      return readLock(content.root, diagnostics, undefined, cache).then((lock) => ({ lock, diagnostics }));
    };
    const first = await read();
    expect(cache.madeNow).toEqual([LOCK_FILE]);
    expect(Object.keys(first.lock?.articles ?? {}).length).toBeGreaterThan(10);

    cache.madeNow.length = 0;
    const again = await read();
    expect(cache.madeNow).toEqual([]);
    expect(again).toEqual(first);

    await content.edit(LOCK_FILE, (t) => t.replace(/"title":"[^"]*"/, '"title":42'));
    for (let reading = 0; reading < 2; reading++) {
      const broken = await read();
      expect(broken.lock).toBeUndefined();
      expect(broken.diagnostics.map((d) => [d.code, d.file])).toEqual([['SCHEMA001', LOCK_FILE]]);
    }
    expect(cache.madeNow).toEqual([]);

    await content.edit(LOCK_FILE, (t) => t.replace('"title":42', '"title":"Retitled"'));
    const fixed = await read();
    expect(cache.madeNow).toEqual([LOCK_FILE]);
    expect(
      Object.values(fixed.lock?.articles ?? {}).some(
        (article) => article.en.title === 'Retitled' || article.pt.title === 'Retitled',
      ),
    ).toBe(true);
  });
});
