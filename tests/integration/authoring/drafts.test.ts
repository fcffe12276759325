import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, buildSite, loadSite } from '../../../src/build/pipeline';
import { BuildSession } from '../../../src/build/session';
import { site } from '../../support/cli';
import { copyOfContent } from '../../support/content';

/** A draft (both languages) and an article scheduled for 6 May 2031 (English), in the tech category. */
const DRAFT = {
  slug: 'Unpublished-Notes',
  title: 'Notes nobody should see yet',
  titlePt: 'Notas que ninguém deve ver ainda',
};
const SCHEDULED = { slug: 'Tomorrows-Plan', title: 'A plan for a later day', date: '2031-05-06' };

async function writeArticles(root: string): Promise<void> {
  const dir = path.join(root, 'content/blog/tech');
  const file = (title: string, extra: string, body: string) =>
    `---\ntitle: ${title}\ndescription: ${title}, in short.\ndate: 2026-01-10\n${extra}---\n\n${body}\n`;
  await writeFile(
    path.join(dir, `${DRAFT.slug}.en.md`),
    file(DRAFT.title, 'draft: true\n', 'Half-written, with [a published article](/blog/tech/Site).'),
  );
  await writeFile(path.join(dir, `${DRAFT.slug}.pt.md`), file(DRAFT.titlePt, 'draft: true\n', 'Meio escrito.'));
  await writeFile(
    path.join(dir, `${SCHEDULED.slug}.en.md`),
    file(SCHEDULED.title, '', 'Written ahead of its day.').replace('date: 2026-01-10', `date: ${SCHEDULED.date}`),
  );
}

/** Every text file of a build (compressed copies and images aside), by path. */
async function outputTexts(dir: string): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  for (const file of await readdir(dir, { recursive: true })) {
    if (!/\.(html|xml|json|txt|webmanifest|js)$/.test(file)) continue;
    texts.set(file, await readFile(path.join(dir, file), 'utf8'));
  }
  return texts;
}

describe('drafts and scheduled articles', () => {
  let content: Awaited<ReturnType<typeof copyOfContent>>;
  beforeAll(async () => {
    content = await copyOfContent({ articles: 'clean' });
    await writeArticles(content.root);
  });
  afterAll(() => content.cleanup());

  it('leaves no trace of either in any file of `site build` (pages, listings, search, sitemap, feeds, neighbours)', async () => {
    const outDir = path.join(content.root, 'dist-published');
    const result = await build({ root: content.root, outDir, cache: false, today: '2031-05-05' });
    expect(result.ok, JSON.stringify(result.diagnostics)).toBe(true);
    expect(result.held.map((h) => [h.source.file, h.state.kind]).sort()).toEqual([
      ['content/blog/tech/Tomorrows-Plan.en.md', 'scheduled'],
      ['content/blog/tech/Unpublished-Notes.en.md', 'draft'],
      ['content/blog/tech/Unpublished-Notes.pt.md', 'draft'],
    ]);
    const texts = await outputTexts(outDir);
    expect(texts.size).toBeGreaterThan(40);
    for (const [file, text] of texts) {
      for (const trace of [DRAFT.slug, DRAFT.title, DRAFT.titlePt, SCHEDULED.slug, SCHEDULED.title])
        expect(text.includes(trace), `${file} mentions "${trace}"`).toBe(false);
    }
    // The neighbours of the tech article published beside them know nothing of them either.
    expect(texts.get('blog/tech/Site.html')).toBeDefined();
  });

  it('publishes the scheduled article, unmarked, in a build on its day', async () => {
    const outDir = path.join(content.root, 'dist-on-the-day');
    const result = await build({ root: content.root, outDir, cache: false, today: SCHEDULED.date });
    expect(result.ok).toBe(true);
    const texts = await outputTexts(outDir);
    const page = texts.get(`blog/tech/${SCHEDULED.slug}.html`) ?? '';
    expect(page).toContain(`<h1>${SCHEDULED.title}</h1>`);
    expect(page).not.toContain('class="status"');
    expect(texts.get('blog/tech.html')).toContain(SCHEDULED.title);
    expect(texts.get('sitemap.xml')).toContain(`/blog/tech/${SCHEDULED.slug}`);
    expect(texts.get('feed.en.xml')).toContain(SCHEDULED.title);
    // The draft still waits.
    expect(texts.has(`blog/tech/${DRAFT.slug}.html`)).toBe(false);
  });

  it('builds both, marked in each language, under --drafts', async () => {
    const outDir = path.join(content.root, 'dist-preview');
    const result = await build({ root: content.root, outDir, cache: false, drafts: true, today: '2031-05-05' });
    expect(result.ok).toBe(true);
    expect(result.held).toEqual([]);
    const texts = await outputTexts(outDir);
    expect(texts.get(`blog/tech/${DRAFT.slug}.html`)).toContain('<span class="status">Draft</span>');
    expect(texts.get(`pt/blog/tech/${DRAFT.slug}.html`)).toContain('<span class="status">Rascunho</span>');
    expect(texts.get(`blog/tech/${SCHEDULED.slug}.html`)).toContain(
      '<span class="status">Scheduled for 6 May 2031</span>',
    );
    // Listed where they will appear, marked there too.
    const listing = texts.get('blog/tech.html') ?? '';
    expect(listing).toContain(DRAFT.title);
    expect(listing).toContain('<span class="status">Draft</span>');
    expect(texts.get('pt/blog/tech.html')).toContain('<span class="status">Rascunho</span>');
    // And the published article beside them is not marked.
    expect(texts.get('blog/tech/Site.html')).not.toContain('class="status"');
  });

  it('warns on each one (DRAFT002) where drafts are shown, and says nothing of them otherwise', async () => {
    const shown = await loadSite(content.root, { drafts: true, today: '2031-05-05' });
    const warnings = shown.diagnostics
      .filter((d) => d.code === 'DRAFT002')
      .map((d) => `${d.file}:${d.line} ${d.message}`);
    expect(warnings.sort()).toEqual([
      'content/blog/tech/Tomorrows-Plan.en.md:4 this English edition is scheduled for 2031-05-06: a build before that day leaves it out',
      'content/blog/tech/Unpublished-Notes.en.md:5 this English edition is a draft: site build leaves it out',
      'content/blog/tech/Unpublished-Notes.pt.md:5 this Portuguese edition is a draft: site build leaves it out',
    ]);
    const published = await loadSite(content.root, { today: '2031-05-05' });
    expect(published.diagnostics.filter((d) => d.code.startsWith('DRAFT'))).toEqual([]);
  });

  it('judges links to a draft again in a session when it is published, or made a draft again (site dev)', async () => {
    const session = new BuildSession({ root: content.root, rebuilds: true });
    const options = {
      root: content.root,
      outDir: path.join(content.root, 'dist-session'),
      drafts: true,
      today: '2031-05-05',
    };
    const link = path.join(content.root, 'content/blog/tech/Site.en.md');
    const before = await readFile(link, 'utf8');
    await writeFile(link, before.replace('\n\n', `\n\nSee [the notes](/blog/tech/${DRAFT.slug}).\n\n`));
    const codes = async (changed: string[]) => {
      session.invalidate(changed);
      return (await buildSite(session, options)).diagnostics.filter((d) => d.code === 'DRAFT001').map((d) => d.file);
    };
    expect(await codes([link])).toEqual(['content/blog/tech/Site.en.md']);
    const draft = path.join(content.root, `content/blog/tech/${DRAFT.slug}.en.md`);
    const text = await readFile(draft, 'utf8');
    await writeFile(draft, text.replace('draft: true\n', ''));
    expect(await codes([draft])).toEqual([]);
    await writeFile(draft, text);
    expect(await codes([draft])).toEqual(['content/blog/tech/Site.en.md']);
    // A scheduled page may link to what is published by its own day, not to a draft.
    const scheduled = path.join(content.root, `content/blog/tech/${SCHEDULED.slug}.en.md`);
    const plan = await readFile(scheduled, 'utf8');
    await writeFile(
      scheduled,
      plan.replace(
        'Written ahead of its day.',
        `Written ahead of its day, after [the notes](/blog/tech/${DRAFT.slug}).`,
      ),
    );
    expect((await codes([scheduled])).sort()).toEqual([
      'content/blog/tech/Site.en.md',
      'content/blog/tech/Tomorrows-Plan.en.md',
    ]);
    await writeFile(scheduled, plan);
    await writeFile(link, before);
  });

  it('`site check` lists what is scheduled and when, and the drafts', async () => {
    const { code, stdout } = await site(['--root', content.root, 'check']);
    expect(code).toBe(0);
    expect(stdout).toContain(
      'Scheduled (published by the first build on or after the day, UTC): 1\n  2031-05-06  content/blog/tech/Tomorrows-Plan.en.md',
    );
    expect(stdout).toContain(
      'Drafts (left out until "draft: true" is removed; site dev and --drafts show them): 2\n  content/blog/tech/Unpublished-Notes.en.md\n  content/blog/tech/Unpublished-Notes.pt.md',
    );
  });
});
