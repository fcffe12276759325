import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoDay } from '../../../src/shared/date';
import { bodySections, editionPrint, printChanges } from '../../../src/translations/print';
import { site } from '../../support/cli';
import { PROJECT_ROOT } from '../../support/content';

const run = promisify(execFile);
const git = (cwd: string, ...args: string[]) =>
  run(
    'git',
    ['-c', 'user.name=Owner', '-c', 'user.email=owner@example.org', '-c', 'init.defaultBranch=main', ...args],
    { cwd },
  );

const EN = 'content/blog/tech/Git.en.md';
const PT = 'content/blog/tech/Git.pt.md';

/** The warnings `site check` prints, one string each: "file:line:column warning CODE: message". */
const warnings = (output: string) => output.split('\n').filter((line) => / warning [A-Z]+\d+: /.test(line));

describe('outdated translations, in a shallow clone of the site', () => {
  let scratch: string;
  let clone: string;
  const today = isoDay(new Date());

  beforeAll(async () => {
    // The site's repository: the real content (media linked), committed; CI works on a clone of depth 1.
    scratch = await mkdtemp(path.join(os.tmpdir(), 'site-translations-'));
    const origin = path.join(scratch, 'origin');
    await cp(path.join(PROJECT_ROOT, 'content'), path.join(origin, 'content'), {
      recursive: true,
      filter: (src) => !src.startsWith(path.join(PROJECT_ROOT, 'content', 'media')),
    });
    await cp(path.join(PROJECT_ROOT, 'content', 'media'), path.join(origin, 'content', 'media'), { recursive: true });
    await git(origin, 'init', '-q');
    await git(origin, 'add', '.');
    await git(origin, 'commit', '-q', '-m', 'The site');
    clone = path.join(scratch, 'clone');
    await git(scratch, 'clone', '-q', '--depth', '1', `file://${origin}`, clone);
    expect((await git(clone, 'rev-parse', '--is-shallow-repository')).stdout.trim()).toBe('true');
  }, 60_000);
  afterAll(() => rm(scratch, { recursive: true, force: true }));

  it('starts with every translation in line: site check --strict is clean', async () => {
    const { code, stdout } = await site(['--root', clone, 'check', '--strict']);
    expect(code, stdout).toBe(0);
  });

  it('starts a draft with site new that site build leaves out of every file, and site check --drafts shows', async () => {
    const started = await site(['--root', clone, 'new', 'tech/Shallow-Notes']);
    expect(started.code, started.stderr).toBe(0);
    const built = await site(['--root', clone, 'build', '--out', 'dist', '--quiet']);
    expect(built.code, built.stderr).toBe(0);
    expect(built.stdout).toContain('; 2 drafts left out');
    const files = (await readdir(path.join(clone, 'dist'), { recursive: true })).filter((f) =>
      /\.(html|xml|json)$/.test(f),
    );
    for (const file of files)
      expect(await readFile(path.join(clone, 'dist', file), 'utf8'), file).not.toContain('Shallow-Notes');
    const shown = await site(['--root', clone, 'check', '--drafts']);
    expect(
      warnings(shown.stderr)
        .filter((line) => line.includes('Shallow-Notes'))
        .map((line) => line.replace(/:\d+:\d+ /, ' '))
        .sort(),
    ).toEqual([
      'content/blog/tech/Shallow-Notes.en.md warning DRAFT002: this English edition is a draft: site build leaves it out',
      'content/blog/tech/Shallow-Notes.pt.md warning DRAFT002: this Portuguese edition is a draft: site build leaves it out',
      'content/blog/tech/Shallow-Notes.pt.md warning TRANS002: the English and Portuguese editions were never marked as saying the same',
    ]);
    await rm(path.join(clone, 'content/blog/tech/Shallow-Notes.en.md'));
    await rm(path.join(clone, 'content/blog/tech/Shallow-Notes.pt.md'));
  });

  it('warns on the Portuguese edition when the English one is rewritten, naming what changed, and its page tells the reader', async () => {
    const text = await readFile(path.join(clone, EN), 'utf8');
    await writeFile(
      path.join(clone, EN),
      text
        .replace('## Undoing things', '## Undoing mistakes')
        .replace(
          '## Where to go next',
          '## Hooks\n\nA hook runs a script when something happens.\n\n## Where to go next',
        ),
    );
    const check = await site(['--root', clone, 'check']);
    expect(check.code).toBe(0);
    expect(warnings(check.stderr)).toEqual([
      `${PT}:2:1 warning TRANS001: the English edition (${EN}) changed on ${today} since this one was last brought in line with it: "Undoing mistakes" and "Hooks" changed`,
    ]);
    expect(check.stderr).toContain(
      `hint: Bring this translation in line with it, then run \`site translations sync ${PT}\`.`,
    );
    // Committed, the change is dated by its commit: the same day here.
    await git(clone, 'commit', '-q', '-am', 'Rewrite the English Git article');
    expect(warnings((await site(['--root', clone, 'check'])).stderr)).toHaveLength(1);

    const built = await site(['--root', clone, 'build', '--out', 'dist', '--quiet']);
    expect(built.code, built.stderr).toBe(0);
    const pt = await readFile(path.join(clone, 'dist/pt/blog/tech/Git.html'), 'utf8');
    const day = new Intl.DateTimeFormat('pt-PT', {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(new Date(`${today}T00:00:00Z`));
    expect(pt).toContain(
      `<p class="note" role="note">A <a href="/blog/tech/Git" hrefLang="en">versão inglesa</a> deste artigo foi atualizada a ${day}; esta tradução pode não incluir essas alterações.</p>`,
    );
    // The English page, which is the newer text, has no notice.
    expect(await readFile(path.join(clone, 'dist/blog/tech/Git.html'), 'utf8')).not.toContain('role="note"');
  });

  it('site translations shows the Portuguese edition outdated since that day, as text and JSON', async () => {
    const table = await site(['--root', clone, 'translations']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(new RegExp(`^/blog/tech/Git +up to date +outdated since ${today}$`, 'm'));
    expect(table.stdout).toMatch(/^\/blog\/culture\/gulbenkian +missing +up to date$/m);
    expect(table.stdout).toMatch(/up to date \d+ · outdated 1 · missing \d+ · not tracked 0\n$/);
    const json = JSON.parse((await site(['--root', clone, 'translations', '--format', 'json'])).stdout) as {
      rows: { route: string; lang: string; state: string; since?: string; file?: string }[];
      counts: Record<string, number>;
    };
    expect(json.rows.find((row) => row.route === '/blog/tech/Git' && row.lang === 'pt')).toEqual({
      route: '/blog/tech/Git',
      lang: 'pt',
      state: 'outdated',
      file: PT,
      since: today,
    });
    expect(json.counts.outdated).toBe(1);
  });

  it('site translations sync clears the warning and the notice', async () => {
    const synced = await site(['--root', clone, 'translations', 'sync', PT]);
    expect(synced.code, synced.stderr).toBe(0);
    expect(synced.stdout).toContain(`✓ ${EN} and ${PT} marked as in line`);
    expect((await site(['--root', clone, 'check', '--strict'])).code).toBe(0);
    expect((await site(['--root', clone, 'build', '--out', 'dist', '--quiet'])).code).toBe(0);
    expect(await readFile(path.join(clone, 'dist/pt/blog/tech/Git.html'), 'utf8')).not.toContain('role="note"');
  });

  it('warns on a JSON text whose other language changed, at its place in the file', async () => {
    const file = path.join(clone, 'content/strings.json');
    const text = await readFile(file, 'utf8');
    await writeFile(
      file,
      text.replace('"article.next": { "en": "Next article"', '"article.next": { "en": "Read next"'),
    );
    const check = await site(['--root', clone, 'check']);
    const line = text.split('\n').findIndex((l) => l.includes('"article.next"')) + 1;
    expect(warnings(check.stderr)).toEqual([
      `content/strings.json:${line}:3 warning TRANS001: the English text changed on ${today} since this Portuguese one was last brought in line with it`,
    ]);
    expect((await site(['--root', clone, 'translations', 'sync', 'content/strings.json'])).code).toBe(0);
    expect((await site(['--root', clone, 'check', '--strict'])).code).toBe(0);
  });

  it('mends a broken lock (a merge gone wrong) with sync --all, which reads none', async () => {
    const lock = path.join(clone, 'content/translations.json');
    const text = await readFile(lock, 'utf8');
    await writeFile(lock, text.replace('"articles": {', '<<<<<<< HEAD\n  "articles": {'));
    const check = await site(['--root', clone, 'check']);
    expect(check.code).toBe(1);
    expect(check.stderr).toMatch(/^content\/translations\.json:\d+:\d+ error JSON001/m);
    // The lock's error is the one thing said: no translation is judged against a broken lock.
    expect(warnings(check.stderr)).toEqual([]);
    const one = await site(['--root', clone, 'translations', 'sync', PT]);
    expect(one.code).toBe(1);
    expect(one.stderr).toContain('site translations sync --all');
    expect(await readFile(lock, 'utf8')).toContain('<<<<<<< HEAD');
    // A link to nothing in its place is named too, not taken for a site with no lock.
    await rm(lock);
    await symlink('nowhere.json', lock);
    const dangling = await site(['--root', clone, 'check']);
    expect(dangling.code).toBe(1);
    expect(dangling.stderr).toContain('content/translations.json error FILE001');
    expect(warnings(dangling.stderr)).toEqual([]);
    await rm(lock);
    const all = await site(['--root', clone, 'translations', 'sync', '--all']);
    expect(all.code, all.stderr).toBe(0);
    expect((await site(['--root', clone, 'check', '--strict'])).code).toBe(0);
  });

  it('says nothing of a published edition whose counterpart is a draft being reworked', async () => {
    const text = await readFile(path.join(clone, PT), 'utf8');
    await writeFile(
      path.join(clone, PT),
      text.replace(/^date: (.*)$/m, 'date: $1\ndraft: true').replace('## ', '## Reescrito: '),
    );
    expect(warnings((await site(['--root', clone, 'check'])).stderr)).toEqual([]);
    await writeFile(path.join(clone, PT), text);
  });

  it('says once per article that a new bilingual article was never brought in line, and refuses to sync a file without a counterpart', async () => {
    const write = (file: string, title: string) =>
      writeFile(
        path.join(clone, file),
        `---\ntitle: ${title}\ndescription: ${title}.\ndate: 2026-01-10\n---\n\nText.\n`,
      );
    await write('content/blog/tech/Rebase.en.md', 'Rebasing');
    await write('content/blog/tech/Rebase.pt.md', 'Rebase');
    await write('content/blog/tech/Stash.en.md', 'Stashing');
    const check = await site(['--root', clone, 'check']);
    expect(warnings(check.stderr)).toEqual([
      'content/blog/tech/Rebase.pt.md:2:1 warning TRANS002: the English and Portuguese editions were never marked as saying the same',
    ]);
    const refused = await site(['--root', clone, 'translations', 'sync', 'content/blog/tech/Stash.en.md']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('✗ content/blog/tech/Stash.en.md has no Portuguese edition to be in line with');
    expect((await site(['--root', clone, 'translations', 'sync', 'content/blog/tech/Rebase.en.md'])).code).toBe(0);
    expect((await site(['--root', clone, 'check', '--strict'])).code).toBe(0);
  });
});

describe('what the lock records of an edition', () => {
  it('splits a body at its "## " headings, never inside fenced code', () => {
    const sections = bodySections(
      'Intro.\n\n```md\n## not a heading\n```\n\n## Setup\n\nSteps.\n\n~~~\n## nor this\n~~~\n\n## Use ##\n\nMore.',
    );
    expect(sections.map((s) => s.name)).toEqual(['', 'Setup', 'Use']);
  });

  it('names the sections changed or added, counts those removed, and counts a renamed one as changed', () => {
    const was = editionPrint('Git', 'About Git.', 'Intro.\n\n## One\n\nA.\n\n## Two\n\nB.\n\n## Three\n\nC.');
    const now = editionPrint(
      'Git, again',
      'About Git.',
      'Intro.\n\n## One\n\nA, changed.\n\n## Deux\n\nB.\n\n## Four\n\nD.',
    );
    expect(printChanges(was, now)).toEqual({ changed: ['the title', '"One"', '"Deux"', '"Four"'], removed: 0 });
    expect(printChanges(now, editionPrint('Git, again', 'About Git.', 'Intro.'))).toEqual({ changed: [], removed: 3 });
    // Line endings and trailing spaces are not changes.
    expect(
      printChanges(
        was,
        editionPrint(
          'Git',
          'About Git.',
          'Intro.  \r\n\r\n## One\r\n\r\nA.\r\n\r\n## Two\r\n\r\nB.\r\n\r\n## Three\r\n\r\nC.\r\n',
        ),
      ),
    ).toEqual({ changed: [], removed: 0 });
  });
});
