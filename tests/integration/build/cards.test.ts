import { execFile } from 'node:child_process';
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CardInputsLog, cardHashOf } from '../../../src/cards/inputsLog';
import { cardHash } from '../../../src/cards/plan';
import { digest } from '../../../src/load/digest';
import { readManifestLog } from '../../../src/write/manifest';
import { copyOfTool } from '../../support/tool';

const run = promisify(execFile);
const distDir = inject('distDir');

/** The share card a built page names, with what its head says of it. */
async function cardOf(
  dist: string,
  page: string,
): Promise<{ url: string; file: string; bytes: Buffer; alt: string; size: [string, string] }> {
  const html = await readFile(path.join(dist, page), 'utf8');
  const meta = (property: string) =>
    new RegExp(`<meta (?:property|name)="${property}" content="([^"]*)"/>`).exec(html)?.[1] ?? '';
  const url = meta('og:image');
  expect(meta('og:image:type'), page).toBe('image/png');
  expect(meta('twitter:image'), page).toBe(url);
  expect(meta('twitter:image:alt'), page).toBe(meta('og:image:alt'));
  expect(meta('twitter:card'), page).toBe('summary_large_image');
  const file = new URL(url).pathname.slice(1);
  return {
    url,
    file,
    bytes: await readFile(path.join(dist, file)),
    alt: meta('og:image:alt'),
    size: [meta('og:image:width'), meta('og:image:height')],
  };
}

describe('the share cards of the real site', () => {
  it('name a 1200×630 PNG of its own on every page, in both languages', async () => {
    const pages = (await readdir(distDir, { recursive: true })).filter(
      (file) => file.endsWith('.html') && !/^(index|pt\/index|pt)\.html$/.test(file),
    );
    const seen = new Set<string>();
    for (const page of pages) {
      const html = await readFile(path.join(distDir, page), 'utf8');
      // The redirect pages at "/" and "/pt" have no head of their own.
      if (!html.includes('og:image')) continue;
      const card = await cardOf(distDir, page);
      expect(card.file, page).toMatch(/^assets\/cards\/.+\.[0-9a-f]{10}\.png$/);
      expect(card.size, page).toEqual(['1200', '630']);
      expect(card.alt.length, page).toBeGreaterThan(10);
      const { format, width, height } = await sharp(card.bytes).metadata();
      expect([format, width, height], page).toEqual(['png', 1200, 630]);
      seen.add(card.file);
    }
    expect(seen.size).toBeGreaterThan(70);
  });

  it('differ between an article’s two editions, each in its language', async () => {
    const en = await cardOf(distDir, 'blog/tech/Git.html');
    const pt = await cardOf(distDir, 'pt/blog/tech/Git.html');
    expect(en.bytes.equals(pt.bytes)).toBe(false);
    expect(en.alt).toMatch(
      /^Git, from the first commit to GitHub Actions · Tech · \d+ \w+ \d{4} · \d+ min read · Duarte Salgueiro$/,
    );
    expect(pt.alt).toMatch(
      /^Git, do primeiro commit às GitHub Actions · Tech · \d+ de \w+ de \d{4} · \d+ min de leitura · Duarte Salgueiro$/,
    );
  });

  it.each([
    ['the About Me page', 'aboutme.html', 'About Me · Duarte Salgueiro'],
    ['the Portuguese About Me page', 'pt/aboutme.html', 'Sobre Mim · Duarte Salgueiro'],
    ['a category', 'blog/tech.html', 'Tech · Duarte Salgueiro'],
    ['a gallery', 'pt/blog/gastronomy.html', 'Gastronomia · Duarte Salgueiro'],
    ['the Not Found page', '404.html', 'Page not found · Duarte Salgueiro'],
  ])('of %s names its title and the site in its alternative text, a picture of its own', async (_, page, alt) => {
    const card = await cardOf(distDir, page);
    expect(card.alt).toBe(alt);
    const { width, height } = await sharp(card.bytes).metadata();
    expect([width, height]).toEqual([1200, 630]);
    const article = await cardOf(distDir, 'blog/tech/Git.html');
    expect(card.bytes.equals(article.bytes)).toBe(false);
  });

  it('are never loaded by the page itself: named only in its head', async () => {
    const html = await readFile(path.join(distDir, 'blog/tech/Git.html'), 'utf8');
    const { url } = await cardOf(distDir, 'blog/tech/Git.html');
    const file = new URL(url).pathname;
    expect(html.split(file).length - 1).toBe(2);
    expect(html).not.toMatch(new RegExp(`(src|href)="[^"]*${file.replace(/\./g, '\\.')}`));
  });
});

/**
 * A card is an output like any other: made again when what it shows changes, and only then. A
 * private copy of the tool with the fixed stand-in articles, built, edited, built again with
 * `--explain`.
 */
describe('a share card made again', () => {
  let tool: string;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    ({ root: tool, cleanup } = await copyOfTool());
    await build();
  });

  afterAll(async () => {
    await cleanup();
  });

  async function build(): Promise<string> {
    const { stdout } = await run(
      process.execPath,
      [path.join(tool, 'bin', 'site'), '--root', tool, 'build', '--quiet', '--explain'],
      { env: { ...process.env, NO_COLOR: '1' } },
    );
    return stdout;
  }

  async function edit(file: string, change: (text: string) => string): Promise<void> {
    const absolute = path.join(tool, 'content/blog', file);
    const before = await readFile(absolute, 'utf8');
    const after = change(before);
    expect(after, `the edit of ${file} changes it`).not.toBe(before);
    await writeFile(absolute, after);
  }

  const dist = () => path.join(tool, 'dist');
  /**
   * Each card's entry in the output's manifest against the file in dist/: the digest and length a
   * drawing thread reported, or the build read back, are those of the bytes published.
   */
  async function expectCardsRecordedAsPublished(): Promise<void> {
    const logs = (await readdir(path.join(tool, '.cache/site'))).filter((name) => /^output-.*\.log$/.test(name));
    const manifests = await Promise.all(logs.map((name) => readManifestLog(path.join(tool, '.cache/site', name))));
    const manifest = manifests.find((read) => read?.manifest.outDir === dist())?.manifest;
    const cards = [...(manifest?.files ?? [])].filter(([file]) => file.startsWith('assets/cards/'));
    expect(cards.length).toBeGreaterThan(20);
    for (const [file, entry] of cards) {
      const bytes = await readFile(path.join(dist(), file));
      expect({ file, hash: entry.hash, bytes: entry.bytes }).toEqual({
        file,
        hash: digest(bytes),
        bytes: bytes.byteLength,
      });
    }
  }
  const cardLines = (explained: string) => explained.split('\n').filter((line) => line.includes('assets/cards/'));

  it('take no room of their own in the output: each is the build cache’s file, and stays whole once the cache lets it go', async () => {
    // Drawn by this build: published as its drawing thread wrote it.
    await expectCardsRecordedAsPublished();
    const card = await cardOf(dist(), 'blog/tech/Site.html');
    const hash = /\.([0-9a-f]{10})\.png$/.exec(card.file)?.[1];
    const cached = path.join(tool, '.cache/site/cards', `${hash}.png`);
    const [inOutput, inCache] = await Promise.all([stat(path.join(dist(), card.file)), stat(cached)]);
    expect(inOutput.ino).toBe(inCache.ino);
    // The cache's card removed (a later build's prune of a card no page names): the output's is intact.
    await rm(cached);
    expect((await readFile(path.join(dist(), card.file))).equals(card.bytes)).toBe(true);
    // With the output gone too, the next build draws it again: the same bytes, in the cache and the output.
    await rm(dist(), { recursive: true });
    await build();
    expect((await readFile(cached)).equals(card.bytes)).toBe(true);
    expect((await cardOf(dist(), 'blog/tech/Site.html')).bytes.equals(card.bytes)).toBe(true);
    // The others found in the cache, read from it to be published.
    await expectCardsRecordedAsPublished();
  });

  it('keep what their drawing learnt for the next builds, under the fingerprint of the code that draws, and no other code’s', async () => {
    const cards = path.join(tool, '.cache/site/cards');
    const kept = (await readdir(cards)).filter((name) => /^drawer\..*\.bin$/.test(name));
    // The first build drew the site's cards in a process of its own, which wrote what it learnt.
    expect(kept).toHaveLength(1);
    // What other code's drawers learnt is not kept: the next build that makes a card prunes the
    // folder, and drops it (one that makes none has nothing to prune, and does not look).
    await writeFile(path.join(cards, 'drawer.other-code.bin'), 'learnt by other code');
    await edit('tech/Site.pt.md', (text) => text.replace(/\n\n## /, '\n\nUma frase a mais.\n\n## '));
    await build();
    expect((await readdir(cards)).filter((name) => /^drawer\..*\.bin$/.test(name))).toHaveLength(2);
    await edit('tech/Site.pt.md', (text) =>
      text.replace('title: Como este site é feito', 'title: Como este site é feito, por dentro'),
    );
    await build();
    expect((await readdir(cards)).filter((name) => /^drawer\..*\.bin$/.test(name))).toEqual(kept);
  });

  it('after a title edit: that edition’s card alone, with the new title, under a new name', async () => {
    const [en, pt] = await Promise.all([
      cardOf(dist(), 'blog/tech/Site.html'),
      cardOf(dist(), 'pt/blog/tech/Site.html'),
    ]);
    await edit('tech/Site.en.md', (text) =>
      text.replace('title: How this site is built', 'title: How this site is made, from markdown to a page'),
    );
    const explained = await build();
    const [en2, pt2] = await Promise.all([
      cardOf(dist(), 'blog/tech/Site.html'),
      cardOf(dist(), 'pt/blog/tech/Site.html'),
    ]);
    expect(en2.file).not.toBe(en.file);
    expect(en2.bytes.equals(en.bytes)).toBe(false);
    expect(en2.alt).toMatch(/^How this site is made, from markdown to a page · /);
    expect(pt2).toEqual(pt);
    // --explain lists it with the input that changed, and no other card.
    expect(cardLines(explained).map((line) => line.trim())).toEqual([en2.file]);
    expect(explained).toMatch(new RegExp(`changed: title\\n\\s+${en2.file.replace(/\./g, '\\.')}`));
    // The old card is gone from the output.
    await expect(readFile(path.join(dist(), en.file))).rejects.toThrow();
    // Its name is the hash of the inputs the build kept for it, which hold the new title.
    const hash = cardHashOf(en2.file) as string;
    const inputs = await new CardInputsLog(path.join(tool, '.cache/site/cards/inputs.log')).of(hash);
    expect(inputs?.title).toBe('How this site is made, from markdown to a page');
    expect(cardHash(inputs ?? {})).toBe(hash);
  });

  it('after a body edit: no card, the same bytes under the same name', async () => {
    const before = await cardOf(dist(), 'blog/tech/Site.html');
    await edit('tech/Site.en.md', (text) =>
      text.replace(
        '## Rendering',
        'A sentence added to the body, short enough to keep its reading time.\n\n## Rendering',
      ),
    );
    const explained = await build();
    expect(explained).toMatch(/changed: edition en/);
    expect(cardLines(explained)).toEqual([]);
    const after = await cardOf(dist(), 'blog/tech/Site.html');
    expect(after.file).toBe(before.file);
    expect(after.bytes.equals(before.bytes)).toBe(true);
  });
});
