import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type Timed, timed } from './measure';
import { articleFile, type SyntheticArticle } from './synthetic';
import { benchTool } from './tools';

/** Pinned: 3.1.8 needs an override of @11ty/recursive-copy on this registry; 3.1.7 installs as is. */
export const ELEVENTY = '@11ty/eleventy@3.1.7';

const LAYOUT = '<!doctype html><html lang="{{ lang }}"><head><meta charset="utf-8"><title>{{ title }}</title></head><body><main>{{ content | safe }}</main></body></html>\n';

const CONFIG = `export default function (config) {
  config.addGlobalData('layout', 'layout.njk');
  return { dir: { input: 'src', output: '_site' } };
}
`;

/**
 * An Eleventy project over the same synthetic markdown files, one language (the English edition,
 * or the Portuguese one for Portuguese-only articles), with a minimal layout: the reference the
 * build budget is measured against.
 */
export async function prepareEleventy(siteRoot: string, dir: string, articles: readonly SyntheticArticle[]): Promise<string> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(path.join(dir, 'src', '_includes'), { recursive: true });
  await writeFile(path.join(dir, 'src', '_includes', 'layout.njk'), LAYOUT);
  await writeFile(path.join(dir, 'eleventy.config.mjs'), CONFIG);
  await Promise.all(
    articles.map((article) => {
      const lang = article.langs.includes('en') ? 'en' : 'pt';
      return copyFile(articleFile(siteRoot, article, lang), path.join(dir, 'src', `${article.category}-${article.slug}.md`));
    }),
  );
  return dir;
}

/** One cold Eleventy build of the prepared project (its output folder removed first). */
export async function eleventyBuild(dir: string): Promise<Timed> {
  const tool = await benchTool(ELEVENTY);
  await rm(path.join(dir, '_site'), { recursive: true, force: true });
  await rm(path.join(dir, '.cache'), { recursive: true, force: true });
  return timed(process.execPath, [path.join(tool, 'node_modules', '@11ty', 'eleventy', 'cmd.cjs'), '--quiet'], { cwd: dir });
}
