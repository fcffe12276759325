import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../../server/app';
import { DevEvents } from '../../../src/dev/events';
import { devServer } from '../../../src/dev/plugin';

/** The dev plugin on the production app, over the one build of the real content, without a port. */
describe('the site dev plugin', () => {
  let app: FastifyInstance;
  let production: FastifyInstance;
  const events = new DevEvents();
  const tag = (page: string) => `<script src="/__dev/client.js" data-dev-page="${page}" defer></script>`;

  beforeAll(async () => {
    app = await buildApp({ distDir: inject('distDir') });
    await app.register(devServer, { events, clientScript: 'new EventSource("/__dev/events");' });
    production = await buildApp({ distDir: inject('distDir') });
  });
  afterAll(async () => {
    events.close();
    await Promise.all([app.close(), production.close()]);
  });

  it('adds the client to a page, decoded from its precompressed copy, and the page is never stored', async () => {
    const built = await readFile(path.join(inject('distDir'), 'blog/tech/Site.html'), 'utf8');
    for (const encoding of ['br, gzip', 'gzip', 'identity']) {
      const response = await app.inject({ url: '/blog/tech/Site', headers: { 'accept-encoding': encoding } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers.etag).toBeUndefined();
      expect(response.headers['last-modified']).toBeUndefined();
      expect(response.body).toBe(built.replace(/<\/body>(?![\s\S]*<\/body>)/, `${tag('/blog/tech/Site')}</body>`));
      expect(Number(response.headers['content-length'])).toBe(Buffer.byteLength(response.body));
    }
  });

  it('adds the client to the Not Found page of each language', async () => {
    const en = await app.inject({ url: '/no-such-page' });
    const pt = await app.inject({ url: '/pt/nada' });
    expect(en.statusCode).toBe(404);
    expect(en.body).toContain(tag('/404'));
    expect(pt.statusCode).toBe(404);
    expect(pt.body).toContain(tag('/pt/404'));
  });

  it('serves the client script and leaves assets as they are', async () => {
    const script = await app.inject({ url: '/__dev/client.js' });
    expect(script.headers['content-type']).toContain('javascript');
    expect(script.body).toContain('EventSource');
    const asset = /src="(\/assets\/client\.[^"]+\.js)"/.exec((await app.inject({ url: '/aboutme' })).body)![1]!;
    const compressed = await app.inject({ url: asset, headers: { 'accept-encoding': 'br' } });
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(compressed.headers['cache-control']).toContain('immutable');
  });

  it('is absent from the production app: no dev routes, no script tag', async () => {
    expect((await production.inject({ url: '/__dev/client.js' })).statusCode).toBe(404);
    expect((await production.inject({ url: '/__dev/events' })).statusCode).toBe(404);
    expect((await production.inject({ url: '/blog/tech/Site' })).body).not.toContain('__dev');
    expect((await production.inject({ url: '/no-such-page' })).body).not.toContain('__dev');
  });
});
