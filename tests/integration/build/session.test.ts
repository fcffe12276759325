import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildSite } from '../../../src/build/pipeline';
import { BuildSession } from '../../../src/build/session';
import { Output } from '../../../src/write/output';
import { coldBuild, coldCheck } from '../../support/cold';
import { type ContentCopy, type SmallSite, smallSite } from '../../support/content';
import { differences, filesUnder } from '../../support/tool';

// A build from nothing takes about a second here and four on a busy machine: a test that makes
// five of them (and a warm build after each change) may need more than Vitest's 30 s there.
vi.setConfig({ testTimeout: 90_000 });

/**
 * Every test builds the small site (tests/fixtures/small) in this process: one copy of it, built
 * once by the first test and put back as it was made before each test, so that a test starts from
 * the fixture's files with the build cache and the output of the tests before it, as a session of
 * `site dev` starts from those of the last one. A build from nothing (`coldBuild`, `coldCheck`) is
 * the reference each warm build is held to.
 *
 * An integration test though it runs in this process: each build is the whole pipeline, the image
 * encoder's process included, and the builds from nothing make this file far too slow for the unit
 * layer's loop.
 */
let site: SmallSite;

beforeAll(async () => {
  site = await smallSite();
});

afterAll(async () => {
  await site.cleanup();
});

beforeEach(async () => {
  await site.restore();
});

const page = (copy: ContentCopy, file: string) => readFile(path.join(copy.root, 'dist', file), 'utf8');

/**
 * The folder the in-place builds write, as `site dev` has its own (.cache/dev): an in-place build
 * writes no compressed copies, so it never writes the folder of the builds that swap theirs in.
 */
const inPlace = () => path.join(site.root, 'dev');

/**
 * A build session owns everything a build keeps: nothing lives in module state. Two sites build
 * side by side in one process without seeing each other's work, and a session told of one edited
 * file makes again exactly what that file's change reaches.
 */
describe('build sessions', () => {
  it('builds two different sites at once in one process, each from its own content', async () => {
    const second = await smallSite();
    try {
      await second.edit('content/blog/books/DangerousLiaisons.en.md', (t) =>
        t.replace(/^title: .*$/m, 'title: Liaisons of the second site'),
      );
      const sessions = [new BuildSession({ root: site.root }), new BuildSession({ root: second.root })];
      const results = await Promise.all(
        sessions.map((session) =>
          buildSite(session, { root: session.root, outDir: path.join(session.root, 'dist'), year: 2026 }),
        ),
      );
      expect(results.map((r) => r.ok)).toEqual([true, true]);
      expect(await page(site, 'blog/books.html')).not.toContain('Liaisons of the second site');
      expect(await page(second, 'blog/books.html')).toContain('Liaisons of the second site');
    } finally {
      await second.cleanup();
    }
  });

  it('makes again only what an edited body reaches when told of the file, and nothing when told of none', async () => {
    const session = new BuildSession({ root: site.root, rebuilds: true });
    const options = { root: site.root, outDir: path.join(site.root, 'dist'), year: 2026 };
    expect((await buildSite(session, options)).remade).toEqual([]);

    const file = 'content/blog/books/DangerousLiaisons.en.md';
    await site.edit(file, (t) => t.replace('## The book', 'A sentence added in a session.\n\n## The book'));
    // Not told: the session trusts what it read, as a watcher that reported nothing would.
    expect((await buildSite(session, options)).remade).toEqual([]);

    session.invalidate([path.join(site.root, file)]);
    const edited = await buildSite(session, options);
    expect(edited.remade.map((r) => `${r.output}: ${r.changed.join(', ')}`).sort()).toEqual([
      'blog/books/DangerousLiaisons.html: edition en',
      `${file}: text`,
      // The Portuguese page also tells its readers the English edition changed since it was translated.
      'pt/blog/books/DangerousLiaisons.html: edition en, outdated',
      'search/en/0.json: documents',
    ]);
    expect(await page(site, 'blog/books/DangerousLiaisons.html')).toContain('A sentence added in a session.');
    expect(await page(site, 'pt/blog/books/DangerousLiaisons.html')).toContain('<p class="note" role="note">');
  });

  it('shares with the last build every part of the model and every page plan an edit did not touch', async () => {
    const session = new BuildSession({ root: site.root, rebuilds: true });
    const options = { root: site.root, outDir: path.join(site.root, 'dist'), year: 2026 };
    await buildSite(session, options);
    const before = session.planned;
    const file = 'content/blog/tech/Site.en.md';
    await site.edit(file, (t) => t.replace('\n\n', '\n\nA sentence added to share the rest.\n\n'));
    session.invalidate([path.join(site.root, file)]);
    await buildSite(session, options);
    const after = session.planned;
    if (!before || !after) throw new Error('the session keeps no plan of its builds');
    // The same routes, and every article but the edited one the very object it was.
    expect(after.site.routes).toBe(before.site.routes);
    const renewed = after.site.articles
      .filter((article, i) => article !== before.site.articles[i])
      .map((article) => article.route.path);
    expect(renewed).toEqual(['/blog/tech/Site']);
    const edited = after.site.articleByPath.get('/blog/tech/Site');
    expect(edited?.editions.pt).toBe(before.site.articleByPath.get('/blog/tech/Site')?.editions.pt);
    // The pages planned anew: the article's two (its body is on both), none of the listings (no front matter changed).
    const replanned = after.plans.filter((plan, i) => plan !== before.plans[i]).map((plan) => plan.file);
    expect(replanned).toEqual(['blog/tech/Site.html', 'pt/blog/tech/Site.html']);
  });

  it('looks up in the last output only the pages planned anew, and carries over the rest as they are', async () => {
    const session = new BuildSession({ root: site.root, rebuilds: true });
    const options = { root: site.root, outDir: path.join(site.root, 'dist'), year: 2026 };
    await buildSite(session, options);
    const plansBefore = session.planned?.plans ?? [];
    const before = await filesUnder(options.outDir);
    const file = 'content/blog/books/DangerousLiaisons.en.md';
    await site.edit(file, (t) => t.replace('## The book', 'A sentence to look up one page.\n\n## The book'));
    session.invalidate([path.join(site.root, file)]);
    const carry = vi.spyOn(Output.prototype, 'carry');
    let looked: string[];
    try {
      expect((await buildSite(session, options)).ok).toBe(true);
      // Pages, not the root's redirects (index.html, pt.html), which are files made from inputs of their own.
      looked = carry.mock.calls
        .map(([page]) => page)
        .filter((page) => page.endsWith('.html') && page !== 'index.html' && page !== 'pt.html');
    } finally {
      carry.mockRestore();
    }
    const replanned = (session.planned?.plans ?? [])
      .filter((plan, i) => plan !== plansBefore[i])
      .map((plan) => plan.file);
    expect(replanned).toContain('blog/books/DangerousLiaisons.html');
    expect(looked.sort()).toEqual(replanned.sort());
    // Every other page is still there, as it was.
    const after = await filesUnder(options.outDir);
    const pages = (files: Map<string, Buffer>) => [...files.keys()].filter((page) => page.endsWith('.html')).sort();
    expect(pages(after)).toEqual(pages(before));
    const changed = differences(before, after).filter((page) => page.endsWith('.html'));
    expect(changed).toContain('blog/books/DangerousLiaisons.html');
    expect(replanned).toEqual(expect.arrayContaining(changed));
  });

  it('keeps the translation states of the last build while edits leave each as it was, and shows a change of state', async () => {
    const session = new BuildSession({ root: site.root, rebuilds: true });
    const options = { root: site.root, outDir: path.join(site.root, 'dist'), year: 2026 };
    const file = 'content/blog/tech/Site.en.md';
    const translated = await readFile(path.join(site.root, file), 'utf8');
    const edit = async (sentence: string) => {
      await site.edit(file, (t) => t.replace('\n\n', `\n\n${sentence}\n\n`));
      session.invalidate([path.join(site.root, file)]);
      expect((await buildSite(session, options)).ok).toBe(true);
      return session.planned?.site.translations.editions;
    };
    await buildSite(session, options);
    const outdated = await edit('A first sentence that puts the translation behind.');
    expect(outdated?.get('content/blog/tech/Site.pt.md')).toMatchObject({
      kind: 'outdated',
      counterpart: { file, lang: 'en' },
    });
    // Behind as it was: the same states, so that no other article's page is looked at again.
    expect(await edit('A second sentence in the same section.')).toBe(outdated);
    expect(await page(site, 'pt/blog/tech/Site.html')).toContain('<p class="note" role="note">');

    // The English text back as it was translated: the Portuguese page loses its notice.
    await writeFile(path.join(site.root, file), translated);
    session.invalidate([path.join(site.root, file)]);
    await buildSite(session, options);
    const current = session.planned?.site.translations.editions;
    expect(current).not.toBe(outdated);
    expect(current?.get('content/blog/tech/Site.pt.md')).toEqual({ kind: 'current' });
    expect(await page(site, 'pt/blog/tech/Site.html')).not.toContain('<p class="note" role="note">');
  });

  it('moves the links of bodies it did not read again when their target gains a translation', async () => {
    const session = new BuildSession({ root: site.root, rebuilds: true });
    const options = { root: site.root, outDir: path.join(site.root, 'dist'), year: 2026 };
    expect((await buildSite(session, options)).ok).toBe(true);
    // The Portuguese Site article links to the Gulbenkian article, which has no English edition yet.
    const linking = 'pt/blog/tech/Site.html';
    expect(await page(site, linking)).not.toContain('href="/pt/blog/culture/gulbenkian"');
    const added = path.join(site.root, 'content/blog/culture/gulbenkian.en.md');
    await writeFile(
      added,
      '---\ntitle: An afternoon at the Gulbenkian\ndescription: A visit to the foundation.\ndate: 2025-02-16\n---\n\nThe garden first.\n',
    );
    session.invalidate([added]);
    const rebuilt = await buildSite(session, options);
    expect(rebuilt.ok).toBe(true);
    // The linking body was not edited: only its link, resolved against the new routes, moved.
    expect(rebuilt.remade.map((r) => r.output)).toContain('content/blog/tech/Site.pt.md');
    expect(await page(site, linking)).toContain('href="/pt/blog/culture/gulbenkian"');
    await rm(added);
    session.invalidate([added]);
    expect((await buildSite(session, options)).ok).toBe(true);
    expect(await page(site, linking)).not.toContain('href="/pt/blog/culture/gulbenkian"');
  });

  it('orders the feeds and listings after a title or date edit exactly as a cold build does', async () => {
    const session = new BuildSession({ root: site.root, rebuilds: true });
    const options = { root: site.root, outDir: path.join(site.root, 'dist'), year: 2026 };
    const file = 'content/blog/books/DangerousLiaisons.en.md';
    const changes: [string, (text: string) => string][] = [
      ['a title edit', (t) => t.replace(/^title: .*$/m, 'title: Liaisons, reordered')],
      // The newest of the site now: first in the feed, and first in its listing.
      ['a date edit', (t) => t.replace(/^date: .*$/m, 'date: 2026-01-02')],
      ['the date back', (t) => t.replace(/^date: .*$/m, 'date: 2023-11-05')],
    ];
    expect((await buildSite(session, options)).ok).toBe(true);
    for (const [change, edit] of changes) {
      session.invalidate([await editOf(site, file, edit)]);
      expect((await buildSite(session, options)).ok, change).toBe(true);
      await expectAsCold(options, change);
      if (change === 'a date edit')
        expect(/<item><title>([^<]*)/.exec(await page(site, 'feed.en.xml'))?.[1]).toBe('Liaisons, reordered');
    }
  });

  it("rehearses an edit through every stage without touching the output, the file or the cache's records, and reads the file again after", async () => {
    const session = new BuildSession({ root: site.root, rebuilds: true });
    const options = { root: site.root, outDir: inPlace(), year: 2026, commit: 'in-place' as const };
    const file = 'content/blog/books/DangerousLiaisons.en.md';
    // The Portuguese edition is behind the English one already (its page says so): a further edit
    // of the English text changes nothing on it.
    await site.edit(file, (t) => t.replace('## The book', 'A sentence the translation does not have.\n\n## The book'));
    expect((await buildSite(session, options)).ok).toBe(true);
    const [output, cache, text] = await Promise.all([
      filesUnder(options.outDir),
      filesUnder(path.join(site.root, '.cache')),
      readFile(path.join(site.root, file), 'utf8'),
    ]);

    session.rehearse(path.join(site.root, file), text.replace('## The book', 'A rehearsed sentence.\n\n## The book'));
    const rehearsal = await buildSite(session, { ...options, commit: 'none' });
    expect(rehearsal.ok).toBe(true);
    // Made, as a save of that text would make them, and then dropped.
    expect(rehearsal.remade.map((r) => r.output).sort()).toEqual([
      'blog/books/DangerousLiaisons.html',
      file,
      'pt/blog/books/DangerousLiaisons.html',
      'search/en/0.json',
    ]);
    // The English page and the shard differ; the Portuguese page, which shows the other edition, is the same bytes.
    expect(rehearsal.output?.write.written).toBe(2);
    expect(differences(await filesUnder(options.outDir), output)).toEqual([]);
    // Of the build cache, only the rehearsed body's content was added, to a pack (and is pruned as
    // any body no longer used); no record, nor the index of the packs, changed.
    const added = differences(await filesUnder(path.join(site.root, '.cache')), cache);
    expect(added).toHaveLength(1);
    expect(added[0]).toMatch(/^site\/bodies\/[^/]+\.pack$/);
    expect(await readFile(path.join(site.root, file), 'utf8')).toBe(text);
    expect((await readdir(site.root)).filter((name) => name.startsWith('.dist-new'))).toEqual([]);

    // Not told of any change: the file is read again all the same, and the output is that of the file.
    const after = await buildSite(session, options);
    expect(after.ok).toBe(true);
    expect(after.remade.map((r) => r.output)).toEqual([file]);
    expect(differences(await filesUnder(options.outDir), output)).toEqual([]);
    // A rehearsal that never ran (cancelled before it read anything) is dropped when the file is reported.
    session.rehearse(path.join(site.root, file), text.replace('## The book', 'A rehearsal cut short.\n\n## The book'));
    session.invalidate([path.join(site.root, file)]);
    expect((await buildSite(session, options)).ok).toBe(true);
    expect(differences(await filesUnder(options.outDir), output)).toEqual([]);
    const cold = await coldBuild(site.root);
    expect(cold.result.ok).toBe(true);
    // The media folder is copied by one commit and linked by the other: the pages, indexes and feeds are compared.
    const made = (files: Map<string, Buffer>) =>
      new Map([...files].filter(([name]) => !name.startsWith(`media${path.sep}`)));
    expect(differences(made(await filesUnder(options.outDir)), made(cold.files))).toEqual([]);
  });

  it('counts search terms ahead, keeps them through edits, and counts again only the edited article', async () => {
    const options = { root: site.root, outDir: path.join(site.root, 'dist'), year: 2026 };
    // The output is up to date: the session's first build carries every shard over and counts nothing.
    expect((await buildSite(new BuildSession({ root: site.root }), options)).ok).toBe(true);
    const session = new BuildSession({ root: site.root, rebuilds: true });
    expect((await buildSite(session, options)).ok).toBe(true);
    const search = (await session.cached()).search;
    if (!search || !session.planned) throw new Error('a session that builds again keeps counted terms');
    expect(search.size).toBe(0);
    const urls = session.planned.site.editions.flatMap((edition) => (edition ? [edition.url] : []));
    // As site dev's warm-up does: edits rehearsed (each counts one shard's terms and sets the size
    // past which the table of terms starts again), the article read again, then every term counted.
    const rehearsed = path.join(site.root, 'content/blog/tech/Site.en.md');
    for (const sentence of ['A rehearsal.', 'Another rehearsal.']) {
      session.rehearse(rehearsed, (await readFile(rehearsed, 'utf8')).replace('\n\n', `\n\n${sentence}\n\n`));
      expect((await buildSite(session, { ...options, commit: 'none' })).ok).toBe(true);
    }
    session.invalidate([rehearsed]);
    expect((await buildSite(session, options)).ok).toBe(true);
    // On a site of thousands of articles the Portuguese table's limit, set while it was empty, is
    // below what counting every article puts in it; this small site's table is given such a limit.
    const pt = session.shards.pt;
    if (pt) pt.limit = pt.table.size + 1;
    await session.countAhead(() => false);
    expect(search.size).toBe(urls.length);
    const before = new Map(urls.map((url) => [url, search.latest(url)]));

    // Edited twice, in the language no rehearsal edited: what the first edit's build did not look
    // up (the other language's shard) is still held after the second.
    for (const sentence of ['Uma frase sobre dirigíveis.', 'Outra sobre balões.']) {
      const file = await editOf(site, 'content/blog/books/DangerousLiaisons.pt.md', (t) =>
        t.replace('\n\n', `\n\n${sentence}\n\n`),
      );
      session.invalidate([file]);
      expect((await buildSite(session, options)).ok).toBe(true);
      const recounted = urls.filter((url) => search.latest(url) !== before.get(url));
      expect(recounted, sentence).toEqual(['/pt/blog/books/DangerousLiaisons']);
      expect(search.size, sentence).toBe(urls.length);
    }
  });

  // Each change is checked against a cold build, which starts a share-card thread and draws every card
  // (this test 9.6 s without cards, 15.7 s with them, alone at load 8; 24 s beside the other unit files).
  it('after each change writes the search indexes exactly as a cold build does', { timeout: 60_000 }, async () => {
    const session = new BuildSession({ root: site.root, rebuilds: true });
    const options = { root: site.root, outDir: path.join(site.root, 'dist'), year: 2026 };
    const changes: [string, () => Promise<string[]>][] = [
      [
        'a body edit',
        async () => [
          await editOf(site, 'content/blog/books/DangerousLiaisons.pt.md', (t) =>
            t.replace('\n\n', '\n\nUma frase nova sobre zepelins.\n\n'),
          ),
        ],
      ],
      [
        // A table of terms past its size starts again: the shards made after it number their terms anew.
        'a body edit once the tables of terms are full',
        async () => {
          for (const lang of ['en', 'pt'] as const) {
            const planned = session.shards[lang];
            if (planned) planned.limit = 0;
          }
          return [
            await editOf(site, 'content/blog/books/DangerousLiaisons.pt.md', (t) =>
              t.replace('zepelins', 'dirigíveis'),
            ),
          ];
        },
      ],
      [
        'a title edit',
        async () => [
          await editOf(site, 'content/blog/books/DangerousLiaisons.en.md', (t) =>
            t.replace(/^title: .*$/m, 'title: Zeppelins and liaisons'),
          ),
        ],
      ],
      // Every document names its category: the shard changes, though none of its articles did.
      [
        'a category retitled',
        async () => [
          await editOf(site, 'content/categories/books.json', (t) =>
            t.replace('"en": "📚 Books"', '"en": "📚 Zeppelin books"'),
          ),
        ],
      ],
      [
        'a removed edition',
        async () => {
          await rm(path.join(site.root, 'content/blog/books/DangerousLiaisons.pt.md'));
          return [path.join(site.root, 'content/blog/books/DangerousLiaisons.pt.md')];
        },
      ],
    ];
    expect((await buildSite(session, options)).ok).toBe(true);
    for (const [change, make] of changes) {
      session.invalidate(await make());
      expect((await buildSite(session, options)).ok, change).toBe(true);
      await expectAsCold(options, change);
    }
    const en = JSON.parse(await page(site, 'search/en/0.json')) as { index: [string, unknown][] };
    expect(en.index.some(([term]) => term === 'zeppelin')).toBe(true);
  });
  it('gives the articles before and after an edited one its new title, and the listings its new reading time, as a cold build does', async () => {
    const session = new BuildSession({ root: site.root, rebuilds: true });
    const options = { root: site.root, outDir: path.join(site.root, 'dist'), year: 2026 };
    // An older article in the same category and language: the edited one is its next.
    await writeFile(
      path.join(site.root, 'content/blog/books/Letters.en.md'),
      '---\ntitle: Letters from a quiet year\ndescription: Short letters.\ndate: 2023-05-01\n---\n\nA paragraph of letters.\n',
    );
    const file = 'content/blog/books/DangerousLiaisons.en.md';
    const long = ` ${'word '.repeat(2000)}`;
    const changes: [string, (text: string) => string][] = [
      ['a title edit', (t) => t.replace(/^title: .*$/m, 'title: Liaisons, next door')],
      // The translation states stay as the first title edit left them: the neighbours alone moved.
      ['another title edit', (t) => t.replace(/^title: .*$/m, 'title: Liaisons, two doors down')],
      ['a body edit that makes it longer to read', (t) => t.replace('\n\n', `\n\n${long}\n\n`)],
      ['a body edit that keeps its reading time', (t) => t.replace('\n\n', '\n\nOne sentence more.\n\n')],
    ];
    expect((await buildSite(session, options)).ok).toBe(true);
    for (const [change, edit] of changes) {
      session.invalidate([await editOf(site, file, edit)]);
      expect((await buildSite(session, options)).ok, change).toBe(true);
      await expectAsCold(options, change);
    }
    expect(await page(site, 'blog/books/Letters.html')).toMatch(
      /rel="next"><span class="article__around-label">Next article.*?<span class="article__around-title">Liaisons, two doors down</,
    );
    expect(await page(site, 'blog/books.html')).toMatch(
      /Liaisons, two doors down.*· <span class="nowrap">9 min read</s,
    );
  });
});

/**
 * The output the session built into `options.outDir` is, file for file and byte for byte
 * (compressed copies included), what a build from nothing of the same files makes.
 */
async function expectAsCold(options: { outDir: string; year: number }, change: string): Promise<void> {
  const cold = await coldBuild(site.root, { year: options.year });
  expect(cold.result.ok, change).toBe(true);
  expect(differences(await filesUnder(options.outDir), cold.files), change).toEqual([]);
}

/** A change to the content (giving the files it changed), and the codes a check reports after it, by file. */
type Change = [change: string, make: () => Promise<string[]>, expected: string[]];

/**
 * Builds the site in one session, then after each change: the warm build reports exactly what
 * `site check` reports of the same files with no cache, and the codes expected. Orphans, missing
 * translations and outdated ones, which the edits also cause, are compared with the cold check's
 * but not listed.
 */
async function checksAsCold(
  options: { root: string; outDir: string; year: number; drafts?: boolean },
  changes: readonly Change[],
  before: string[] = [],
  fresh = false,
): Promise<void> {
  // A session that builds again, or (`fresh`) a session of its own for each build, as `site build` has.
  const warmSession = new BuildSession({ root: site.root, rebuilds: true });
  const sessionFor = () => (fresh ? new BuildSession({ root: site.root }) : warmSession);
  let session = sessionFor();
  const codes = (diagnostics: { code: string; file: string }[]) =>
    diagnostics
      .map((d) => `${d.code} ${d.file}`)
      .filter((c) => !c.startsWith('ORPHAN') && !c.startsWith('I18N002') && !c.startsWith('TRANS'));
  expect(codes((await buildSite(session, options)).diagnostics)).toEqual(before);
  for (const [change, make, expected] of changes) {
    const edited = await make();
    session = sessionFor();
    session.invalidate(edited);
    const warm = await buildSite(session, options);
    expect(warm.diagnostics, change).toEqual(await coldCheck(site.root, { drafts: options.drafts ?? false }));
    expect(codes(warm.diagnostics), change).toEqual(expected);
  }
}

/** Edits a file of the site, and gives its absolute path (what a watcher reports). */
async function editOf(copy: ContentCopy, file: string, change: (text: string) => string): Promise<string> {
  await copy.edit(file, change);
  return path.join(copy.root, file);
}

/**
 * `site dev` builds in place, and has the pages put there as soon as they are rendered, so that
 * an open tab reloads before the search indexes and the rest are made. From then on the build
 * cannot be cancelled; one that fails after it leaves no record that could carry a page over
 * that is no longer the one in the folder.
 */
describe('pages put in place ahead of the rest of an in-place build', () => {
  const file = 'content/blog/books/DangerousLiaisons.en.md';
  const pageFile = 'blog/books/DangerousLiaisons.html';
  const read = (name: string) => readFile(path.join(inPlace(), name), 'utf8');

  it('tells the edited page once it is in place, before the search index is written, and runs to its end though cancelled then', async () => {
    const session = new BuildSession({ root: site.root, rebuilds: true });
    const options = { root: site.root, outDir: inPlace(), year: 2026, commit: 'in-place' as const };
    expect((await buildSite(session, options)).ok).toBe(true);
    const searchBefore = await read('search/en/0.json');
    session.invalidate([
      await editOf(site, file, (t) =>
        t.replace('## The book', 'A sentence about zeppelins, placed early.\n\n## The book'),
      ),
    ]);
    const controller = new AbortController();
    const seen: { pages?: Map<string, string>; page?: Promise<string>; search?: Promise<string> } = {};
    const result = await buildSite(session, {
      ...options,
      signal: controller.signal,
      onPages: (pages) => {
        seen.pages = new Map(pages);
        seen.page = read(pageFile);
        seen.search = read('search/en/0.json');
        controller.abort();
      },
    });
    expect(result.ok).toBe(true);
    expect(await seen.page).toContain('A sentence about zeppelins, placed early.');
    // The search index was still the one before the edit: it is written after the pages.
    expect(await seen.search).toBe(searchBefore);
    const searchAfter = await read('search/en/0.json');
    expect(searchAfter).not.toBe(searchBefore);
    expect([...(seen.pages?.keys() ?? [])].sort()).toEqual([pageFile, 'pt/blog/books/DangerousLiaisons.html']);
    expect(seen.pages?.get(pageFile)).toBe(result.output?.write.manifest.files.get(pageFile)?.hash);
  });

  it('after a failure that follows the pages put in place, makes the page again when its text goes back to what it was', async () => {
    const session = new BuildSession({ root: site.root, rebuilds: true });
    const options = { root: site.root, outDir: inPlace(), year: 2026, commit: 'in-place' as const };
    expect((await buildSite(session, options)).ok).toBe(true);
    const before = await read(pageFile);
    const original = await readFile(path.join(site.root, file), 'utf8');
    session.invalidate([
      await editOf(site, file, (t) => t.replace('## The book', 'A sentence that will be taken back.\n\n## The book')),
    ]);
    const failing = buildSite(session, {
      ...options,
      onPages: () => {
        throw new Error('the disk filled up');
      },
    });
    await expect(failing).rejects.toThrow('the disk filled up');
    expect(await read(pageFile)).toContain('A sentence that will be taken back.');
    session.invalidate([await editOf(site, file, () => original)]);
    expect((await buildSite(session, options)).ok).toBe(true);
    expect(await read(pageFile)).toBe(before);
  });
});

/**
 * The check keeps what its rules found in each edition, and judges again only the editions whose
 * file or surroundings changed. A change in one article that another article's links depend on
 * must still reach that other article: each time, a warm session reports exactly what `site
 * check` reports of the same files with no cache.
 */
describe('the check in a session', () => {
  /** Edits of one article that others link to, or whose title their link texts name (LINK004). */
  const changes = (): Change[] => [
    [
      'a heading renamed that another article links to',
      async () => [
        await editOf(site, 'content/blog/tech/Git.pt.md', (t) =>
          t.replace('## Github Actions', '## Integração contínua'),
        ),
      ],
      ['ANCHOR001 content/blog/tech/pages2static.pt.md'],
    ],
    [
      'the heading back',
      async () => [
        await editOf(site, 'content/blog/tech/Git.pt.md', (t) =>
          t.replace('## Integração contínua', '## Github Actions'),
        ),
      ],
      [],
    ],
    [
      'a link whose text names no article',
      async () => [
        await editOf(site, 'content/blog/tech/docker.en.md', (t) =>
          t.replace('\n\n', '\n\nAs in [the zeppelin letters](/blog/books/DangerousLiaisons).\n\n'),
        ),
      ],
      [],
    ],
    [
      'another article retitled so that the link text names it',
      async () => [
        await editOf(site, 'content/blog/tech/Site.en.md', (t) =>
          t.replace(/^title: .*$/m, 'title: "Zeppelin letters: up the river"'),
        ),
      ],
      ['LINK004 content/blog/tech/docker.en.md'],
    ],
    [
      // The same words: no match changes, but the one found quotes the title, which did.
      'that title reworded with the same words',
      async () => [
        await editOf(site, 'content/blog/tech/Site.en.md', (t) =>
          t.replace(/^title: .*$/m, 'title: "Up the river: Zeppelin Letters"'),
        ),
      ],
      ['LINK004 content/blog/tech/docker.en.md'],
    ],
    [
      'its title back',
      async () => [
        await editOf(site, 'content/blog/tech/Site.en.md', (t) =>
          t.replace(/^title: .*$/m, 'title: How this site is built'),
        ),
      ],
      [],
    ],
    [
      'a broken link added to an article',
      async () => [
        await editOf(site, 'content/blog/tech/docker.en.md', (t) =>
          t.replace('\n\n', '\n\nSee [the missing page](/blog/tech/NoSuchArticle).\n\n'),
        ),
      ],
      ['LINK001 content/blog/tech/docker.en.md'],
    ],
    [
      // The article with the link was edited since the words of its links were last indexed.
      'the other article retitled again so that the link text names it',
      async () => [
        await editOf(site, 'content/blog/tech/Site.en.md', (t) =>
          t.replace(/^title: .*$/m, 'title: "Zeppelin letters, once more"'),
        ),
      ],
      ['LINK001 content/blog/tech/docker.en.md', 'LINK004 content/blog/tech/docker.en.md'],
    ],
    [
      'its title back again',
      async () => [
        await editOf(site, 'content/blog/tech/Site.en.md', (t) =>
          t.replace(/^title: .*$/m, 'title: How this site is built'),
        ),
      ],
      ['LINK001 content/blog/tech/docker.en.md'],
    ],
    [
      'a translation deleted that other articles link to',
      async () => {
        const file = path.join(site.root, 'content/blog/tech/Git.pt.md');
        await rm(file);
        return [file];
      },
      ['LINK001 content/blog/tech/docker.en.md', 'LINK003 content/blog/tech/pages2static.pt.md'],
    ],
    [
      // A body's own problems (MD002) are the model's: kept while the body is, found again when it changes.
      'a code block in a language no grammar covers',
      async () => [
        await editOf(site, 'content/blog/tech/docker.en.md', (t) =>
          t.replace('\n\n', '\n\n```klingon\nqapla\n```\n\n'),
        ),
      ],
      [
        'MD002 content/blog/tech/docker.en.md',
        'LINK001 content/blog/tech/docker.en.md',
        'LINK003 content/blog/tech/pages2static.pt.md',
      ],
    ],
    [
      'another article edited',
      async () => [
        await editOf(site, 'content/blog/tech/Site.en.md', (t) => t.replace('\n\n', '\n\nA sentence elsewhere.\n\n')),
      ],
      [
        'MD002 content/blog/tech/docker.en.md',
        'LINK001 content/blog/tech/docker.en.md',
        'LINK003 content/blog/tech/pages2static.pt.md',
      ],
    ],
    [
      'the block in a language it covers',
      async () => [await editOf(site, 'content/blog/tech/docker.en.md', (t) => t.replace('```klingon', '```bash'))],
      ['LINK001 content/blog/tech/docker.en.md', 'LINK003 content/blog/tech/pages2static.pt.md'],
    ],
    [
      // An edition rule that reads nothing of the site (MD003): found again when its body changes alone.
      'a heading two levels under a section',
      async () => [
        await editOf(site, 'content/blog/tech/docker.en.md', (t) =>
          t.replace('## Images\n\n', '## Images\n\n#### Layers, two levels down\n\n'),
        ),
      ],
      [
        'LINK001 content/blog/tech/docker.en.md',
        'LINK003 content/blog/tech/pages2static.pt.md',
        'MD003 content/blog/tech/docker.en.md',
      ],
    ],
    [
      'another article edited again',
      async () => [
        await editOf(site, 'content/blog/tech/Site.en.md', (t) =>
          t.replace('\n\n', '\n\nAnother sentence elsewhere.\n\n'),
        ),
      ],
      [
        'LINK001 content/blog/tech/docker.en.md',
        'LINK003 content/blog/tech/pages2static.pt.md',
        'MD003 content/blog/tech/docker.en.md',
      ],
    ],
    [
      'the heading one level under its section',
      async () => [await editOf(site, 'content/blog/tech/docker.en.md', (t) => t.replace('#### Layers', '### Layers'))],
      ['LINK001 content/blog/tech/docker.en.md', 'LINK003 content/blog/tech/pages2static.pt.md'],
    ],
  ];

  it('reports after each change exactly what a check with no cache reports, in other articles too', async () => {
    await checksAsCold({ root: site.root, outDir: path.join(site.root, 'dist'), year: 2026 }, changes());
  });

  it('reports the same in builds of their own that share the build cache, as site build makes them', async () => {
    await checksAsCold({ root: site.root, outDir: path.join(site.root, 'dist'), year: 2026 }, changes(), [], true);
    // The titles the findings were found under are kept apart, for the next build to tell what a retitling changed.
    expect(
      (await readdir(path.join(site.root, '.cache/site'))).filter((name) => /^titles-.*\.json$/.test(name)).length,
    ).toBeGreaterThan(0);
  });
});

/**
 * The rules judged article by article (drafts, trails, translations) keep what they found in each
 * article the edit did not touch, while what they read of the rest of the site is the same: a
 * category retitled, or an article drafted that others link to, reaches the articles that read it.
 */
describe('drafts and trails in a session', () => {
  it('reports drafts, trails and translations after each change exactly as a check with no cache does, drafts shown', async () => {
    // The draft the site has all along, shown and reported as one at every step.
    const notes = 'DRAFT002 content/blog/tech/Notes.en.md';
    const trail = (category: string) =>
      `breadcrumbs:\n  - path: /blog\n    title: { en: Blog }\n  - path: /blog/tech\n    title: { en: ${category} }\n  - path: /blog/tech/Site\n    title: { en: How this site is built }\n`;
    const changes: Change[] = [
      [
        'an article made a draft that a published one links to',
        async () => [
          await editOf(site, 'content/blog/tech/Git.pt.md', (t) => t.replace(/^date: /m, 'draft: true\ndate: ')),
        ],
        ['DRAFT001 content/blog/tech/pages2static.pt.md', 'DRAFT002 content/blog/tech/Git.pt.md', notes],
      ],
      [
        // The English Site article links to it too.
        'another article scheduled',
        async () => [
          await editOf(site, 'content/blog/tech/Git.en.md', (t) => t.replace(/^date: .*$/m, 'date: 2999-01-01')),
        ],
        [
          'DRAFT001 content/blog/tech/Site.en.md',
          'DRAFT001 content/blog/tech/pages2static.pt.md',
          'DRAFT002 content/blog/tech/Git.en.md',
          'DRAFT002 content/blog/tech/Git.pt.md',
          notes,
        ],
      ],
      [
        'the draft published again',
        async () => [await editOf(site, 'content/blog/tech/Git.pt.md', (t) => t.replace('draft: true\n', ''))],
        ['DRAFT001 content/blog/tech/Site.en.md', 'DRAFT002 content/blog/tech/Git.en.md', notes],
      ],
      [
        'the other one dated again',
        async () => [
          await editOf(site, 'content/blog/tech/Git.en.md', (t) => t.replace(/^date: .*$/m, 'date: 2023-01-22')),
        ],
        [notes],
      ],
      [
        'a trail written by hand naming its category by another title',
        async () => [
          await editOf(site, 'content/blog/tech/Site.en.md', (t) =>
            t.replace(/^index: true$/m, `index: true\n${trail('Tech stuff')}`),
          ),
        ],
        ['CRUMB003 content/blog/tech/Site.en.md', notes],
      ],
      [
        'the category retitled as the trail names it',
        async () => [
          await editOf(site, 'content/categories/tech.json', (t) =>
            t.replace('"en": "💻 Tech"', '"en": "💻 Tech stuff"'),
          ),
        ],
        [notes],
      ],
      [
        'the category titled back',
        async () => [
          await editOf(site, 'content/categories/tech.json', (t) =>
            t.replace('"en": "💻 Tech stuff"', '"en": "💻 Tech"'),
          ),
        ],
        ['CRUMB003 content/blog/tech/Site.en.md', notes],
      ],
    ];
    await checksAsCold({ root: site.root, outDir: path.join(site.root, 'dist'), year: 2026, drafts: true }, changes, [
      notes,
    ]);
  });
});

describe('orphan pages in a session', () => {
  it('finds a page reached, then orphaned again, as links to it are written and taken out', async () => {
    // Books leaves the Blog index: its listing and the articles no link leads to become orphans.
    await site.edit('content/pages/blog.json', (t) => t.replace(/\n\s*"books",/, ''));
    const session = new BuildSession({ root: site.root, rebuilds: true });
    const options = { root: site.root, outDir: path.join(site.root, 'dist'), year: 2026 };
    const orphans = (diagnostics: { code: string; message: string }[]) =>
      diagnostics.filter((d) => d.code === 'ORPHAN001').map((d) => /\/blog\/\S+/.exec(d.message)?.[0]);
    const mozart = '/blog/books/MozartLifeWork';
    const steps: [string, (text: string) => string, boolean][] = [
      ['a link to it written', (t) => t.replace('\n\n', `\n\nOn [a life of Mozart](${mozart}).\n\n`), false],
      ['the link taken out', (t) => t.replace(`\n\nOn [a life of Mozart](${mozart}).\n\n`, '\n\n'), true],
    ];
    const first = await buildSite(session, options);
    expect(orphans(first.diagnostics)).toContain(mozart);
    for (const [step, change, orphaned] of steps) {
      session.invalidate([await editOf(site, 'content/blog/tech/docker.en.md', change)]);
      const warm = await buildSite(session, options);
      expect(warm.diagnostics, step).toEqual(await coldCheck(site.root));
      expect(orphans(warm.diagnostics).includes(mozart), step).toBe(orphaned);
    }
  });
});

describe('links to an empty listing in a session', () => {
  it('finds a link to a category with no article in its language as it is written, and not once it is taken out', async () => {
    const session = new BuildSession({ root: site.root, rebuilds: true });
    const options = { root: site.root, outDir: path.join(site.root, 'dist'), year: 2026 };
    const toEmpty = (diagnostics: { code: string; file: string }[]) =>
      diagnostics.filter((d) => d.code === 'LINK005').map((d) => d.file);
    const file = 'content/blog/tech/docker.en.md';
    const link = '\n\nMore in [the culture category](/blog/culture).\n\n';
    const steps: [string, (text: string) => string, string[]][] = [
      ['a link to it written', (t) => t.replace('\n\n', link), [file]],
      ['the link taken out', (t) => t.replace(link, '\n\n'), []],
    ];
    expect(toEmpty((await buildSite(session, options)).diagnostics)).toEqual([]);
    for (const [step, change, expected] of steps) {
      session.invalidate([await editOf(site, file, change)]);
      const warm = await buildSite(session, options);
      expect(warm.diagnostics, step).toEqual(await coldCheck(site.root));
      expect(toEmpty(warm.diagnostics), step).toEqual(expected);
    }
  });
});

/**
 * The media folder is listed and signed once in a session, and again when a change under it is
 * reported: a file added, replaced or removed reaches the output at the next build.
 */
describe('the media folder in a session', () => {
  it('copies a media file added, replaced or removed once the session is told of it', async () => {
    const session = new BuildSession({ root: site.root, rebuilds: true });
    const options = { root: site.root, outDir: inPlace(), year: 2026, commit: 'in-place' as const };
    expect((await buildSite(session, options)).ok).toBe(true);
    const file = path.join(site.root, 'content', 'media', 'session-note.svg');
    const published = path.join(options.outDir, 'media', 'session-note.svg');
    const svg = (title: string) =>
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><title>${title}</title></svg>\n`;

    await writeFile(file, svg('added'));
    session.invalidate([file]);
    expect((await buildSite(session, options)).ok).toBe(true);
    expect(await readFile(published, 'utf8')).toContain('added');

    await writeFile(file, svg('replaced in the session'));
    session.invalidate([file]);
    expect((await buildSite(session, options)).ok).toBe(true);
    expect(await readFile(published, 'utf8')).toContain('replaced in the session');

    await rm(file);
    session.invalidate([file]);
    expect((await buildSite(session, options)).ok).toBe(true);
    await expect(readFile(published)).rejects.toThrow();
  });

  it('sizes again the figures of bodies it did not read again when their image is replaced', async () => {
    const session = new BuildSession({ root: site.root, rebuilds: true });
    const options = { root: site.root, outDir: inPlace(), year: 2026, commit: 'in-place' as const };
    expect((await buildSite(session, options)).ok).toBe(true);
    const page = path.join(options.outDir, 'blog/tech/Site.html');
    expect(await readFile(page, 'utf8')).not.toContain('width="123"');
    // The Site article's figure shows this image: its body gives the figure the image's size.
    const image = path.join(site.root, 'content/media/owner/portrait.svg');
    await writeFile(
      image,
      '<svg xmlns="http://www.w3.org/2000/svg" width="123" height="45" viewBox="0 0 123 45"><title>wider</title></svg>\n',
    );
    session.invalidate([image]);
    expect((await buildSite(session, options)).ok).toBe(true);
    expect(await readFile(page, 'utf8')).toMatch(
      /<img[^>]*portrait\.svg[^>]*width="123"[^>]*height="45"|<img[^>]*width="123"[^>]*height="45"[^>]*portrait\.svg/,
    );
  });
});
