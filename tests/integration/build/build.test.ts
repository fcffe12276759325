import { spawn } from 'node:child_process';
import { watch } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { loadSite } from '../../../src/build/pipeline';
import { editionUrl } from '../../../src/shared/route';
import { writeSyntheticSite } from '../../bench/synthetic';
import { site } from '../../support/cli';
import { copyOfContent, PROJECT_ROOT } from '../../support/content';
import { endedPid } from '../../support/processes';

describe('the build of the real content', () => {
  const distDir = inject('distDir');

  it('writes one page per route per language with its lang, canonical and alternates', async () => {
    const { site: model } = await loadSite(PROJECT_ROOT);
    for (const route of model!.routes) {
      for (const lang of route.meta.availableLangs) {
        const url = editionUrl(route, lang);
        const html = await readFile(path.join(distDir, `${url.slice(1)}.html`), 'utf8');
        expect(html.startsWith(`<!DOCTYPE html><html lang="${lang}">`), url).toBe(true);
        expect(html).toContain(`<link rel="canonical" href="https://duartesalgueiro.pt${url}"/>`);
        for (const other of route.meta.availableLangs) {
          expect(html).toContain(
            `<link rel="alternate" hrefLang="${other}" href="https://duartesalgueiro.pt${editionUrl(route, other)}"/>`,
          );
        }
        expect(html).toContain('hrefLang="x-default"');
        expect(html).toContain('<div id="app"');
        expect(html).toMatch(/<meta name="description" content="[^"]+"\/>/);
      }
    }
  });

  it('writes publication dates as each language does', async () => {
    const { site: model } = await loadSite(PROJECT_ROOT);
    const article = model!.articles.find((a) => a.editions.en && a.editions.pt)!;
    const date = article.editions.en!.source.frontMatter.date;
    const [year, month, day] = date.split('-').map(Number) as [number, number, number];
    const en = [
      'January',
      'February',
      'March',
      'April',
      'May',
      'June',
      'July',
      'August',
      'September',
      'October',
      'November',
      'December',
    ][month - 1];
    const pt = [
      'janeiro',
      'fevereiro',
      'março',
      'abril',
      'maio',
      'junho',
      'julho',
      'agosto',
      'setembro',
      'outubro',
      'novembro',
      'dezembro',
    ][month - 1];
    expect(await readFile(path.join(distDir, `${article.editions.en!.url.slice(1)}.html`), 'utf8')).toContain(
      `<time dateTime="${date}">${day} ${en} ${year}</time>`,
    );
    expect(await readFile(path.join(distDir, `${article.editions.pt!.url.slice(1)}.html`), 'utf8')).toContain(
      `<time dateTime="${date}">${day} de ${pt} de ${year}</time>`,
    );
  });

  it('never puts a block element inside a paragraph (a browser would split the paragraph)', async () => {
    const pages = (await readdir(distDir, { recursive: true })).filter((f) => f.endsWith('.html'));
    expect(pages.length).toBeGreaterThan(70);
    for (const file of pages) {
      const html = await readFile(path.join(distDir, file), 'utf8');
      expect(html, file).not.toMatch(/<p[ >](?:(?!<\/p>)[\s\S])*?<(div|section|ul|ol|figure|h[1-6]|form|table)[ >]/);
    }
  });

  it('writes the Not Found page in both languages and the two redirect pages', async () => {
    expect(await readFile(path.join(distDir, '404.html'), 'utf8')).toContain(
      'Oh oh, it looks like there is nothing here...',
    );
    expect(await readFile(path.join(distDir, 'pt/404.html'), 'utf8')).toContain('Oops, parece que não há nada aqui...');
    expect(await readFile(path.join(distDir, 'index.html'), 'utf8')).toContain('url=/aboutme');
    expect(await readFile(path.join(distDir, 'pt.html'), 'utf8')).toContain('url=/pt/aboutme');
  });

  it('ships one content-hashed module script, and inlines in each page the CSS of its kind', async () => {
    const assets = await readdir(path.join(distDir, 'assets'));
    const script = assets.find((f) => /^client\.[A-Z0-9]+\.js$/.test(f));
    expect(script).toBeTruthy();
    const page = await readFile(path.join(distDir, 'pt/professional.html'), 'utf8');
    expect(page).toContain(`<script type="module" src="/assets/${script}">`);
    expect(page).toMatch(/<style>[^<]*\.hero\{[^<]*<\/style>/);
    expect(page).not.toContain('rel="stylesheet"');
    expect(page).not.toContain('.gallery-dialog');
  });

  it('embeds island props as JSON but never the article body', async () => {
    const html = await readFile(path.join(distDir, 'blog/books/DangerousLiaisons.html'), 'utf8');
    const payloads = [...html.matchAll(/<script type="application\/json" data-island-props="">(.*?)<\/script>/g)].map(
      (m) => m[1] ?? '',
    );
    expect(payloads.length).toBeGreaterThan(0);
    for (const json of payloads) expect(() => JSON.parse(json)).not.toThrow();
    expect(payloads.join('')).not.toContain('Glossary');
  });
});

describe('site build on broken content', () => {
  let content: Awaited<ReturnType<typeof copyOfContent>>;
  beforeEach(async () => {
    content = await copyOfContent();
  });
  afterEach(async () => {
    await content.cleanup();
  });

  it('exits 1 naming file, line and field, and leaves the previous dist/ exactly as it was', async () => {
    const dist = path.join(content.root, 'dist');
    await mkdir(dist);
    await writeFile(path.join(dist, 'previous.html'), 'the previous build');
    await content.edit('content/pages/atelier.json', (t) =>
      t.replace(/"viewsNote": \{\s*"en": "[^"]*"/, '"viewsNote": {\n    "en": 40000'),
    );

    const result = await site(['--root', content.root, 'build']);

    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/content\/pages\/atelier\.json:\d+:\d+ error SCHEMA001: viewsNote\.en: /);
    expect(result.stderr).toContain('hint:');
    expect(result.stderr).not.toMatch(/at .*\.ts:\d+/);
    expect(await readdir(dist)).toEqual(['previous.html']);
    expect(await readFile(path.join(dist, 'previous.html'), 'utf8')).toBe('the previous build');
  });

  it('replaces dist/ when the content is fixed, and prints a one-line summary under --quiet', async () => {
    const dist = path.join(content.root, 'dist');
    await mkdir(dist);
    await writeFile(path.join(dist, 'previous.html'), 'the previous build');
    const result = await site(['--root', content.root, 'build', '--quiet']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^✓ built \d+ pages \(en \d+, pt \d+\) into dist\/ in \d+\.\d\d s, \d+ files written\n$/,
    );
    const files = await readdir(dist);
    expect(files).not.toContain('previous.html');
    expect(files).toEqual(expect.arrayContaining(['aboutme.html', '404.html', 'assets', 'media']));
    expect((await readdir(content.root)).filter((f) => f.startsWith('.dist-'))).toEqual([]);
  });

  it('prints the page weight of every page kind and where the time went, but only the summary line under CI', async () => {
    const outside = await site(['--root', content.root, 'build'], { CI: '' });
    expect(outside.code).toBe(0);
    for (const kind of [
      'aboutme',
      'professional',
      'projects',
      'atelier',
      'blog',
      'category',
      'gallery',
      'article',
      'notfound',
    ]) {
      expect(outside.stdout).toMatch(new RegExp(`^${kind} +\\d+ +[\\d.]+ / [\\d.]+`, 'm'));
    }
    expect(outside.stdout).toMatch(
      /^ {2}images [\d.]+ s · load [\d.]+ s · markdown [\d.]+ s · model .* · check .* · write [\d.]+ s$/m,
    );
    const underCi = await site(['--root', content.root, 'build'], { CI: 'true' });
    expect(underCi.stdout).toMatch(/^✓ built \d+ pages .*\n$/);
    expect(underCi.stdout.split('\n').filter(Boolean)).toHaveLength(1);
  });

  it('rewrites media URLs to the image CDN when the site config names one', async () => {
    await content.edit('content/site.json', (t) =>
      t.replace('"defaultLang"', '"imageCdn": "https://img.example.net",\n  "defaultLang"'),
    );
    const result = await site(['--root', content.root, 'build']);
    expect(result.code).toBe(0);
    const html = await readFile(path.join(content.root, 'dist/blog/tech/Site.html'), 'utf8');
    expect(html).toContain('src="https://img.example.net/media/blog/tech/site-pipeline.svg"');
    expect(html).not.toMatch(/src="\/media\//);
  });
});

describe('site build after a build that was stopped midway', () => {
  it('removes the staging folder the stopped build left beside the output', async () => {
    const content = await copyOfContent({ articles: 'clean' });
    try {
      // As a build stopped by Ctrl-C while writing leaves it, named by its process.
      const abandoned = path.join(content.root, `.dist-new-${endedPid()}-1700000000000`);
      await mkdir(path.join(abandoned, 'blog'), { recursive: true });
      await writeFile(path.join(abandoned, 'blog', 'index.html'), '<!DOCTYPE html>');
      const result = await site(['--root', content.root, 'build', '--quiet']);
      expect(result.code).toBe(0);
      expect((await readdir(content.root)).filter((name) => name.startsWith('.dist-'))).toEqual([]);
    } finally {
      await content.cleanup();
    }
  });

  it('removes the temporary files a stopped build left in its cache', async () => {
    const content = await copyOfContent({ articles: 'clean' });
    try {
      // As a build or `site dev` stopped while rewriting a cache file, or a worker storing a body, leaves them.
      const cache = path.join(content.root, '.cache', 'site');
      await mkdir(path.join(cache, 'bodies'), { recursive: true });
      const pid = endedPid();
      await writeFile(path.join(cache, `checks.bin.${pid}.tmp`), '');
      await writeFile(path.join(cache, 'bodies', `0f3a.${pid}.1.tmp`), 'partial');
      const result = await site(['--root', content.root, 'build', '--quiet']);
      expect(result.code).toBe(0);
      expect((await readdir(cache)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
      expect((await readdir(path.join(cache, 'bodies'))).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    } finally {
      await content.cleanup();
    }
  });
});

describe('site build stopped by Ctrl-C', () => {
  it('stops at its next step, takes its staging folder away at once and leaves dist/ as it was', async () => {
    // A site of 200 articles: its pages take long enough to render for the stop to land among them.
    const root = await mkdtemp(path.join(os.tmpdir(), 'site-stopped-'));
    try {
      await writeSyntheticSite(PROJECT_ROOT, root, 200);
      expect((await site(['--root', root, 'build', '--quiet'])).code).toBe(0);
      const page = path.join(root, 'dist', 'aboutme.html');
      const before = await readFile(page, 'utf8');
      // A build that renders every English page again (their footer changed), stopped as soon as
      // its staging folder appears beside dist/, with its first page.
      const strings = path.join(root, 'content', 'strings.json');
      await writeFile(
        strings,
        (await readFile(strings, 'utf8')).replace(
          '"en": "All rights reserved."',
          '"en": "All rights reserved, and more."',
        ),
      );
      const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'bin/site'), '--root', root, 'build', '--quiet'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      // One Ctrl-C: a second would end the process at once, as it is meant to.
      let stopped = false;
      const watcher = watch(root, (_event, name) => {
        if (stopped || !name?.startsWith('.dist-new-')) return;
        stopped = true;
        child.kill('SIGINT');
      });
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve)).finally(() =>
        watcher.close(),
      );
      expect(code).toBe(130);
      expect(stderr).toContain('✗ build stopped: dist left unchanged');
      expect((await readdir(root)).filter((name) => name.startsWith('.dist-new-'))).toEqual([]);
      expect(await readFile(page, 'utf8')).toBe(before);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
    // Writing the site and its first build (its photos encoded, its 400 share cards drawn) take
    // about 30 s alone, more on a busy machine.
  }, 240_000);
});

describe('site build --no-cache', () => {
  it('keeps the compiled bodies in a temporary folder while it runs, not in memory, and leaves nothing behind', async () => {
    const content = await copyOfContent({ articles: 'clean' });
    const tmp = await mkdtemp(path.join(os.tmpdir(), 'site-tmpdir-'));
    try {
      // Watch the system's temporary folder (TMPDIR, for this build) while the build runs.
      let bytes = 0;
      let running = true;
      const watching = (async () => {
        while (running) {
          for (const name of await readdir(tmp).catch(() => [])) {
            if (!name.startsWith('site-bodies-')) continue;
            const dir = path.join(tmp, name);
            const sizes = await Promise.all(
              (await readdir(dir).catch(() => [])).map((file) =>
                stat(path.join(dir, file)).then(
                  (s) => s.size,
                  () => 0,
                ),
              ),
            );
            bytes = Math.max(
              bytes,
              sizes.reduce((sum, size) => sum + size, 0),
            );
          }
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
      const result = await site(['--root', content.root, 'build', '--quiet', '--no-cache'], { TMPDIR: tmp }).finally(
        () => {
          running = false;
        },
      );
      await watching;
      expect(result.code).toBe(0);
      // The HTML and text of every body of the site's articles (some 18 kB).
      expect(bytes).toBeGreaterThan(10_000);
      // Neither its bodies' folder nor its photos' (the loader of the command's own code keeps a folder there too).
      expect((await readdir(tmp)).filter((name) => name.startsWith('site-'))).toEqual([]);
      expect(await readdir(content.root)).not.toContain('.cache');
    } finally {
      await rm(tmp, { recursive: true, force: true });
      await content.cleanup();
    }
  });
});
