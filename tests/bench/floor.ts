import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { PROJECT_ROOT } from '../support/content';
import { editionUrl } from './eleventy';
import type { FloorJob } from './floorProcess';
import { type Timed, timed } from './measure';
import { setAside } from './setAside';
import { articleFile, type SyntheticArticle } from './synthetic';

/**
 * The floor's script bundled into one JavaScript file, so that it starts as a plain Node program
 * does (no TypeScript loader on each thread). Its packages stay imports, resolved from the
 * project's node_modules: the versions package-lock.json pins, the ones our build uses.
 */
const BUNDLE = path.join(PROJECT_ROOT, '.cache', 'bench', 'floor.mjs');

/** The packages the floor runs, for the table (their versions as installed). */
export const FLOOR_PACKAGES = [
  'unified',
  'remark-parse',
  'remark-gfm',
  'remark-rehype',
  'lowlight',
  'rehype-stringify',
] as const;

/**
 * Prepares the bare pipeline over the same markdown files: its manifest (every edition of every
 * article, both languages, each to the HTML file of its URL under `dir/out`) and its bundle.
 * Returns the manifest's path.
 */
export async function prepareFloor(
  siteRoot: string,
  dir: string,
  articles: readonly SyntheticArticle[],
): Promise<string> {
  await setAside(dir);
  await mkdir(dir, { recursive: true });
  const jobs: FloorJob[] = articles.flatMap((article) =>
    article.langs.map((lang) => ({
      from: articleFile(siteRoot, article, lang),
      to: path.join(dir, 'out', `${editionUrl(article, lang)}.html`),
    })),
  );
  const manifest = path.join(dir, 'manifest.json');
  await writeFile(manifest, JSON.stringify(jobs));
  await build({
    entryPoints: [path.join(import.meta.dirname, 'floorProcess.ts')],
    outfile: BUNDLE,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
  });
  return manifest;
}

/**
 * One run of the floor over the prepared manifest (its output folder set aside first); with `gfm`
 * false, without remark-gfm.
 */
export async function floorBuild(manifest: string, { gfm = true }: { gfm?: boolean } = {}): Promise<Timed> {
  await setAside(path.join(path.dirname(manifest), 'out'));
  return timed(process.execPath, [BUNDLE, manifest, ...(gfm ? [] : ['--no-gfm'])], { cwd: path.dirname(manifest) });
}
