import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../../server/app';
import { loadSite } from '../../../src/build/pipeline';
import { articlesIn } from '../../../src/render/pages';
import { editionUrl } from '../../../src/shared/route';
import { site as runSite } from '../../support/cli';
import { copyOfContent, PROJECT_ROOT } from '../../support/content';

const BASE = 'https://duartesalgueiro.pt';
const distDir = inject('distDir');
const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' });
const { site } = await loadSite(PROJECT_ROOT);
const asArray = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildApp({ distDir });
});
afterAll(async () => {
  await app.close();
});

describe('sitemap.xml', () => {
  const read = async () => {
    const xml = parser.parse(await readFile(path.join(distDir, 'sitemap.xml'), 'utf8')) as {
      urlset: { url: { loc: string; lastmod?: string; 'xhtml:link': { hreflang: string; href: string }[] }[] };
    };
    return xml.urlset.url;
  };

  it('lists every edition of the route table exactly once, with a last-modified date', async () => {
    const urls = await read();
    const expected = site!.routes.flatMap((r) => r.meta.availableLangs.map((l) => BASE + editionUrl(r, l))).sort();
    expect(urls.map((u) => u.loc).sort()).toEqual(expected);
    for (const url of urls) expect(url.lastmod, url.loc).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('gives each edition symmetric hreflang alternates and an x-default', async () => {
    const urls = await read();
    const byLoc = new Map(urls.map((u) => [u.loc, u]));
    for (const url of urls) {
      const links = asArray(url['xhtml:link']);
      const alternates = links.filter((l) => l.hreflang !== 'x-default');
      expect(
        alternates.map((l) => l.href),
        url.loc,
      ).toContain(url.loc);
      for (const alternate of alternates) {
        const other = byLoc.get(alternate.href);
        expect(other, alternate.href).toBeDefined();
        expect(
          asArray(other!['xhtml:link'])
            .map((l) => l.href)
            .sort(),
        ).toEqual(links.map((l) => l.href).sort());
      }
      expect(links.filter((l) => l.hreflang === 'x-default')).toHaveLength(1);
    }
  });

  it('has links that all answer 200, and is named in robots.txt', async () => {
    for (const url of await read())
      expect((await app.inject({ url: url.loc.slice(BASE.length) })).statusCode, url.loc).toBe(200);
    const robots = await app.inject({ url: '/robots.txt' });
    expect(robots.body).toContain(`Sitemap: ${BASE}/sitemap.xml`);
  });
});

describe('the RSS feeds', () => {
  for (const lang of ['en', 'pt'] as const) {
    it(`list every ${lang} article, newest first, with absolute links that answer`, async () => {
      const feed = parser.parse(await readFile(path.join(distDir, `feed.${lang}.xml`), 'utf8')) as {
        rss: {
          channel: { language: string; item: { title: string; link: string; description: string; pubDate: string }[] };
        };
      };
      const items = feed.rss.channel.item;
      expect(items).toHaveLength(site!.articles.filter((a) => a.editions[lang]).length);
      const dates = items.map((i) => Date.parse(i.pubDate));
      expect([...dates].sort((a, b) => b - a)).toEqual(dates);
      // In the order each category's page lists its articles.
      const paths = items.map((i) => i.link.slice(BASE.length));
      for (const key of site!.categories.keys()) {
        const listed = articlesIn(site!, key, lang).map((a) => a.url);
        expect(
          paths.filter((p) => listed.includes(p)),
          key,
        ).toEqual(listed);
      }
      for (const item of items) {
        expect(item.title && item.description, item.link).toBeTruthy();
        expect(item.link.startsWith(`${BASE}/`)).toBe(true);
        expect((await app.inject({ url: item.link.slice(BASE.length) })).statusCode, item.link).toBe(200);
      }
      const page = await readFile(path.join(distDir, lang === 'pt' ? 'pt/blog.html' : 'blog.html'), 'utf8');
      expect(page).toContain(`<link rel="alternate" type="application/rss+xml" title="`);
      expect(page).toContain(`href="/feed.${lang}.xml"/>`);
    });
  }
});

describe('share and structured data', () => {
  it('puts Open Graph and Twitter tags on every page, with the locale and its alternate', async () => {
    const html = await readFile(path.join(distDir, 'pt/blog/tech/Site.html'), 'utf8');
    expect(html).toContain('<meta property="og:type" content="article"/>');
    expect(html).toContain('<meta property="og:locale" content="pt_PT"/>');
    expect(html).toContain('<meta property="og:locale:alternate" content="en_GB"/>');
    // The share image is the edition's own card (tests/integration/build/cards.test.ts), named by
    // its inputs' hash and cached for ever.
    const image = /<meta property="og:image" content="([^"]+)"\/>/.exec(html)?.[1] ?? '';
    expect(image).toMatch(new RegExp(`^${BASE}/assets/cards/pt/blog/tech/Site\\.[0-9a-f]{10}\\.png$`));
    const served = await app.inject({ url: image.slice(BASE.length) });
    expect([served.statusCode, served.headers['content-type'], served.headers['cache-control']]).toEqual([
      200,
      'image/png',
      'public, max-age=31536000, immutable',
    ]);
    expect(html).toContain('<meta property="og:image:width" content="1200"/>');
    expect(html).toContain('<meta property="og:image:height" content="630"/>');
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image"/>');
    expect(html).toContain(`<meta property="og:url" content="${BASE}/pt/blog/tech/Site"/>`);
  });

  it('describes the owner as a Person on About Me and each article as a BlogPosting', async () => {
    const jsonLd = async (file: string) =>
      JSON.parse(
        /<script type="application\/ld\+json">(.*?)<\/script>/
          .exec(await readFile(path.join(distDir, file), 'utf8'))![1]!
          .replace(/\\u003c/g, '<')
          .replace(/\\u003e/g, '>'),
      );
    expect(await jsonLd('aboutme.html')).toMatchObject({
      '@type': 'Person',
      name: 'Duarte Salgueiro',
      sameAs: expect.arrayContaining(['https://github.com/duarte-salgueiro']),
    });
    expect(await jsonLd('blog/culture/gulbenkian.html')).toMatchObject({
      '@type': 'BlogPosting',
      inLanguage: 'pt-PT',
      url: `${BASE}/blog/culture/gulbenkian`,
      author: { name: 'Duarte Salgueiro' },
    });
  });

  it('serves a web manifest', async () => {
    const manifest = await app.inject({ url: '/manifest.webmanifest' });
    expect(manifest.statusCode).toBe(200);
    const body = manifest.json() as { start_url: string; icons: { src: string; sizes: string; type: string }[] };
    expect(body.start_url).toBe('/aboutme');
    expect(body.icons.map((i) => i.sizes)).toEqual(['any', '192x192', '512x512']);
    for (const icon of body.icons) expect((await app.inject({ url: icon.src })).statusCode, icon.src).toBe(200);
    // The PNG icons are published as their fallbacks, at their own size.
    expect(body.icons.map((i) => i.src).slice(1)).toEqual([
      expect.stringMatching(/^\/assets\/media\/icons\/icon-192-192\.[0-9a-f]{10}\.png$/),
      expect.stringMatching(/^\/assets\/media\/icons\/icon-512-512\.[0-9a-f]{10}\.png$/),
    ]);
    expect(await readFile(path.join(distDir, 'aboutme.html'), 'utf8')).toMatch(
      /<link rel="apple-touch-icon" href="\/assets\/media\/icons\/icon-180-180\.[0-9a-f]{10}\.png"\/>/,
    );
  });
});

describe('--base-url', () => {
  it('replaces the configured base URL in canonical links, the sitemap and the feeds', async () => {
    const content = await copyOfContent();
    try {
      const result = await runSite(['--root', content.root, 'build', '--base-url', 'https://preview.example.org']);
      expect(result.code).toBe(0);
      const page = await readFile(path.join(content.root, 'dist/blog.html'), 'utf8');
      expect(page).toContain('<link rel="canonical" href="https://preview.example.org/blog"/>');
      expect(await readFile(path.join(content.root, 'dist/sitemap.xml'), 'utf8')).not.toContain(BASE);
      expect(await readFile(path.join(content.root, 'dist/feed.en.xml'), 'utf8')).toContain(
        'https://preview.example.org/blog/',
      );
      expect((await runSite(['--root', content.root, 'build', '--base-url', 'preview'])).code).toBe(1);
    } finally {
      await content.cleanup();
    }
  });
});
