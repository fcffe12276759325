import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { buildApp } from '../../../server/app';
import { openSqliteStore } from '../../../server/storage/sqlite';
import type { SiteStore } from '../../../server/storage/store';

/** What the server reads of dist/: the files read whole, and the folders it looks at (for its listing). */
const reads = vi.hoisted(() => ({ files: [] as string[], folders: [] as string[] }));
vi.mock('node:fs/promises', async (original) => {
  const fs = await original<typeof import('node:fs/promises')>();
  return {
    ...fs,
    readFile: (async (file: Parameters<typeof fs.readFile>[0], options?: Parameters<typeof fs.readFile>[1]) => {
      reads.files.push(String(file));
      return fs.readFile(file, options);
    }) as typeof fs.readFile,
    stat: (async (...args: Parameters<typeof fs.stat>) => {
      reads.folders.push(String(args[0]));
      return fs.stat(...args);
    }) as typeof fs.stat,
  };
});

/**
 * `site dev` writes dist/ in place and tells the server so by a number it changes after each
 * build: the server reads dist/ again then. At 4,000 articles the search indexes take 1.5 to
 * 1.8 s a language to load; pages asked for after a save must not wait for them.
 */
describe('the server after a rebuild in place', () => {
  let app: FastifyInstance;
  let store: SiteStore;
  let revision = 0;
  const searchFiles = () => reads.files.filter((file) => file.includes('/search/'));

  beforeAll(async () => {
    store = await openSqliteStore(':memory:');
    app = await buildApp({ distDir: inject('distDir'), store, distRevision: () => revision });
  });
  afterAll(async () => {
    await app.close();
    await store.close();
  });

  it('serves the pages of a page load without loading the search indexes, listing dist/ once for them all', async () => {
    revision++;
    reads.files.length = 0;
    reads.folders.length = 0;
    const urls = ['/blog', '/pt/blog', '/aboutme', '/blog/tech/Git', '/pt/blog/tech/Git', '/nothing-here'];
    const statuses = (await Promise.all(urls.map((url) => app.inject({ url })))).map((response) => response.statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 404]);
    expect(searchFiles()).toEqual([]);
    expect(reads.folders.filter((folder) => path.resolve(folder) === path.resolve(inject('distDir')))).toHaveLength(1);
  });

  it('loads the search index of a language at its first search, once for searches arriving together', async () => {
    const search = (word: string, language: string) =>
      app.inject({ url: `/api/blog_posts/search?searchWord=${word}&language=${language}` });
    const answers = await Promise.all([search('docker', 'en'), search('apocalypse', 'en'), search('docker', 'en')]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200]);
    const [first] = answers;
    expect((first?.json() as { data: unknown[] } | undefined)?.data.length).toBeGreaterThan(0);
    const loaded = searchFiles();
    expect(loaded.length).toBeGreaterThan(0);
    expect(new Set(loaded).size).toBe(loaded.length);
    // The English index alone: no Portuguese search was made.
    expect(loaded.filter((file) => !/\/search\/en(\.json|\/)/.test(file))).toEqual([]);

    // A rebuild: the next search reads the index again, of the new dist/.
    revision++;
    reads.files.length = 0;
    await search('docker', 'en');
    expect(searchFiles().length).toBe(loaded.length);
  });
});

/** `site serve`: dist/ is swapped in whole by `site build`, and searches come from the first visitors. */
describe('the server of a built dist/', () => {
  it('has both search indexes loaded by the time it is ready, before any search', async () => {
    reads.files.length = 0;
    const store = await openSqliteStore(':memory:');
    const app = await buildApp({ distDir: inject('distDir'), store });
    try {
      const loaded = reads.files.filter((file) => file.includes('/search/'));
      for (const lang of ['en', 'pt']) expect(loaded.some((file) => file.endsWith(`/search/${lang}.json`))).toBe(true);
      reads.files.length = 0;
      expect((await app.inject({ url: '/api/blog_posts/search?searchWord=docker&language=en' })).statusCode).toBe(200);
      expect(reads.files.filter((file) => file.includes('/search/'))).toEqual([]);
    } finally {
      await app.close();
      await store.close();
    }
  });
});
