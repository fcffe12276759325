import { execFile } from 'node:child_process';
import { readFile, rm, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyOfTool, differences, filesUnder } from '../../support/tool';

const run = promisify(execFile);

/**
 * The build cache must see an edit of the tool's own code: a template, the markdown compiler, a
 * constant in a module the compiler imports. A private copy of the tool with the small site
 * (tests/fixtures/small) is edited and built by `site build`, each build a process of its own that
 * loads the code as it now is, then built once more from scratch: the two outputs must be the
 * same, byte for byte. (tests/integration/build/cache.test.ts holds the cache to the same rule after edits of
 * the content, in this process.)
 */
describe('the build cache after an edit of the code', () => {
  let tool: string;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    ({ root: tool, cleanup } = await copyOfTool({ content: 'small' }));
    await build();
  });

  afterAll(async () => {
    await cleanup();
  });

  async function build(...args: string[]): Promise<string> {
    const { stdout } = await run(
      process.execPath,
      [path.join(tool, 'bin', 'site'), '--root', tool, 'build', '--quiet', ...args],
      { env: { ...process.env, NO_COLOR: '1' } },
    );
    return stdout;
  }

  async function edit(file: string, change: (text: string) => string): Promise<void> {
    const absolute = path.join(tool, file);
    const before = await readFile(absolute, 'utf8');
    const after = change(before);
    expect(after, `the edit of ${file} changes it`).not.toBe(before);
    await writeFile(absolute, after);
  }

  /** Builds with the cache and from scratch, and compares the two outputs. */
  async function expectSameAsColdBuild(): Promise<void> {
    await build();
    await build('--no-cache', '--out', 'dist-cold');
    const [warm, cold] = await Promise.all([
      filesUnder(path.join(tool, 'dist')),
      filesUnder(path.join(tool, 'dist-cold')),
    ]);
    expect(differences(warm, cold)).toEqual([]);
    await rm(path.join(tool, 'dist-cold'), { recursive: true, force: true });
  }

  it('matches a cold build after a template changes', async () => {
    await edit('templates/pages/Article.tsx', (t) =>
      t.replace('<article className="section article">', '<article className="section article" data-edited="">'),
    );
    await expectSameAsColdBuild();
    expect(await readFile(path.join(tool, 'dist/blog/tech/Site.html'), 'utf8')).toContain('data-edited=""');
  });

  it('matches a cold build after the markdown pipeline changes', async () => {
    await edit('src/markdown/compile.ts', (t) =>
      t.replace("node.properties.decoding = 'async';", "node.properties.decoding = 'auto';"),
    );
    await expectSameAsColdBuild();
    expect(await readFile(path.join(tool, 'dist/blog/tech/Site.html'), 'utf8')).toContain('decoding="auto"');
  });

  // Six runs of `site build`, each a process that loads the code again: some 10 s, three times that on a busy machine.
  it('sees a pipeline constant edited in a module the compiler imports indirectly, and names the file', {
    timeout: 90_000,
  }, async () => {
    // Quotes 40 deep build under the limit of 64; lowered to 32, the cached compile must not be reused.
    await writeFile(
      path.join(tool, 'content/blog/books/Deep.en.md'),
      `---\ntitle: Quotes within quotes\ndescription: Deep.\ndate: 2020-01-01\n---\n\n${'> '.repeat(40)}deep\n`,
    );
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
});
