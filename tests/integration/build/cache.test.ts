import { mkdir, readdir, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { formatExplanation } from '../../../src/build/explain';
import { type BuildResult, build } from '../../../src/build/pipeline';
import { forgetBuild } from '../../../src/build/replay';
import { readManifestLog } from '../../../src/write/manifest';
import { type LogPrefix, readFirstRecord, readLog, rewriteLog } from '../../../src/write/recordLog';
import { coldBuild } from '../../support/cold';
import { type SmallSite, smallSite } from '../../support/content';
import { cameraPhoto } from '../../support/photo';
import { differences, filesUnder } from '../../support/tool';

// A build from nothing takes about a second here and four on a busy machine: a test that makes
// three of them, each beside a warm build, may need more than Vitest's 30 s there.
vi.setConfig({ testTimeout: 90_000 });

/**
 * The build cache must never serve stale output. The small site (tests/fixtures/small) is built,
 * changed in one way, built again with the cache, and built once more from scratch: the two
 * outputs must be the same, byte for byte, compressed copies included. Each build is what `site
 * build` runs, in this process: a session of its own that knows only what the build cache on disk
 * holds, as a new process would (tests/integration/build/cacheCode.test.ts edits the tool's own code, which
 * takes a process of its own).
 *
 * An integration test though it runs in this process: each build is the whole pipeline, the image
 * encoder's process included, and the builds from nothing make this file far too slow for the unit
 * layer's loop.
 */
describe('the build cache', () => {
  let site: SmallSite;
  const dist = () => path.join(site.root, 'dist');

  beforeAll(async () => {
    site = await smallSite();
    expect((await incremental()).ok).toBe(true);
  });

  afterAll(async () => {
    await site.cleanup();
  });

  /**
   * `site build`: the build cache's work reused, the output swapped in. Run whole: a build that
   * finds nothing it reads changed since the last one replays it instead, when the files have
   * settled, which these tests leave to replay.test.ts.
   */
  async function incremental(): Promise<BuildResult> {
    await forgetBuild(path.join(site.root, '.cache', 'site'));
    return build({ root: site.root, outDir: dist(), year: 2026 });
  }

  /** What `site build --explain` prints. */
  async function explained(): Promise<string> {
    const result = await incremental();
    expect(result.ok).toBe(true);
    return formatExplanation(result.remade);
  }

  async function edit(file: string, change: (text: string) => string): Promise<void> {
    const absolute = path.join(site.root, file);
    const before = await readFile(absolute, 'utf8');
    const after = change(before);
    expect(after, `the edit of ${file} changes it`).not.toBe(before);
    await writeFile(absolute, after);
  }

  /** Builds with the cache and from scratch, side by side; returns how many files the incremental build wrote. */
  async function expectSameAsColdBuild(): Promise<number> {
    const [warm, cold] = await Promise.all([incremental(), coldBuild(site.root)]);
    expect(warm.ok).toBe(true);
    expect(cold.result.ok).toBe(true);
    expect(differences(await filesUnder(dist()), cold.files)).toEqual([]);
    return warm.output?.write.written ?? -1;
  }

  it('writes nothing when nothing changed, not even the manifest of the output', async () => {
    const manifests = async () => {
      const dir = path.join(site.root, '.cache', 'site');
      const names = (await readdir(dir)).filter((name) => name.startsWith('output-')).sort();
      return Promise.all(names.map(async (name) => `${name} ${(await stat(path.join(dir, name))).mtimeMs}`));
    };
    const before = await manifests();
    // `site build` says "nothing changed" when it wrote no file.
    expect((await incremental()).output?.write.written).toBe(0);
    expect(await manifests()).toEqual(before);
    expect(await expectSameAsColdBuild()).toBe(0);
  });

  it('matches a cold build after an article is edited, rewriting only what shows it', async () => {
    await edit('content/blog/books/DangerousLiaisons.en.md', (t) =>
      t.replace(/\n\n([^\n]+)\n/, '\n\nAn added sentence about letters. $1\n'),
    );
    const written = await expectSameAsColdBuild();
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThan(20);
  });

  it('explains a body edit: the edited text compiled again, and only its own page rendered again', async () => {
    await edit('content/blog/books/DangerousLiaisons.en.md', (t) =>
      t.replace('An added sentence about letters.', 'An added sentence about the letters.'),
    );
    const explanation = await explained();
    expect(explanation).toContain('changed: text\n    content/blog/books/DangerousLiaisons.en.md');
    expect(explanation).toMatch(
      /changed: edition en\n {4}blog\/books\/DangerousLiaisons\.html\n {4}pt\/blog\/books\/DangerousLiaisons\.html\n/,
    );
    expect(explanation).not.toContain('listing');
    // The sitemap and the feeds show no body: they are carried over.
    expect(explanation).not.toMatch(/sitemap\.xml|feed\.(en|pt)\.xml/);
    expect(await explained()).toContain('Nothing was made again');
  });

  it('makes again the listing of its category when a body edit moves its reading time, not the Blog index nor the feeds', async () => {
    await edit('content/blog/books/DangerousLiaisons.en.md', (t) =>
      t.replace(/\n\n([^\n]+)\n/, `\n\n${'Another sentence about the letters. '.repeat(300)}$1\n`),
    );
    const explanation = await explained();
    expect(explanation).toMatch(/changed: listing\n {4}blog\/books\.html\n/);
    // The Blog index and the feeds show no reading time.
    expect(explanation).not.toMatch(/ blog\.html|feed\.(en|pt)\.xml/);
    await expectSameAsColdBuild();
    expect(await readFile(path.join(dist(), 'blog/books.html'), 'utf8')).toMatch(
      /Dangerous Liaisons.*?· <span class="nowrap">\d+ min read/s,
    );
  });

  it('matches a cold build after an article title is edited, rendering its page and the listings that show it', async () => {
    await edit('content/blog/books/DangerousLiaisons.en.md', (t) =>
      t.replace(/^title: .*$/m, 'title: Dangerous Liaisons, read again'),
    );
    const explanation = await explained();
    expect(explanation).toMatch(/changed: listing\n {4}blog\.html\n {4}blog\/books\.html\n/);
    expect(explanation).not.toContain('pt/blog.html');
    expect(explanation).not.toContain('aboutme.html');
    // The English feed shows the title; the Portuguese feed does not, nor the sitemap (URLs and dates).
    expect(explanation).toMatch(/changed: listing\n(?: {4}\S+\n)* {4}feed\.en\.xml\n/);
    expect(explanation).not.toContain('feed.pt.xml');
    expect(explanation).not.toContain('sitemap.xml');
    await expectSameAsColdBuild();
    expect(await readFile(path.join(dist(), 'blog/books.html'), 'utf8')).toContain('Dangerous Liaisons, read again');
  });

  it('matches a cold build after an article title is edited, on the page of the article before it', async () => {
    // An older article in the same category and language: the edited one is its next.
    await writeFile(
      path.join(site.root, 'content/blog/books/Letters.en.md'),
      '---\ntitle: Letters from a quiet year\ndescription: Short letters.\ndate: 2023-05-01\n---\n\nA paragraph of letters.\n',
    );
    await expectSameAsColdBuild();
    await edit('content/blog/books/DangerousLiaisons.en.md', (t) =>
      t.replace(/^title: .*$/m, 'title: Dangerous Liaisons, next door'),
    );
    expect(await explained()).toMatch(/changed: around\n {4}blog\/books\/Letters\.html\n/);
    await expectSameAsColdBuild();
    expect(await readFile(path.join(dist(), 'blog/books/Letters.html'), 'utf8')).toContain(
      '<span class="article__around-title">Dangerous Liaisons, next door</span>',
    );
    await unlink(path.join(site.root, 'content/blog/books/Letters.en.md'));
    await expectSameAsColdBuild();
  });

  it('matches a cold build after an article date is edited, making the sitemap again for its last change', async () => {
    // A day past: a later one would make it scheduled, and leave it out.
    await edit('content/blog/books/DangerousLiaisons.pt.md', (t) => t.replace(/^date: .*$/m, 'date: 2025-01-02'));
    expect(await explained()).toMatch(/changed: dates\n {4}sitemap\.xml(\n|$)/);
    await expectSameAsColdBuild();
    expect(await readFile(path.join(dist(), 'sitemap.xml'), 'utf8')).toContain('<lastmod>2025-01-02</lastmod>');
  });

  it('matches a cold build after a translation is added, which moves links in other articles', async () => {
    await writeFile(
      path.join(site.root, 'content/blog/culture/gulbenkian.en.md'),
      '---\ntitle: An afternoon at the Gulbenkian\ndescription: A visit to the foundation.\ndate: 2025-02-16\n---\n\nThe garden first.\n',
    );
    await expectSameAsColdBuild();
    expect(await readFile(path.join(dist(), 'pt/blog/tech/Site.html'), 'utf8')).toContain(
      'href="/pt/blog/culture/gulbenkian"',
    );
  });

  it('matches a cold build after a UI string changes', async () => {
    await edit('content/strings.json', (t) => t.replace('"Skip to content"', '"Skip to the content"'));
    await expectSameAsColdBuild();
    expect(await readFile(path.join(dist(), 'aboutme.html'), 'utf8')).toContain('Skip to the content');
  });

  it('matches a cold build after an image and a photo are replaced, and the photo is published under new names', async () => {
    const photos = async () =>
      (await readdir(path.join(dist(), 'assets/media'))).filter((name) => name.startsWith('harbour-')).sort();
    const before = await photos();
    expect(before.length).toBeGreaterThan(0);
    await writeFile(
      path.join(site.root, 'content/media/owner/portrait.svg'),
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><title>replaced</title></svg>\n',
    );
    await writeFile(path.join(site.root, 'content/media/harbour.jpg'), await cameraPhoto('#a0522d', 480));
    await expectSameAsColdBuild();
    expect(await readFile(path.join(dist(), 'media/owner/portrait.svg'), 'utf8')).toContain('replaced');
    // Its variants are named by its content: the old ones are gone, and the pages that show it name the new ones.
    const after = await photos();
    expect(after).toHaveLength(before.length);
    expect(after.filter((name) => before.includes(name))).toEqual([]);
    const article = await readFile(path.join(dist(), 'blog/books/DangerousLiaisons.html'), 'utf8');
    for (const name of after) expect(article).toContain(`/assets/media/${name}`);
  });

  it('matches a cold build after a file is deleted, and the deleted page is gone', async () => {
    await unlink(path.join(site.root, 'content/blog/books/DangerousLiaisons.pt.md'));
    await expectSameAsColdBuild();
    await expect(readFile(path.join(dist(), 'pt/blog/books/DangerousLiaisons.html'))).rejects.toThrow();
  });

  it('matches a cold build after a category is deleted, and its pages are gone', async () => {
    await unlink(path.join(site.root, 'content/categories/music.json'));
    await edit('content/pages/blog.json', (t) => t.replace('    "music",\n', ''));
    await expectSameAsColdBuild();
    await expect(readFile(path.join(dist(), 'blog/music.html'))).rejects.toThrow();
    await expect(readFile(path.join(dist(), 'pt/blog/music.html'))).rejects.toThrow();
    expect(await readFile(path.join(dist(), 'sitemap.xml'), 'utf8')).not.toContain('/blog/music');
  });

  it('starts a swap from the output before the previous one, kept beside dist/, and links again what it lacks', async () => {
    // Kept by the earlier builds' swaps: the output before the current one.
    const spare = path.join(site.root, '.dist-spare');
    expect((await stat(spare)).isDirectory()).toBe(true);
    // The swap renames the spare into place once it is brought up to date: the new output is that folder.
    const spareFolder = (await stat(spare)).ino;
    // Changed by hand: a page and a compressed copy gone, a file and a folder its manifest does not name.
    await unlink(path.join(spare, 'aboutme.html'));
    await unlink(path.join(spare, 'atelier.html.br'));
    await writeFile(path.join(spare, 'extra.txt'), 'not a page of the site');
    await mkdir(path.join(spare, 'blog', 'gone', 'deeper'), { recursive: true });
    await edit('content/blog/books/DangerousLiaisons.en.md', (t) =>
      t.replace('An added sentence about the letters.', 'An added sentence about the letter.'),
    );
    await expectSameAsColdBuild();
    expect(await readFile(path.join(dist(), 'aboutme.html'), 'utf8')).toContain('<html');
    expect((await stat(path.join(dist(), 'atelier.html.br'))).size).toBeGreaterThan(0);
    await expect(stat(path.join(dist(), 'extra.txt'))).rejects.toThrow();
    await expect(stat(path.join(dist(), 'blog/gone'))).rejects.toThrow();
    expect((await stat(dist())).ino).toBe(spareFolder);
    // No folder of a build is left behind but the spare.
    expect((await readdir(site.root)).filter((name) => name.startsWith('.dist'))).toEqual(['.dist-spare']);
  });

  it('starts a swap from the spare when its build cache predates the record of compressed copies', async () => {
    // Logs as a build before the manifests recorded each file's compressed copies wrote them: the
    // copies of a file carried over are then looked for beside it in the output.
    const cache = path.join(site.root, '.cache', 'site');
    const logs = (await readdir(cache)).filter((file) => /^output-.*\.log$/.test(file));
    for (const name of logs) {
      // Such a build also kept the spare's manifest whole in a log of its own, not as the output
      // log's first bytes: written so from what those bytes say.
      const spareLog = path.join(cache, name.replace(/^output-/, 'spare-'));
      const prefix = (await readFirstRecord(spareLog)) as [string, LogPrefix] | undefined;
      if (prefix?.[0] !== 'prefix') continue;
      const spare = (await readManifestLog(path.join(cache, name), prefix[1]))?.earlier?.manifest();
      if (!spare) throw new Error(`no spare named by ${spareLog}`);
      const { files, ...head } = spare;
      await rewriteLog(spareLog, [['head', head], ...[...files].map(([file, entry]) => ['file', file, entry])]);
    }
    for (const name of (await readdir(cache)).filter((file) => /^(output|spare)-.*\.log$/.test(file))) {
      const { records } = await readLog(path.join(cache, name));
      for (const record of records as unknown[][])
        if (record[0] === 'file') delete (record[2] as { copies?: unknown }).copies;
      await rewriteLog(path.join(cache, name), records);
    }
    // The spare lacks both copies of a page the output has with its copies.
    for (const suffix of ['br', 'gz']) await unlink(path.join(site.root, '.dist-spare', `atelier.html.${suffix}`));
    const spareFolder = (await stat(path.join(site.root, '.dist-spare'))).ino;
    await edit('content/blog/books/DangerousLiaisons.en.md', (t) =>
      t.replace('An added sentence about the letter.', 'An added sentence about the letters.'),
    );
    await expectSameAsColdBuild();
    expect((await stat(dist())).ino).toBe(spareFolder);
    for (const suffix of ['br', 'gz'])
      expect((await stat(path.join(dist(), `atelier.html.${suffix}`))).size).toBeGreaterThan(0);
  });

  it('keeps one translation lock in the build cache however often it changes, apart from the JSON content files', async () => {
    const cache = path.join(site.root, '.cache', 'site');
    for (const edit of ['first', 'second', 'third']) {
      await writeFile(
        path.join(site.root, 'content/translations.json'),
        (await readFile(path.join(site.root, 'content/translations.json'), 'utf8')).replace(
          /"\$comment": "[^"]*"/,
          `"$comment": "${edit} edit"`,
        ),
      );
      expect((await incremental()).ok).toBe(true);
      const { records } = await readLog(path.join(cache, 'lock.bin'));
      expect(records.length).toBeLessThanOrEqual(2);
      expect(JSON.stringify(records.at(-1))).toContain(`${edit} edit`);
    }
    const { records } = await readLog(path.join(cache, 'json.bin'));
    expect(records.map((record) => (record as [string])[0])).not.toContain('content/translations.json');
  });

  it('builds everything again when a file of the previous output was deleted by hand', async () => {
    await unlink(path.join(dist(), 'aboutme.html'));
    await edit('content/blog/books/DangerousLiaisons.en.md', (t) =>
      t.replace('An added sentence', 'One added sentence'),
    );
    await expectSameAsColdBuild();
    expect(await readFile(path.join(dist(), 'aboutme.html'), 'utf8')).toContain('<html');
  });

  it('compiles bodies again when the cache of their HTML was deleted by hand', async () => {
    await rm(path.join(site.root, '.cache/site/bodies'), { recursive: true });
    await edit('content/blog/books/DangerousLiaisons.en.md', (t) =>
      t.replace('One added sentence', 'A further sentence'),
    );
    await expectSameAsColdBuild();
    expect(await readFile(path.join(dist(), 'blog/books/DangerousLiaisons.html'), 'utf8')).toContain(
      'A further sentence',
    );
  });
});

describe("the search shards' counted terms in the build cache", () => {
  let site: SmallSite;
  beforeAll(async () => {
    site = await smallSite();
  });
  afterAll(() => site.cleanup());

  it("make a shard again for one edited article from that article's text and the others' kept terms", async () => {
    const dist = path.join(site.root, 'dist');
    expect((await build({ root: site.root, outDir: dist, year: 2026 })).ok).toBe(true);
    // What the shard's file keeps for an article that is not edited, marked so that the shard shows where it came from.
    const file = path.join(site.root, '.cache/site/search/en-1-0.bin');
    const kept = deserialize(await readFile(file)) as { url: string; stored: Record<string, string> }[];
    const other = kept.find((document) => document.url === '/blog/tech/Git');
    expect(other?.stored.title).toBeTruthy();
    (other as { stored: Record<string, string> }).stored.title = 'Read back from the file';
    await writeFile(file, serialize(kept));
    const article = path.join(site.root, 'content/blog/books/DangerousLiaisons.en.md');
    await writeFile(
      article,
      (await readFile(article, 'utf8')).replace(/\n\n([^\n]+)\n/, '\n\nEpistolary quillwork. $1\n'),
    );
    expect((await build({ root: site.root, outDir: dist, year: 2026 })).ok).toBe(true);
    const shard = await readFile(path.join(dist, 'search/en/0.json'), 'utf8');
    expect(shard).toContain('Read back from the file');
    expect(shard).toContain('quillwork');
  });
});
