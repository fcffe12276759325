import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../server/app';
import { openSqliteStore } from '../../server/storage/sqlite';
import type { SiteStore } from '../../server/storage/store';

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
        const response = await app.inject({ method: 'POST', url, headers: { cookie: `XSRF-TOKEN=${cookie}`, 'x-xsrf-token': header, 'content-type': 'application/json' }, payload: '{"email":"a@example.com"}' });
        expect(response.statusCode, `${url} with ${JSON.stringify([cookie, header])}`).toBe(403);
        expect(response.json()).toEqual({ error: 'Forbidden', message: 'missing or wrong anti-forgery token' });
      }
    }
  });

  it('still accepts a token outside ASCII that matches', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/view_count/increment', headers: { cookie: 'XSRF-TOKEN=%C3%A9', 'x-xsrf-token': Buffer.from('é').toString('latin1') } });
    // The header arrives as Latin-1 bytes and the cookie is decoded as UTF-8: not the same token.
    expect(response.statusCode).toBe(403);
    const same = await app.inject({ method: 'POST', url: '/api/view_count/increment', headers: { cookie: 'XSRF-TOKEN=\u00e9', 'x-xsrf-token': '\u00e9' } });
    expect(same.statusCode).toBe(204);
  });
});
