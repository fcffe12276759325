import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../../server/app';
import { openPostgresStore } from '../../../server/storage/postgres';
import { openSqliteStore } from '../../../server/storage/sqlite';
import type { SiteStore } from '../../../server/storage/store';
import { usePostgres } from '../../support/postgres';

const pg = usePostgres();

const ADAPTERS: [string, () => Promise<SiteStore>][] = [
  ['SQLite', async () => openSqliteStore(':memory:')],
  ['PostgreSQL', async () => openPostgresStore(pg.url)],
];

describe.each(ADAPTERS)('the API on %s', (_name, open) => {
  let app: FastifyInstance;
  let store: SiteStore;
  let token: string;
  beforeAll(async () => {
    store = await open();
    app = await buildApp({ distDir: inject('distDir'), store, rateLimit: { max: 1000, timeWindow: 60_000 } });
    const page = await app.inject({ url: '/aboutme' });
    token = /XSRF-TOKEN=([^;]+)/.exec(String(page.headers['set-cookie']))![1]!;
  });
  afterAll(async () => {
    await app.close();
    await store.close();
  });

  const post = (url: string, body?: unknown, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url,
      headers: {
        cookie: `XSRF-TOKEN=${token}`,
        'x-xsrf-token': token,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
    });

  it('counts visits: 204 on increment, the count on GET', async () => {
    const before = (await app.inject({ url: '/api/view_count' })).json().count as number;
    expect((await post('/api/view_count/increment')).statusCode).toBe(204);
    expect((await post('/api/view_count/increment')).statusCode).toBe(204);
    const after = await app.inject({ url: '/api/view_count' });
    expect(after.statusCode).toBe(200);
    expect(after.json()).toEqual({ count: before + 2 });
  });

  it('signs an address up once, whatever its case, remembering the language, with the same answer each time', async () => {
    const first = await post('/api/newsletter', { email: 'Ana.Silva@Example.pt', language: 'pt' });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ success: true, text: { en: expect.any(String), pt: expect.any(String) } });
    const again = await post('/api/newsletter', { email: 'ana.silva@example.pt', language: 'en' });
    expect(again.json().success).toBe(true);
    // The same answer both times: it must not tell whether the address was on the list.
    expect(again.body).toBe(first.body);
    const subscribers = await store.newsletter.subscribers();
    expect(subscribers.filter((s) => s.email.toLowerCase() === 'ana.silva@example.pt')).toEqual([
      expect.objectContaining({ email: 'Ana.Silva@Example.pt', lang: 'pt', state: 'pending' }),
    ]);
  });

  it('answers success false, with a text in both languages, for an address that is not valid', async () => {
    const response = await post('/api/newsletter', { email: 'not-an-address' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: false, text: { en: expect.any(String), pt: expect.any(String) } });
  });

  it('answers every bad request with a clean 4xx and keeps serving', async () => {
    const cases: [string, () => ReturnType<typeof post>, number][] = [
      ['malformed JSON', () => post('/api/newsletter', '{"email": '), 400],
      ['missing email', () => post('/api/newsletter', {}), 400],
      ['email not a string', () => post('/api/newsletter', { email: 42 }), 400],
      ['unknown language', () => post('/api/newsletter', { email: 'a@example.com', language: 'fr' }), 400],
      [
        'wrong content type',
        () => post('/api/newsletter', 'email=a@example.com', { 'content-type': 'application/x-www-form-urlencoded' }),
        415,
      ],
      ['10 MB body', () => post('/api/newsletter', JSON.stringify({ email: 'a'.repeat(10 * 1024 * 1024) })), 413],
      [
        'no anti-forgery header',
        () =>
          app.inject({ method: 'POST', url: '/api/view_count/increment', headers: { cookie: `XSRF-TOKEN=${token}` } }),
        403,
      ],
      [
        'no anti-forgery cookie',
        () => app.inject({ method: 'POST', url: '/api/view_count/increment', headers: { 'x-xsrf-token': token } }),
        403,
      ],
      [
        'wrong anti-forgery token',
        () => post('/api/view_count/increment', undefined, { 'x-xsrf-token': 'f'.repeat(token.length) }),
        403,
      ],
      ['unknown API path', () => app.inject({ url: '/api/nothing' }), 404],
    ];
    for (const [name, request, status] of cases) {
      const response = await request();
      expect(response.statusCode, name).toBe(status);
      expect(response.headers['content-type'], name).toMatch(/^application\/json/);
      expect((await app.inject({ url: '/api/view_count' })).statusCode, `${name}, then`).toBe(200);
    }
  });
});

describe('rate limits and headers', () => {
  it('answers 429 to a client that writes too often', async () => {
    const store = openSqliteStore(':memory:');
    const app = await buildApp({ distDir: inject('distDir'), store, rateLimit: { max: 3, timeWindow: 60_000 } });
    const cookie = 'XSRF-TOKEN=abc';
    const statuses = [];
    for (let i = 0; i < 5; i++) {
      statuses.push(
        (
          await app.inject({
            method: 'POST',
            url: '/api/view_count/increment',
            headers: { cookie, 'x-xsrf-token': 'abc' },
          })
        ).statusCode,
      );
    }
    expect(statuses).toEqual([204, 204, 204, 429, 429]);
    expect((await app.inject({ url: '/api/view_count' })).json()).toEqual({ count: 3 });
    await app.close();
    await store.close();
  });

  it('sends the security headers, and HSTS only over TLS', async () => {
    const app = await buildApp({ distDir: inject('distDir'), trustProxy: true });
    const page = await app.inject({ url: '/aboutme' });
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toContain("unsafe-inline'; script");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(page.headers['strict-transport-security']).toBeUndefined();
    const overTls = await app.inject({ url: '/aboutme', headers: { 'x-forwarded-proto': 'https' } });
    expect(overTls.headers['strict-transport-security']).toContain('max-age=');
    expect(String(overTls.headers['set-cookie'])).toContain('Secure');
    await app.close();
  });
});

describe('the blog search API', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildApp({ distDir: inject('distDir'), store: openSqliteStore(':memory:') });
  });
  afterAll(async () => {
    await app.close();
  });
  const search = async (searchWord: string, language: string) => {
    const response = await app.inject({
      url: `/api/blog_posts/search?searchWord=${encodeURIComponent(searchWord)}&language=${language}`,
    });
    return {
      status: response.statusCode,
      data: (response.json() as { data?: { id: string; title: string; category: string; endpoint: string }[] }).data,
    };
  };

  it('answers id, title, category and endpoint, best match first, in the language asked', async () => {
    const { status, data } = await search('gulbenkian', 'pt');
    expect(status).toBe(200);
    expect(data![0]).toEqual({
      id: '/blog/culture/gulbenkian',
      title: expect.any(String),
      category: 'Cultura',
      endpoint: '/blog/culture/gulbenkian',
    });
    const en = await search('Apocalypse', 'en');
    expect(en.data![0]!.endpoint).toBe('/blog/cinema/ApocalypseNow');
    const pt = await search('Apocalypse', 'pt');
    expect(pt.data![0]!.endpoint).toBe('/pt/blog/cinema/ApocalypseNow');
  });

  it('folds accents and case, stems both languages, matches prefixes and small typos', async () => {
    expect((await search('musica', 'pt')).data!.map((r) => r.endpoint)).toContain('/pt/blog/books/MozartLifeWork');
    expect((await search('GULBENKIAN', 'pt')).data![0]!.endpoint).toBe('/blog/culture/gulbenkian');
    expect((await search('correr', 'pt')).data![0]!.endpoint).toBe('/blog/fitness/runningshoes');
    // A plural finds its singular's article ('volumes' -> 'volum'); 'containers' now ranks the Azure
    // article first, whose description names Web App for Containers.
    expect((await search('volumes', 'en')).data![0]!.endpoint).toBe('/blog/tech/docker');
    expect((await search('containers', 'en')).data!.map((r) => r.endpoint).slice(0, 2)).toContain('/blog/tech/docker');
    expect((await search('docke', 'en')).data![0]!.endpoint).toBe('/blog/tech/docker');
    expect((await search('Fassbindr', 'en')).data![0]!.endpoint).toBe('/blog/cinema/Fassbinder');
  });

  it('answers at most ten results', async () => {
    expect((await search('para', 'pt')).data!.length).toBeLessThanOrEqual(10);
  });

  it('answers 400 for a missing or unknown language and for a term of 3 characters or fewer', async () => {
    expect((await app.inject({ url: '/api/blog_posts/search?searchWord=docker' })).statusCode).toBe(400);
    expect((await search('docker', 'fr')).status).toBe(400);
    expect((await search('git', 'en')).status).toBe(400);
    expect((await search('   git  ', 'en')).status).toBe(400);
  });
});
