import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { site } from '../../support/cli';
import { copyOfContent, PROJECT_ROOT } from '../../support/content';

/**
 * The cases of damaged content and failing surroundings that once crashed `site check` or
 * `site build` with a stack trace, hung, or passed in silence: each must now end with
 * diagnostics (or one line), the right exit code, and no stack trace.
 */

const STACK = /^\s+at .+:\d+:\d+\)?$|RangeError|SyntaxError|TypeError|triggerUncaughtException/m;

interface Found {
  code: string;
  file: string;
  line: number;
  severity: string;
}

let content: Awaited<ReturnType<typeof copyOfContent>>;
beforeEach(async () => {
  content = await copyOfContent();
});
afterEach(async () => {
  await content.cleanup();
});

const file = (relative: string) => path.join(content.root, relative);

/** `site check --format json`: its exit code and diagnostics, after asserting the output is clean JSON. */
async function checkJson(): Promise<{ code: number; diagnostics: Found[] }> {
  const result = await site(['--root', content.root, 'check', '--format', 'json']);
  expect(result.stderr).not.toMatch(STACK);
  expect(result.stdout).not.toMatch(STACK);
  const diagnostics = JSON.parse(result.stdout) as Found[];
  return { code: result.code, diagnostics };
}

const codesOn = (diagnostics: Found[], relative: string) =>
  diagnostics.filter((d) => d.file === relative).map((d) => d.code);

describe('site check on damaged content', () => {
  it('reports a category file cut short as JSON001 on that file', async () => {
    const relative = 'content/categories/tech.json';
    const text = await readFile(file(relative), 'utf8');
    await writeFile(file(relative), text.slice(0, Math.floor(text.length / 2)));
    const { code, diagnostics } = await checkJson();
    expect(code).toBe(1);
    expect(codesOn(diagnostics, relative)).toContain('JSON001');
    // The category's articles are not reported as having no category: the file exists.
    expect(diagnostics.filter((d) => d.code === 'CAT001')).toEqual([]);
  });

  it('reports a category file with one character deleted as JSON001 on that file', async () => {
    const relative = 'content/categories/books.json';
    await content.edit(relative, (t) => t.replace('",', '"'));
    const { code, diagnostics } = await checkJson();
    expect(code).toBe(1);
    expect(codesOn(diagnostics, relative)).toEqual(['JSON001']);
  });

  it('reports JSON nested 50,000 levels deep as DEPTH001', async () => {
    await writeFile(file('content/pages/blog.json'), `${'['.repeat(50_000)}${']'.repeat(50_000)}`);
    const { code, diagnostics } = await checkJson();
    expect(code).toBe(1);
    expect(diagnostics).toEqual([
      expect.objectContaining({ code: 'DEPTH001', file: 'content/pages/blog.json', line: 1 }),
    ]);
  });

  it('reports an article with 20,000 nested blockquotes as DEPTH001 on its line', async () => {
    const relative = 'content/blog/tech/Git.en.md';
    const lines = (await readFile(file(relative), 'utf8')).split('\n').length;
    await content.edit(relative, (t) => `${t}\n${'>'.repeat(20_000)} deep\n`);
    const { code, diagnostics } = await checkJson();
    expect(code).toBe(1);
    expect(diagnostics.filter((d) => d.file === relative)).toEqual([
      expect.objectContaining({ code: 'DEPTH001', line: lines + 1 }),
    ]);
  });

  it('reports an article file that is a link to nothing as FILE001', async () => {
    const relative = 'content/blog/tech/Drafted.en.md';
    await symlink('../../nowhere/Drafted.en.md', file(relative));
    const { code, diagnostics } = await checkJson();
    expect(code).toBe(1);
    expect(codesOn(diagnostics, relative)).toEqual(['FILE001']);
  });

  it('reports invalid UTF-8 as TEXT001 and a NUL byte as TEXT002, at their lines', async () => {
    const latin = 'content/blog/cinema/Fassbinder.en.md';
    const nul = 'content/blog/cinema/Fassbinder.pt.md';
    const raw = await readFile(file(latin));
    await writeFile(
      file(latin),
      Buffer.concat([raw, Buffer.from('\nUm caf'), Buffer.from([0xe9]), Buffer.from('.\n')]),
    );
    await content.edit(nul, (t) => `${t}\nUma frase\u0000 com NUL.\n`);
    const { code, diagnostics } = await checkJson();
    expect(code).toBe(1);
    expect(codesOn(diagnostics, latin)).toEqual(['TEXT001']);
    expect(codesOn(diagnostics, nul)).toEqual(['TEXT002']);
    const lineOf = async (relative: string) => (await readFile(file(relative), 'latin1')).split('\n').length - 1;
    expect(diagnostics.find((d) => d.file === latin)?.line).toBe(await lineOf(latin));
    expect(diagnostics.find((d) => d.file === nul)?.line).toBe(await lineOf(nul));
  });

  it('refuses javascript: as a social link and as an in-media link (URL001), and warns about http:', async () => {
    await content.edit('content/owner.json', (t) =>
      t.replace('https://www.youtube.com/@duartesalgueiro', 'javascript:alert(1)'),
    );
    await content.edit('content/pages/aboutme.json', (t) =>
      t.replace('"link": "https://', '"link": "javascript:alert(1)//'),
    );
    const { code, diagnostics } = await checkJson();
    expect(code).toBe(1);
    expect(codesOn(diagnostics, 'content/owner.json')).toEqual(['URL001']);
    expect(codesOn(diagnostics, 'content/pages/aboutme.json')).toEqual(['URL001']);
  });

  it('accepts an http: social link with the HTTP001 warning, exit 0', async () => {
    await content.edit('content/owner.json', (t) => t.replace('https://www.youtube.com/', 'http://www.youtube.com/'));
    const { code, diagnostics } = await checkJson();
    expect(code).toBe(0);
    expect(diagnostics.map((d) => [d.code, d.file, d.severity])).toEqual([
      ['HTTP001', 'content/owner.json', 'warning'],
    ]);
  });

  it('reports a media address with a malformed escape as ASSET001 on its file, and still checks every other address', async () => {
    const relative = 'content/blog/tech/dotnetWebAPIAzure.en.md';
    await content.edit(relative, (t) => t.replace(/^cover: \/media\/(.*)\.svg$/m, 'cover: /media/$1%e.svg'));
    await content.edit('content/owner.json', (t) => t.replace('https://www.youtube.com/', 'http://www.youtube.com/'));
    const { code, diagnostics } = await checkJson();
    expect(code).toBe(1);
    expect(diagnostics.map((d) => [d.code, d.file])).toEqual([
      ['ASSET001', relative],
      ['HTTP001', 'content/owner.json'],
    ]);
  });

  it('never runs front matter as JavaScript', async () => {
    const marker = path.join(content.root, 'ran');
    const relative = 'content/blog/tech/Script.en.md';
    await writeFile(
      file(relative),
      `---js\n{ title: require('fs').writeFileSync(${JSON.stringify(marker)}, 'x') || 'T', description: 'D', date: '2024-01-01' }\n---\nBody.\n`,
    );
    const { code, diagnostics } = await checkJson();
    expect(code).toBe(1);
    expect(codesOn(diagnostics, relative)).toEqual(['FM001']);
    await expect(readFile(marker)).rejects.toThrow();
  });
});

describe('site check when its reader stops reading', () => {
  it('stops quietly when the pipe closes (site check --format json | head -c 1)', async () => {
    // Enough diagnostics to fill the pipe: every article's body gets a link to nowhere.
    for (const name of await readdir(file('content/blog/cinema')))
      await content.edit(`content/blog/cinema/${name}`, (t) => `${t}\n${'[x](/blog/nowhere) '.repeat(200)}\n`);
    const child = spawn(
      process.execPath,
      [path.join(PROJECT_ROOT, 'bin/site'), '--root', content.root, 'check', '--format', 'json'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(stderr).not.toMatch(STACK);
    expect(stderr).not.toContain('EPIPE');
    expect(code).toBe(1);
  });
});

describe('site build when the output folder cannot be made', () => {
  it('says so in one line when a parent of --out is a file, exit 1', async () => {
    const result = await site(['--root', content.root, 'build', '--out', 'content/site.json/dist']);
    expect(result.code).toBe(1);
    expect(result.stderr).not.toMatch(STACK);
    expect(result.stderr).toContain(
      `✗ cannot build into ${file('content/site.json/dist')}: ${file('content/site.json')} is a file, not a folder`,
    );
  });

  it('ends at once with one line when --out cannot be created (under /proc), exit 1', async () => {
    const started = Date.now();
    const result = await site(['--root', content.root, 'build', '--out', '/proc/nope/dist']);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(result.code).toBe(1);
    expect(result.stderr).not.toMatch(STACK);
    expect(result.stderr).toMatch(/^✗ cannot create the folder \/proc\/nope: /m);
  });

  it('prints the stack only when asked to (--verbose), in the TypeScript sources', async () => {
    const result = await site(['--root', content.root, '--verbose', 'build', '--out', 'content/site.json/dist']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^\s+at /m);
    // The command runs bundled (bin/launch.mjs): the frames are mapped back to the files a reader opens.
    expect(result.stderr).toMatch(/^\s+at .*\/src\/write\/folder\.ts:\d+:\d+\)$/m);
    expect(result.stderr).not.toContain('.cache/cli');
  });

  it('exits 2 on a usage mistake', async () => {
    expect((await site(['build', '--no-such-option'])).code).toBe(2);
    expect((await site(['serve', '--port', 'eighty'])).code).toBe(2);
  });
});

const execute = promisify(execFile);

/**
 * A tmpfs of `size` mounted for the test; undefined where mounting is not allowed. Mounting needs
 * root and a kernel that lets it: this project's machines and CI run as root.
 */
async function smallDisk(
  size: string,
  mode: 'rw' | 'ro' = 'rw',
): Promise<{ dir: string; release: () => Promise<void> } | undefined> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'site-small-disk-'));
  try {
    await execute('mount', ['-t', 'tmpfs', '-o', `size=${size},${mode}`, 'tmpfs', dir]);
  } catch {
    await rm(dir, { recursive: true, force: true });
    return undefined;
  }
  return {
    dir,
    release: async () => {
      await execute('umount', [dir]);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

describe('site build when the disk fills up', () => {
  it('says the disk is full in one line and leaves the previous output as it was', async (context) => {
    const disk = await smallDisk('3m');
    if (!disk) return context.skip('cannot mount a small tmpfs here');
    try {
      const out = path.join(disk.dir, 'dist');
      await mkdir(out);
      await writeFile(path.join(out, 'aboutme.html'), 'the previous build');
      const result = await site(['--root', content.root, 'build', '--no-cache', '--out', out]);
      expect(result.code).toBe(1);
      expect(result.stderr).not.toMatch(STACK);
      expect(result.stderr).toMatch(/^✗ cannot write the site into .*: the disk is full \(ENOSPC\)$/m);
      expect(await readdir(disk.dir)).toEqual(['dist']);
      expect(await readFile(path.join(out, 'aboutme.html'), 'utf8')).toBe('the previous build');
    } finally {
      await disk.release();
    }
  });
});

describe('site build when the output folder is on a read-only disk', () => {
  it('names the folder and the reason in one line', async (context) => {
    const disk = await smallDisk('1m', 'ro');
    if (!disk) return context.skip('cannot mount a small tmpfs here');
    try {
      const result = await site(['--root', content.root, 'build', '--out', path.join(disk.dir, 'dist')]);
      expect(result.code).toBe(1);
      expect(result.stderr).not.toMatch(STACK);
      expect(result.stderr).toContain(
        `✗ cannot create a folder beside ${path.join(disk.dir, 'dist')}: the file system is read-only (EROFS)`,
      );
    } finally {
      await disk.release();
    }
  });
});
