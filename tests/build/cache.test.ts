import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyOfTool, differences, filesUnder } from '../support/tool';

const run = promisify(execFile);

/**
 * The build cache must never serve stale output. A private copy of the tool (its code, templates
 * and a content tree with the fixed stand-in articles) is built, changed in one way, built again
 * with the cache, and built once more from scratch: the two outputs must be the same, byte for
 * byte, compressed copies included. The copy is what lets a test edit templates and pipeline code.
 */
describe('the build cache', () => {
  let tool: string;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    ({ root: tool, cleanup } = await copyOfTool());
    await build();
  });

  afterAll(async () => {
    await cleanup();
  });

  async function build(...args: string[]): Promise<string> {
    const { stdout } = await run(process.execPath, [path.join(tool, 'bin', 'site'), '--root', tool, 'build', '--quiet', ...args], { env: { ...process.env, NO_COLOR: '1' } });
    return stdout;
  }

  async function edit(file: string, change: (text: string) => string): Promise<void> {
    const absolute = path.join(tool, file);
    const before = await readFile(absolute, 'utf8');
    const after = change(before);
    expect(after, `the edit of ${file} changes it`).not.toBe(before);
    await writeFile(absolute, after);
  }

  /** Builds with the cache and from scratch; returns how many files the incremental build wrote. */
  async function expectSameAsColdBuild(): Promise<number> {
    const incremental = await build();
    await build('--no-cache', '--out', 'dist-cold');
    const [warm, cold] = await Promise.all([filesUnder(path.join(tool, 'dist')), filesUnder(path.join(tool, 'dist-cold'))]);
    expect(differences(warm, cold)).toEqual([]);
    await rm(path.join(tool, 'dist-cold'), { recursive: true, force: true });
    return Number(/(\d+) files written/.exec(incremental)?.[1] ?? 0);
  }

  it('writes nothing when nothing changed, not even the manifest of the output', async () => {
    const manifests = async () => {
      const dir = path.join(tool, '.cache', 'site');
      const names = (await readdir(dir)).filter((name) => name.startsWith('output-')).sort();
      return Promise.all(names.map(async (name) => `${name} ${(await stat(path.join(dir, name))).mtimeMs}`));
    };
    const before = await manifests();
    expect(await build()).toMatch(/nothing changed\n$/);
    expect(await manifests()).toEqual(before);
    expect(await expectSameAsColdBuild()).toBe(0);
  });

  it('matches a cold build after an article is edited, rewriting only what shows it', async () => {
    await edit('content/blog/books/DangerousLiaisons.en.md', (t) => t.replace(/\n\n([^\n]+)\n/, '\n\nAn added sentence about letters. $1\n'));
    const written = await expectSameAsColdBuild();
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThan(20);
  });

  it('explains a body edit: the edited text compiled again, and only its own page rendered again', async () => {
    await edit('content/blog/books/DangerousLiaisons.en.md', (t) => t.replace('An added sentence about letters.', 'An added sentence about the letters.'));
    const explained = await build('--explain');
    expect(explained).toContain('changed: text\n    content/blog/books/DangerousLiaisons.en.md');
    expect(explained).toMatch(/changed: edition en\n {4}blog\/books\/DangerousLiaisons\.html\n {4}pt\/blog\/books\/DangerousLiaisons\.html\n/);
    expect(explained).not.toContain('listing');
    // The sitemap and the feeds show no body: they are carried over.
    expect(explained).not.toMatch(/sitemap\.xml|feed\.(en|pt)\.xml/);
    expect(await build('--explain')).toContain('Nothing was made again');
  });

  it('matches a cold build after an article title is edited, rendering its page and the listings that show it', async () => {
    await edit('content/blog/books/DangerousLiaisons.en.md', (t) => t.replace(/^title: .*$/m, 'title: Dangerous Liaisons, read again'));
    const explained = await build('--explain');
    expect(explained).toMatch(/changed: listing\n {4}blog\.html\n {4}blog\/books\.html\n/);
    expect(explained).not.toContain('pt/blog.html');
    expect(explained).not.toContain('aboutme.html');
    // The English feed shows the title; the Portuguese feed does not, nor the sitemap (URLs and dates).
    expect(explained).toMatch(/changed: listing\n(?: {4}\S+\n)* {4}feed\.en\.xml\n/);
    expect(explained).not.toContain('feed.pt.xml');
    expect(explained).not.toContain('sitemap.xml');
    await expectSameAsColdBuild();
    expect(await readFile(path.join(tool, 'dist/blog/books.html'), 'utf8')).toContain('Dangerous Liaisons, read again');
  });

  it('matches a cold build after an article title is edited, on the page of the article before it', async () => {
    // An older article in the same category and language: the edited one is its next.
    await writeFile(path.join(tool, 'content/blog/books/Letters.en.md'), '---\ntitle: Letters from a quiet year\ndescription: Short letters.\ndate: 2019-05-01\n---\n\nA paragraph of letters.\n');
    await expectSameAsColdBuild();
    await edit('content/blog/books/DangerousLiaisons.en.md', (t) => t.replace(/^title: .*$/m, 'title: Dangerous Liaisons, next door'));
    expect(await build('--explain')).toMatch(/changed: around\n {4}blog\/books\/Letters\.html\n/);
    await expectSameAsColdBuild();
    expect(await readFile(path.join(tool, 'dist/blog/books/Letters.html'), 'utf8')).toContain('<span class="article__around-title">Dangerous Liaisons, next door</span>');
    await unlink(path.join(tool, 'content/blog/books/Letters.en.md'));
    await expectSameAsColdBuild();
  });

  it('matches a cold build after an article date is edited, making the sitemap again for its last change', async () => {
    // A day past: a later one would make it scheduled, and leave it out.
    await edit('content/blog/books/DangerousLiaisons.pt.md', (t) => t.replace(/^date: .*$/m, 'date: 2025-01-02'));
    const explained = await build('--explain');
    expect(explained).toMatch(/changed: dates\n {4}sitemap\.xml\n/);
    await expectSameAsColdBuild();
    expect(await readFile(path.join(tool, 'dist/sitemap.xml'), 'utf8')).toContain('<lastmod>2025-01-02</lastmod>');
  });

  it('matches a cold build after a translation is added, which moves links in other articles', async () => {
    await writeFile(
      path.join(tool, 'content/blog/culture/gulbenkian.en.md'),
      '---\ntitle: An afternoon at the Gulbenkian\ndescription: A visit to the foundation.\ndate: 2025-02-16\n---\n\nThe garden first.\n',
    );
    await expectSameAsColdBuild();
    const site = await readFile(path.join(tool, 'dist/pt/blog/tech/Site.html'), 'utf8');
    expect(site).toContain('href="/pt/blog/culture/gulbenkian"');
  });

  it('matches a cold build after a UI string changes', async () => {
    await edit('content/strings.json', (t) => t.replace('"Skip to content"', '"Skip to the content"'));
    await expectSameAsColdBuild();
    expect(await readFile(path.join(tool, 'dist/aboutme.html'), 'utf8')).toContain('Skip to the content');
  });

  it('matches a cold build after a template changes', async () => {
    await edit('templates/pages/Article.tsx', (t) => t.replace('<article className="section article">', '<article className="section article" data-edited="">'));
    await expectSameAsColdBuild();
    expect(await readFile(path.join(tool, 'dist/blog/tech/Site.html'), 'utf8')).toContain('data-edited=""');
  });

  it('matches a cold build after the markdown pipeline changes', async () => {
    await edit('src/markdown/compile.ts', (t) => t.replace("node.properties.decoding = 'async';", "node.properties.decoding = 'auto';"));
    await expectSameAsColdBuild();
    expect(await readFile(path.join(tool, 'dist/blog/tech/Site.html'), 'utf8')).toContain('decoding="auto"');
  });

  it('sees a pipeline constant edited in a module the compiler imports indirectly, and names the file', async () => {
    // Quotes 40 deep build under the limit of 64; lowered to 32, the cached compile must not be reused.
    await writeFile(path.join(tool, 'content/blog/books/Deep.en.md'), `---\ntitle: Quotes within quotes\ndescription: Deep.\ndate: 2020-01-01\n---\n\n${'> '.repeat(40)}deep\n`);
    await expectSameAsColdBuild();
    await edit('src/load/limits.ts', (t) => t.replace('export const MAX_DEPTH = 64;', 'export const MAX_DEPTH = 32;'));
    const failed = await build('--explain').then(
      () => undefined,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(`${failed?.stdout}${failed?.stderr}`).toContain('DEPTH001');
    await edit('src/load/limits.ts', (t) => t.replace('export const MAX_DEPTH = 32;', 'export const MAX_DEPTH = 64;'));
    await unlink(path.join(tool, 'content/blog/books/Deep.en.md'));
    // An edit that changes no output: the file is named, and every output is still the same.
    await edit('src/load/limits.ts', (t) => `${t}\n// A comment a contributor added.\n`);
    const explained = await build('--explain');
    expect(explained).toContain('changed: code: src/load/limits.ts\n');
    await expectSameAsColdBuild();
  });

  it('matches a cold build after an image is replaced', async () => {
    const image = 'content/media/owner/portrait.svg';
    await writeFile(path.join(tool, image), '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><title>replaced</title></svg>\n');
    await expectSameAsColdBuild();
    expect(await readFile(path.join(tool, 'dist/media/owner/portrait.svg'), 'utf8')).toContain('replaced');
  });

  it('matches a cold build after a file is deleted, and the deleted page is gone', async () => {
    await unlink(path.join(tool, 'content/blog/books/DangerousLiaisons.pt.md'));
    await expectSameAsColdBuild();
    await expect(readFile(path.join(tool, 'dist/pt/blog/books/DangerousLiaisons.html'))).rejects.toThrow();
  });

  it('matches a cold build after a category is deleted, and its pages are gone', async () => {
    await unlink(path.join(tool, 'content/categories/music.json'));
    await edit('content/pages/blog.json', (t) => t.replace('    "music",\n', ''));
    await expectSameAsColdBuild();
    await expect(readFile(path.join(tool, 'dist/blog/music.html'))).rejects.toThrow();
    await expect(readFile(path.join(tool, 'dist/pt/blog/music.html'))).rejects.toThrow();
    expect(await readFile(path.join(tool, 'dist/sitemap.xml'), 'utf8')).not.toContain('/blog/music');
  });

  it('starts a swap from the output before the previous one, kept beside dist/, and links again what it lacks', async () => {
    // Kept by the earlier builds' swaps: the output before the current one.
    const spare = path.join(tool, '.dist-spare');
    expect((await stat(spare)).isDirectory()).toBe(true);
    // Changed by hand: a page and a compressed copy gone, a file and a folder its manifest does not name.
    await unlink(path.join(spare, 'aboutme.html'));
    await unlink(path.join(spare, 'atelier.html.br'));
    await writeFile(path.join(spare, 'extra.txt'), 'not a page of the site');
    await mkdir(path.join(spare, 'blog', 'gone', 'deeper'), { recursive: true });
    await edit('content/blog/books/DangerousLiaisons.en.md', (t) => t.replace('An added sentence about the letters.', 'An added sentence about the letter.'));
    await expectSameAsColdBuild();
    expect(await readFile(path.join(tool, 'dist/aboutme.html'), 'utf8')).toContain('<html');
    expect((await stat(path.join(tool, 'dist/atelier.html.br'))).size).toBeGreaterThan(0);
    await expect(stat(path.join(tool, 'dist/extra.txt'))).rejects.toThrow();
    await expect(stat(path.join(tool, 'dist/blog/gone'))).rejects.toThrow();
    // No folder of a build is left behind but the spare.
    expect((await readdir(tool)).filter((name) => name.startsWith('.dist'))).toEqual(['.dist-spare']);
  });

  it('builds everything again when a file of the previous output was deleted by hand', async () => {
    await unlink(path.join(tool, 'dist/aboutme.html'));
    await edit('content/blog/books/DangerousLiaisons.en.md', (t) => t.replace('An added sentence', 'One added sentence'));
    await expectSameAsColdBuild();
    expect(await readFile(path.join(tool, 'dist/aboutme.html'), 'utf8')).toContain('<html');
  });

  it('compiles bodies again when the cache of their HTML was deleted by hand', async () => {
    await rm(path.join(tool, '.cache/site/bodies'), { recursive: true });
    await edit('content/blog/books/DangerousLiaisons.en.md', (t) => t.replace('One added sentence', 'A further sentence'));
    await expectSameAsColdBuild();
    expect(await readFile(path.join(tool, 'dist/blog/books/DangerousLiaisons.html'), 'utf8')).toContain('A further sentence');
  });
});
