import { execFile } from 'node:child_process';
import { cp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyOfTool, differences, filesUnder } from '../../support/tool';

const run = promisify(execFile);

/**
 * A CI job keeps `.cache/site/` between runs, and nothing else: each run is a fresh clone, at
 * another path, with no output folder. Given the build cache of another clone, a build makes
 * nothing again (the pages come from the cache's store of output files) and writes what that
 * clone wrote, byte for byte; a store file that changed since is not trusted.
 */
describe('a build cache carried to a fresh clone (a CI cache)', () => {
  let first: Awaited<ReturnType<typeof copyOfTool>>;
  let second: Awaited<ReturnType<typeof copyOfTool>>;

  const build = async (root: string, ...args: string[]) =>
    (
      await run(process.execPath, [path.join(root, 'bin', 'site'), '--root', root, 'build', ...args], {
        env: { ...process.env, NO_COLOR: '1' },
        maxBuffer: 16 * 1024 * 1024,
      })
    ).stdout;

  /** The second clone as CI has it: its own files, no output folder, and the first clone's build cache. */
  const freshCloneWithCacheOfFirst = async () => {
    await Promise.all(
      ['dist', '.dist-spare', '.cache'].map((name) =>
        rm(path.join(second.root, name), { recursive: true, force: true }),
      ),
    );
    await cp(path.join(first.root, '.cache', 'site'), path.join(second.root, '.cache', 'site'), { recursive: true });
  };

  beforeAll(async () => {
    [first, second] = await Promise.all([copyOfTool(), copyOfTool()]);
    await build(first.root, '--quiet');
  });

  afterAll(async () => {
    await Promise.all([first?.cleanup(), second?.cleanup()]);
  });

  it('makes nothing again, and writes what the first clone wrote, compressed copies included', async () => {
    await freshCloneWithCacheOfFirst();
    const said = await build(second.root, '--explain');
    expect(said).toContain('Nothing was made again');
    const [theirs, ours] = await Promise.all([
      filesUnder(path.join(first.root, 'dist')),
      filesUnder(path.join(second.root, 'dist')),
    ]);
    expect(ours.size).toBeGreaterThan(100);
    expect(differences(theirs, ours)).toEqual([]);
  });

  it('makes again, whole, an output whose stored file changed since, and writes it right', async () => {
    await freshCloneWithCacheOfFirst();
    const store = path.join(second.root, '.cache', 'site', 'outputs');
    const victim = (await readdir(store)).find((name) => !/\.(br|gz)$/.test(name)) as string;
    await writeFile(path.join(store, victim), 'not what the manifest says');
    const said = await build(second.root, '--explain');
    expect(said).toMatch(/Made again: \d+ outputs/);
    const [theirs, ours] = await Promise.all([
      filesUnder(path.join(first.root, 'dist')),
      filesUnder(path.join(second.root, 'dist')),
    ]);
    expect(differences(theirs, ours)).toEqual([]);
  });

  it('makes again only what an edit reaches, the rest taken from the store', async () => {
    await freshCloneWithCacheOfFirst();
    // An article's body: its page, the other edition's (told it changed) and a search shard.
    const article = path.join(second.root, 'content', 'blog', 'books', 'DangerousLiaisons.en.md');
    await writeFile(
      article,
      (await readFile(article, 'utf8')).replace('## The book', 'A sentence added in a fresh clone.\n\n## The book'),
    );
    const said = await build(second.root, '--explain');
    expect(said).toContain('Made again: 4 outputs');
    await build(second.root, '--quiet', '--no-cache', '--out', 'dist-cold');
    const [warm, cold] = await Promise.all([
      filesUnder(path.join(second.root, 'dist')),
      filesUnder(path.join(second.root, 'dist-cold')),
    ]);
    expect(differences(warm, cold)).toEqual([]);
  });
});
