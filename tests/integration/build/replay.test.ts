import { execFile } from 'node:child_process';
import { cp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type BuildOptions, type BuildResult, build } from '../../../src/build/pipeline';
import { site as siteCommand } from '../../support/cli';
import { type SmallSite, smallSite } from '../../support/content';

vi.setConfig({ testTimeout: 90_000 });

const run = promisify(execFile);

/** A file's stat signature is trusted two seconds after its last change (src/load/stat.ts). */
const SETTLING_MS = 2100;
const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLING_MS));

/** Every file of a folder by path, with its inode and modification time: what a build that makes nothing leaves as it was. */
async function outputState(dir: string): Promise<Map<string, string>> {
  const state = new Map<string, string>();
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const absolute = path.join(entry.parentPath, entry.name);
    const info = await stat(absolute);
    state.set(path.relative(dir, absolute), `${info.ino} ${info.mtimeMs}`);
  }
  return state;
}

/**
 * `site build` keeps, with its build cache, a record of everything it read from outside it (its
 * footprint: the tool's code, its options, the day, every file under content/) and of what it
 * said. A build whose footprint is the last one's, into the output folder that build left, makes
 * nothing and says again what it said; anything else it reads changed, and the build runs.
 */
describe('a build that finds nothing it reads changed since the last one', () => {
  let site: SmallSite;
  const dist = () => path.join(site.root, 'dist');
  const building = (options: Partial<BuildOptions> = {}) =>
    build({ root: site.root, outDir: dist(), year: 2026, ...options });
  /** A build of settled files, run whole: it keeps its record. */
  const recorded = async (options: Partial<BuildOptions> = {}): Promise<BuildResult> => {
    await settle();
    const result = await building(options);
    expect(result.ok, JSON.stringify(result.diagnostics)).toBe(true);
    return result;
  };

  beforeAll(async () => {
    site = await smallSite();
    // A heading two levels below the one before it: a warning the build says again when replayed.
    await site.edit('content/blog/tech/docker.en.md', (text) => text.replace(/\n## /, '\n#### '));
    expect((await building()).ok).toBe(true);
  });
  afterAll(() => site.cleanup());

  it('makes nothing and says again what the last build said: its warnings, pages and the editions it left out', async () => {
    const whole = await recorded();
    expect(whole.replayed).toBeUndefined();
    expect(whole.diagnostics.filter((d) => d.severity === 'warning').map((d) => d.code)).toContain('MD003');
    expect(whole.held.length).toBeGreaterThan(0);
    const before = await outputState(dist());

    const again = await building();
    expect(again.replayed).toBeDefined();
    expect(again.ok).toBe(true);
    expect(again.remade).toEqual([]);
    expect(again.diagnostics).toEqual(whole.diagnostics);
    expect(again.pages).toEqual(whole.pages);
    expect(again.held.map(({ source, state }) => [source.file, state])).toEqual(
      whole.held.map(({ source, state }) => [source.file, state]),
    );
    // The page-weight report's pages, and their sizes, are the whole build's.
    expect(again.replayed?.entries).toEqual(whole.output?.entries);
    for (const [file, { bytes }] of again.replayed?.sizes ?? [])
      expect(bytes, file).toBe(whole.output?.write.manifest.files.get(file)?.bytes);
    expect(await outputState(dist())).toEqual(before);
  });

  it('prints what the whole build printed, and says with --explain why nothing was made', async () => {
    await settle();
    const args = ['--root', site.root, 'build', '--out', dist()];
    // Not under CI, which prints the summary line alone: the page-weight table too.
    const whole = await siteCommand(args, { CI: '' });
    expect(whole.code, whole.stderr).toBe(0);
    const again = await siteCommand([...args, '--explain'], { CI: '' });
    expect(again.code, again.stderr).toBe(0);
    const line = (text: string) => text.replace(/ in \d+\.\d\d s/, '');
    expect(again.stderr).toBe(whole.stderr);
    // The page-weight table and the summary line; the stage line is left out, as no stage ran.
    expect(line(again.stdout)).toBe(
      line(
        whole.stdout
          .split('\n')
          .filter((text) => !/^ {2}images \d/.test(text))
          .join('\n'),
      ).replace(
        /^page kind/m,
        'Nothing was made again: nothing the build reads changed since the last build, whose output is in place.\npage kind',
      ),
    );
    expect(again.stdout).toMatch(/✓ built \d+ pages .* nothing changed/);
  });

  const edits: [string, () => Promise<void>][] = [
    [
      'a content file written again with the same text',
      async () => {
        const file = path.join(site.root, 'content/blog/tech/Git.en.md');
        await writeFile(file, await readFile(file));
      },
    ],
    [
      'a media file added',
      () => writeFile(path.join(site.root, 'content/media/added.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>'),
    ],
    ['the output folder removed', () => rm(dist(), { recursive: true })],
    [
      'the output folder replaced by a copy of itself',
      async () => {
        await rename(dist(), `${dist()}-old`);
        await cp(`${dist()}-old`, dist(), { recursive: true });
        await rm(`${dist()}-old`, { recursive: true });
      },
    ],
    ['a file added at the top of the output folder', () => writeFile(path.join(dist(), 'notes.txt'), 'by hand\n')],
    [
      'a build in place in between (site dev)',
      async () => {
        expect((await building({ commit: 'in-place' })).ok).toBe(true);
      },
    ],
  ];

  it.each(edits)('builds when %s', async (_, edit) => {
    await recorded();
    await edit();
    const result = await building();
    expect(result.ok).toBe(true);
    expect(result.replayed).toBeUndefined();
    expect(result.output).toBeDefined();
    // The next build finds nothing changed again, and replays this one.
    await site.restore();
    await recorded();
    expect((await building()).replayed).toBeDefined();
  });

  const options: [string, Partial<BuildOptions>][] = [
    ['on another day', { today: '2099-01-01' }],
    ['for another year', { year: 2027 }],
    ['with drafts', { drafts: true }],
    ['with another base URL', { baseUrl: 'https://elsewhere.example.org' }],
    ['into another output folder', { outDir: '' }],
  ];

  it.each(options)('builds when asked to build %s', async (_, asked) => {
    await recorded();
    const outDir = asked.outDir === '' ? path.join(site.root, 'dist-other') : dist();
    const result = await building({ ...asked, outDir });
    expect(result.ok).toBe(true);
    expect(result.replayed).toBeUndefined();
  });

  it('builds when an environment variable that shapes the output differs (share cards off)', async () => {
    await recorded();
    const cards = process.env.SITE_CARDS;
    process.env.SITE_CARDS = 'off';
    try {
      expect((await building()).replayed).toBeUndefined();
    } finally {
      if (cards === undefined) delete process.env.SITE_CARDS;
      else process.env.SITE_CARDS = cards;
    }
  });

  it('is checked against the build it stands for under SITE_CHECK_SHORTCUTS=1: a record that says otherwise stops the build', async () => {
    // As the command runs it: its footprint names React's production build, which this process does not use.
    const command = (env: NodeJS.ProcessEnv = {}) =>
      siteCommand(['--root', site.root, 'build', '--out', dist(), '--quiet'], env);
    await settle();
    expect((await command()).code).toBe(0);
    const checked = await command({ SITE_CHECK_SHORTCUTS: '1' });
    expect(checked.code, checked.stderr).toBe(0);
    // A record that says the build made one English page more: the build run beside the replay says otherwise.
    const file = path.join(site.root, '.cache', 'site', 'last-build.json');
    const record = JSON.parse(await readFile(file, 'utf8')) as { outcome: { pages: { en: number } } };
    record.outcome.pages.en += 1;
    await writeFile(file, JSON.stringify(record));
    const wrong = await command({ SITE_CHECK_SHORTCUTS: '1' });
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toContain('a shortcut disagrees with the data it stands for: the last build replayed');
  });
});

describe('a replayed build and git', () => {
  let site: SmallSite;
  const git = (...args: string[]) =>
    run(
      'git',
      ['-c', 'user.name=Owner', '-c', 'user.email=owner@example.org', '-c', 'init.defaultBranch=main', ...args],
      {
        cwd: site.root,
        env: { ...process.env, GIT_COMMITTER_DATE: committed },
      },
    );
  let committed = '';

  beforeAll(async () => {
    site = await smallSite();
    await git('init', '-q');
    await git('add', 'content');
    committed = '2024-01-02T12:00:00Z';
    await git('commit', '-q', '-m', 'The site');
  });
  afterAll(() => site.cleanup());

  it('asks git again: an outdated translation dated by a commit is dated anew when the commit is', async () => {
    await site.edit('content/blog/tech/Git.en.md', (text) => text.replace(/\n## ([^\n]*)/, '\n## $1, rewritten'));
    committed = '2024-02-03T12:00:00Z';
    await git('commit', '-q', '-am', 'Rewrite a heading');
    await settle();
    const outDir = path.join(site.root, 'dist');
    const first = await build({ root: site.root, outDir, year: 2026 });
    expect(first.ok).toBe(true);
    const outdated = (result: BuildResult) =>
      result.diagnostics.filter((d) => d.code === 'TRANS001').map((d) => /changed on (\S+)/.exec(d.message)?.[1]);
    expect(outdated(first)).toEqual(['2024-02-03']);
    expect((await build({ root: site.root, outDir, year: 2026 })).replayed).toBeDefined();

    // The same files, committed on another day: the pages and the warning name it.
    committed = '2024-03-04T12:00:00Z';
    await git('commit', '-q', '--amend', '--no-edit');
    const again = await build({ root: site.root, outDir, year: 2026 });
    expect(again.replayed).toBeUndefined();
    expect(outdated(again)).toEqual(['2024-03-04']);
    expect(await readFile(path.join(outDir, 'pt/blog/tech/Git.html'), 'utf8')).toContain('4 de março de 2024');
  });
});
