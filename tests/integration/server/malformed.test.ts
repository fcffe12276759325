import { cp, mkdtemp, rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../../server/app';
import { openSqliteStore } from '../../../server/storage/sqlite';
import type { SiteStore } from '../../../server/storage/store';

/** Regression tests for the 5xx answers the request fuzz test (requests.fuzz.test.ts) found. */
describe('the anti-forgery check', () => {
  let store: SiteStore;
  let app: FastifyInstance;
  beforeAll(async () => {
    store = openSqliteStore(':memory:');
    app = await buildApp({ distDir: inject('distDir'), store, rateLimit: { max: 1000, timeWindow: 60_000 } });
  });
  afterAll(async () => {
    await app.close();
    await store.close();
  });

  it('answers 403, not 500, to a token as long as the cookie in characters but not in bytes', async () => {
    // Found by the fuzz test: timingSafeEqual threw on buffers of different byte lengths.
    const cases: [string, string][] = [
      ['\u00e9', 'a'],
      ['a', '\u00e9'],
      ['!\u0080\u0080', '   '],
      ['%C3%A9', 'a'], // the cookie is percent-decoded to "é"
    ];
    for (const [cookie, header] of cases) {
      for (const url of ['/api/view_count/increment', '/api/newsletter']) {
        const response = await app.inject({
          method: 'POST',
          url,
          headers: { cookie: `XSRF-TOKEN=${cookie}`, 'x-xsrf-token': header, 'content-type': 'application/json' },
          payload: '{"email":"a@example.com"}',
        });
        expect(response.statusCode, `${url} with ${JSON.stringify([cookie, header])}`).toBe(403);
        expect(response.json()).toEqual({ error: 'Forbidden', message: 'missing or wrong anti-forgery token' });
      }
    }
  });

  it('still accepts a token outside ASCII that matches', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/view_count/increment',
      headers: { cookie: 'XSRF-TOKEN=%C3%A9', 'x-xsrf-token': Buffer.from('é').toString('latin1') },
    });
    // The header arrives as Latin-1 bytes and the cookie is decoded as UTF-8: not the same token.
    expect(response.statusCode).toBe(403);
    const same = await app.inject({
      method: 'POST',
      url: '/api/view_count/increment',
      headers: { cookie: 'XSRF-TOKEN=\u00e9', 'x-xsrf-token': '\u00e9' },
    });
    expect(same.statusCode).toBe(204);
  });
});

describe('the search API', () => {
  it('answers 400 to a search term over 200 characters instead of searching for a quarter of a second or more', async () => {
    // Found by the fuzz test as its slowest request: 40,000 characters took 1.4 s of the server's one thread.
    const app = await buildApp({ distDir: inject('distDir'), store: openSqliteStore(':memory:') });
    const search = (term: string) =>
      app.inject({ url: `/api/blog_posts/search?language=en&searchWord=${encodeURIComponent(term)}` });
    for (const term of ['a'.repeat(201), 'docker '.repeat(100), 'a'.repeat(16_000), 'w '.repeat(8_000)]) {
      const response = await search(term);
      expect(response.statusCode, `${term.length} characters`).toBe(400);
      expect(response.json()).toEqual({ error: 'Bad Request', message: 'searchWord has more than 200 characters' });
    }
    // Up to 200 is searched (and surrounding spaces do not count).
    expect((await search(`  docker${' '.repeat(194)}  `)).statusCode).toBe(200);
    expect((await search('d'.repeat(200))).statusCode).toBe(200);
    await app.close();
  });
});

describe('a dist/ that is being replaced', () => {
  let root: string;
  let dist: string;
  let app: FastifyInstance;
  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'site-swap-'));
    dist = path.join(root, 'dist');
    await cp(inject('distDir'), dist, { recursive: true });
    app = await buildApp({ distDir: dist, store: openSqliteStore(':memory:') });
  });
  afterAll(async () => {
    await app.close();
    await rm(root, { recursive: true, force: true });
  });

  it('answers a request made between the two renames of site build with the new site, not a 500', async () => {
    // site build: rename dist/ away, rename the new one in. A request in between used to fail
    // with 500 and the folder's path ("ENOENT: no such file or directory, stat '.../dist'").
    await rename(dist, path.join(root, 'dist-old'));
    const swapped = new Promise<void>((resolve) =>
      setTimeout(() => void rename(path.join(root, 'dist-old'), dist).then(resolve), 30),
    );
    const [page, notFound, search] = await Promise.all([
      app.inject({ url: '/aboutme' }),
      app.inject({ url: '/nothing/here' }),
      app.inject({ url: '/api/blog_posts/search?searchWord=docker&language=en' }),
    ]);
    await swapped;
    expect(page.statusCode).toBe(200);
    expect(notFound.statusCode).toBe(404);
    expect(search.statusCode).toBe(200);
  });

  it('answers 404 for its pages when dist/ is gone for good, and the API keeps working', async () => {
    await rename(dist, path.join(root, 'dist-gone'));
    try {
      for (const url of ['/aboutme', '/nothing/here', '/media/owner/avatar.svg']) {
        const response = await app.inject({ url });
        expect(response.statusCode, url).toBe(404);
        expect(response.body, url).not.toContain(root);
      }
      expect((await app.inject({ url: '/api/view_count' })).statusCode).toBe(200);
      expect((await app.inject({ url: '/api/blog_posts/search?searchWord=docker&language=en' })).statusCode).toBe(200);
    } finally {
      await rename(path.join(root, 'dist-gone'), dist);
    }
    expect((await app.inject({ url: '/aboutme' })).statusCode).toBe(200);
  });
});
