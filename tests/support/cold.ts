import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type BuildOptions, type BuildResult, build, loadSite } from '../../src/build/pipeline';
import type { Diagnostic } from '../../src/diagnostics/diagnostic';
import type { Publication } from '../../src/model/publication';
import { filesUnder } from './tool';

/**
 * What `site build --no-cache` makes of the site at `root` as it is now: the result, and every file
 * of its output by path (compressed copies included), made in a folder of its own, then removed.
 */
export async function coldBuild(
  root: string,
  options: Partial<Omit<BuildOptions, 'root' | 'outDir' | 'cache'>> = {},
): Promise<{ result: BuildResult; files: Map<string, Buffer> }> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'site-test-cold-'));
  try {
    const outDir = path.join(folder, 'dist');
    const result = await build({ year: 2026, ...options, root, outDir, cache: false });
    return { result, files: result.ok ? await filesUnder(outDir) : new Map() };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/**
 * What `site check` reports of the content at `root` as it is now, from nothing: the content is
 * copied (with its times, which date an outdated translation) into a folder whose build cache holds
 * nothing made of it. It holds the tool's code graph, when the site's cache has one (which files
 * each kind of work reads: .cache/site/code.json), as walking it again takes esbuild from a fifth
 * of a second to a second: with no work cached, what the check reports cannot depend on it.
 */
export async function coldCheck(root: string, publishing: Partial<Publication> = {}): Promise<Diagnostic[]> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'site-test-cold-'));
  try {
    await cp(path.join(root, 'content'), path.join(folder, 'content'), { recursive: true, preserveTimestamps: true });
    await mkdir(path.join(folder, '.cache', 'site'), { recursive: true });
    await cp(path.join(root, '.cache', 'site', 'code.json'), path.join(folder, '.cache', 'site', 'code.json')).catch(
      () => {},
    );
    return (await loadSite(folder, publishing)).diagnostics;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
