import { execFile } from 'node:child_process';
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyOfTool } from '../../support/tool';

const run = promisify(execFile);

/**
 * bin/launch.mjs: the `site` command runs its TypeScript bundled, and the bundle follows every
 * edit of the code. Each test runs the command of a private copy of the tool, whose code it edits.
 */
describe('the site command runs the code as it is now', () => {
  let root: string;
  let cleanup: () => Promise<void>;

  const site = async (...args: string[]) => {
    try {
      const { stdout, stderr } = await run('node', [path.join(root, 'bin/site'), '--root', root, ...args], {
        env: { ...process.env, NO_COLOR: '1' },
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };
  const bundles = async () =>
    (await readdir(path.join(root, '.cache/cli'), { withFileTypes: true }))
      .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
      .map((e) => e.name);
  const manifest = async () =>
    JSON.parse(await readFile(path.join(root, '.cache/cli/src_cli_main.ts.json'), 'utf8')) as {
      dir: string;
      inputs: Record<string, string>;
    };
  const edit = async (relative: string, change: (text: string) => string) => {
    const file = path.join(root, relative);
    const before = await readFile(file, 'utf8');
    const after = change(before);
    expect(after, `the edit changes ${relative}`).not.toBe(before);
    await writeFile(file, after);
  };

  beforeAll(async () => {
    ({ root, cleanup } = await copyOfTool());
  });
  afterAll(async () => cleanup());

  it('bundles once, and uses the bundle while no file of it changes', async () => {
    expect((await site('--help')).stdout).toContain('Build, check and serve the bilingual portfolio and blog.');
    const first = await manifest();
    expect(await bundles()).toEqual([first.dir]);
    // Our own code is in the bundle, packages are not.
    expect(Object.keys(first.inputs)).toEqual(
      expect.arrayContaining([
        'src/cli/main.ts',
        'src/build/pipeline.ts',
        'templates/pages/Article.tsx',
        'server/app.ts',
      ]),
    );
    expect(Object.keys(first.inputs).some((file) => file.includes('node_modules'))).toBe(false);

    const made = (await stat(path.join(root, '.cache/cli/src_cli_main.ts.json'))).mtimeMs;
    expect((await site('--help')).code).toBe(0);
    expect(await bundles()).toEqual([first.dir]);
    expect(
      (await stat(path.join(root, '.cache/cli/src_cli_main.ts.json'))).mtimeMs,
      'the manifest is not written again',
    ).toBe(made);
  });

  it('runs an edit of the pipeline at the next command', async () => {
    const before = (await manifest()).dir;
    await edit('src/cli/main.ts', (t) =>
      t.replace(
        "'Build, check and serve the bilingual portfolio and blog.'",
        "'Build, check and serve the edited portfolio.'",
      ),
    );
    expect((await site('--help')).stdout).toContain('Build, check and serve the edited portfolio.');
    const after = (await manifest()).dir;
    expect(after).not.toBe(before);
    expect((await bundles()).sort()).toEqual([before, after].sort());
  });

  it('renders with an edited template at the next build', async () => {
    await edit('templates/pages/Article.tsx', (t) =>
      t.replace('<article className="section article">', '<article className="section article" data-launch-edit="">'),
    );
    const built = await site('build', '--quiet');
    expect(built.code, built.stderr).toBe(0);
    expect(await readFile(path.join(root, 'dist/blog/tech/Site.html'), 'utf8')).toContain('data-launch-edit=""');
  });

  it('reports a syntax error in a template at its line, and leaves dist/ as it was', async () => {
    await edit('templates/pages/Article.tsx', (t) => t.replace('data-launch-edit="">', 'data-launch-edit="">{'));
    const built = await site('build', '--quiet');
    expect(built.code).toBe(1);
    expect(built.stderr).toMatch(
      new RegExp(`^✗ ${root}/templates/pages/Article\\.tsx:\\d+:\\d+: Expected "}" but found "className"$`, 'm'),
    );
    expect(built.stderr).toContain('does not compile: fix it, then run the command again.');
    expect(built.stderr).not.toContain('internal error');
    expect(await readFile(path.join(root, 'dist/blog/tech/Site.html'), 'utf8')).toContain('data-launch-edit=""');
    await edit('templates/pages/Article.tsx', (t) => t.replace('data-launch-edit="">{', 'data-launch-edit="">'));
  });

  it('still runs when no bundle can be kept (a file where its folder would be)', async () => {
    await rm(path.join(root, '.cache/cli'), { recursive: true, force: true });
    await writeFile(path.join(root, '.cache/cli'), 'not a folder');
    await edit('src/cli/main.ts', (t) =>
      t.replace("'Build, check and serve the edited portfolio.'", "'Build, check and serve the portfolio, unbundled.'"),
    );
    expect((await site('--help')).stdout).toContain('Build, check and serve the portfolio, unbundled.');
    const checked = await site('check');
    expect(checked.code, checked.stderr).toBe(0);
    expect(checked.stdout).toMatch(/^✓ \d+ routes, \d+ editions checked/m);
    expect(await readFile(path.join(root, '.cache/cli'), 'utf8')).toBe('not a folder');
  });
});
