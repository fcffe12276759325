import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../../server/app';
import { loadSite } from '../../../src/build/pipeline';
import { editionUrl } from '../../../src/shared/route';
import { PROJECT_ROOT } from '../../support/content';

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildApp({ distDir: inject('distDir') });
});
afterAll(async () => {
  await app.close();
});

const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

describe('serving dist/', () => {
  it('answers every edition of every route with its HTML and language', async () => {
    const { site } = await loadSite(PROJECT_ROOT);
    let editions = 0;
    for (const route of site!.routes) {
      for (const lang of route.meta.availableLangs) {
        const response = await get(editionUrl(route, lang));
        expect(response.statusCode, editionUrl(route, lang)).toBe(200);
        expect(response.headers['content-type']).toMatch(/^text\/html/);
        expect(response.body).toContain(`<html lang="${lang}">`);
        editions++;
      }
    }
    expect(editions).toBeGreaterThanOrEqual(35);
  });

  it('shows the texts of docs/product.md in each language', async () => {
    const en = (await get('/aboutme')).body;
    const pt = (await get('/pt/aboutme')).body;
    for (const title of ['About Me', 'Professional', 'Blog', 'Projects']) expect(en).toContain(`>${title}</a>`);
    for (const title of ['Sobre Mim', 'Professional', 'Blog', 'Projetos']) expect(pt).toContain(`>${title}</a>`);
    expect((await get('/pt/blog')).body).toContain('placeholder="Pesquisa (Coming soon)"');
    expect((await get('/blog')).body).toContain('placeholder="Search (Coming soon)"');
  });

  it('redirects / to About Me in the remembered language and /pt to the Portuguese one', async () => {
    expect((await get('/')).headers.location).toBe('/aboutme');
    expect((await get('/', { cookie: 'lang=pt' })).headers.location).toBe('/pt/aboutme');
    expect((await get('/', { cookie: 'lang=xx' })).headers.location).toBe('/aboutme');
    const pt = await get('/pt');
    expect(pt.statusCode).toBe(302);
    expect(pt.headers.location).toBe('/pt/aboutme');
  });

  it('answers an unknown path with 404 and the Not Found page in the language of the path', async () => {
    const en = await get('/nothing/here');
    expect(en.statusCode).toBe(404);
    expect(en.body).toContain('Oh oh, it looks like there is nothing here...');
    expect(en.body).toContain('<html lang="en">');
    const pt = await get('/pt/nada');
    expect(pt.statusCode).toBe(404);
    expect(pt.body).toContain('Oops, parece que não há nada aqui...');
  });

  it('is case-sensitive and gives every edition one URL', async () => {
    for (const url of [
      '/blog/tech/site',
      '/AboutMe',
      '/aboutme.html',
      '/pt/blog/culture/gulbenkian',
      '/blog/culture/gulbenkian/',
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).not.toBe(200);
    }
    expect((await get('/blog/culture/gulbenkian/')).headers.location).toBe('/blog/culture/gulbenkian');
  });

  it('never serves a file from outside dist/, whatever the encoding', async () => {
    for (const url of [
      '/../package.json',
      '/%2e%2e/package.json',
      '/media/%2e%2e%2f%2e%2e%2fpackage.json',
      '/media/%252e%252e%252fpackage.json',
      '/media/..%5c..%5cpackage.json',
      '/%00',
      '/%E0%A4%A',
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, url).toBeLessThan(500);
      expect(response.body).not.toContain('"name": "portfolio-site"');
    }
  });

  it('serves assets and media with their content types and caching', async () => {
    const html = (await get('/aboutme')).body;
    const script = /src="(\/assets\/client\.[^"]+\.js)"/.exec(html)?.[1];
    const js = await get(script!);
    expect(js.headers['content-type']).toMatch(/javascript/);
    expect(js.headers['cache-control']).toContain('immutable');
    expect((await get('/media/owner/avatar.svg')).headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect((await get('/media/owner/cv.pdf')).headers['content-type']).toBe('application/pdf');
    expect((await get('/aboutme')).headers['cache-control']).toBe('no-cache');
  });
});

describe('a rebuild under a running server', () => {
  it('serves the new dist/ without a restart', async () => {
    const { cp, mkdtemp, rm, writeFile, rename } = await import('node:fs/promises');
    const os = await import('node:os');
    const path = await import('node:path');
    const root = await mkdtemp(path.join(os.tmpdir(), 'site-serve-'));
    const dist = path.join(root, 'dist');
    await cp(inject('distDir'), dist, { recursive: true });
    const server = await buildApp({ distDir: dist });
    expect((await server.inject({ url: '/media/new.txt' })).statusCode).toBe(404);
    // What site build does: a complete new folder swapped in by renames.
    const next = path.join(root, 'dist-next');
    await cp(dist, next, { recursive: true });
    await writeFile(path.join(next, 'media/new.txt'), 'fresh');
    await rename(dist, path.join(root, 'dist-old'));
    await rename(next, dist);
    const fresh = await server.inject({ url: '/media/new.txt' });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.body).toBe('fresh');
    await server.close();
    await rm(root, { recursive: true, force: true });
  });

  it('reads dist/ again when a writer in place changes its revision', async () => {
    const { cp, mkdtemp, rm, writeFile } = await import('node:fs/promises');
    const os = await import('node:os');
    const path = await import('node:path');
    const root = await mkdtemp(path.join(os.tmpdir(), 'site-serve-'));
    const dist = path.join(root, 'dist');
    await cp(inject('distDir'), dist, { recursive: true });
    let revision = 0;
    const server = await buildApp({ distDir: dist, distRevision: () => revision });
    expect((await server.inject({ url: '/media/new.txt' })).statusCode).toBe(404);
    // The same folder (the same inode), a file written into it: unseen until the revision changes.
    await writeFile(path.join(dist, 'media/new.txt'), 'fresh');
    expect((await server.inject({ url: '/media/new.txt' })).statusCode).toBe(404);
    revision++;
    const fresh = await server.inject({ url: '/media/new.txt' });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.body).toBe('fresh');
    await server.close();
    await rm(root, { recursive: true, force: true });
  });
});

describe('compression and revalidation', () => {
  it('sends the precompressed copy the client accepts, and the plain file otherwise', async () => {
    // The largest script of the build: React and the islands.
    const assets = path.join(inject('distDir'), 'assets');
    const sizes = await Promise.all(
      (await readdir(assets))
        .filter((f) => f.endsWith('.js'))
        .map(async (f) => ({ f, size: (await stat(path.join(assets, f))).size })),
    );
    const script = `/assets/${sizes.sort((a, b) => b.size - a.size)[0]!.f}`;
    const plain = await get(script);
    const br = await get(script, { 'accept-encoding': 'br, gzip' });
    const gz = await get(script, { 'accept-encoding': 'gzip' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(br.headers['content-encoding']).toBe('br');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(gz.headers.vary).toContain('Accept-Encoding');
    const page = await get('/pt/blog', { 'accept-encoding': 'gzip' });
    expect(page.headers['content-encoding']).toBe('gzip');
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect((await get(`${script}.br`)).statusCode).toBe(404);
  });

  it('answers 304 to a revalidation with the same ETag', async () => {
    const first = await get('/blog');
    expect(first.headers.etag).toBeTruthy();
    const again = await get('/blog', { 'if-none-match': String(first.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });
});
