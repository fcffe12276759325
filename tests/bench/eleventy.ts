import { copyFile, cp, mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { WIDTHS } from '../../src/images/variants';
import { type Timed, timed } from './measure';
import { setAside } from './setAside';
import { articleFile, type SyntheticArticle } from './synthetic';
import { benchTool } from './tools';

/** Pinned: 3.1.8 needs an override of @11ty/recursive-copy on this registry; 3.1.7 installs as is. */
export const ELEVENTY = '@11ty/eleventy@3.1.7';

const LAYOUT =
  '<!doctype html><html lang="{{ lang }}"><head><meta charset="utf-8"><title>{{ title }}</title></head><body><main>{{ content | safe }}</main></body></html>\n';

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
export async function prepareEleventy(
  siteRoot: string,
  dir: string,
  articles: readonly SyntheticArticle[],
): Promise<string> {
  await setAside(dir);
  await mkdir(path.join(dir, 'src', '_includes'), { recursive: true });
  await writeFile(path.join(dir, 'src', '_includes', 'layout.njk'), LAYOUT);
  await writeFile(path.join(dir, 'eleventy.config.mjs'), CONFIG);
  await Promise.all(
    articles.map((article) => {
      const lang = article.langs.includes('en') ? 'en' : 'pt';
      return copyFile(
        articleFile(siteRoot, article, lang),
        path.join(dir, 'src', `${article.category}-${article.slug}.md`),
      );
    }),
  );
  return dir;
}

/** One cold Eleventy build of the prepared project (its output folder set aside first). */
export async function eleventyBuild(dir: string): Promise<Timed> {
  const tool = await benchTool(ELEVENTY);
  await setAside(path.join(dir, '_site'));
  await setAside(path.join(dir, '.cache'));
  return timed(process.execPath, [path.join(tool, 'node_modules', '@11ty', 'eleventy', 'cmd.cjs'), '--quiet'], {
    cwd: dir,
  });
}

/**
 * Eleventy set up to do the work our build does, each version pinned: every edition of every
 * article, both languages; fenced code highlighted at build time (Prism, the syntax-highlight
 * plugin); heading ids (markdown-it-anchor, every heading, as ours); and the photos through eleventy-img's
 * HTML transform, at the widths and in the formats our build publishes, with its encoder settings.
 * eleventy-img 7 needs Node 22: 6.0.4 is the last for Node 20. Its sharp is ours (an override of
 * its ^0.33.5), so both encode with the same libvips; the parser and the highlighter, which the
 * plugins take by range, are pinned as installed here.
 */
export const ELEVENTY_SAME = {
  packages: [
    ELEVENTY,
    '@11ty/eleventy-img@6.0.4',
    '@11ty/eleventy-plugin-syntaxhighlight@5.0.2',
    'markdown-it-anchor@9.2.0',
  ],
  overrides: { sharp: sharp.versions.sharp, 'markdown-it': '14.3.3', prismjs: '1.30.0' },
};

/**
 * Our encoder's settings for each published format (SETTINGS in src/images/encode.ts), as
 * eleventy-img takes them. The bench compares the variants both wrote, byte for byte: a change of
 * one side only fails it.
 */
const SHARP_OPTIONS = {
  sharpAvifOptions: { quality: 50, effort: 1 },
  sharpWebpOptions: { quality: 75, effort: 2 },
  sharpJpegOptions: { quality: 80, mozjpeg: true },
};

/**
 * The same work's configuration. Our build reads `::figure[caption]{src alt width}` with
 * remark-directive; markdown-it has no such syntax, so a preprocessor (Eleventy's own hook, run on
 * each file as it is read) writes each figure as the HTML our figure plugin makes of it, the width
 * share in `sizes` as our build writes it (bodyImageSizes in src/markdown/compile.ts). The image
 * transform then makes the photos' variants and the `<picture>`; an SVG is published as it is,
 * as ours publishes it, so it is passed through and left out of the transform.
 */
function sameWorkConfig(widths: readonly number[]): string {
  return `import markdownItAnchor from 'markdown-it-anchor';
import { eleventyImageTransformPlugin } from '@11ty/eleventy-img';
import syntaxHighlight from '@11ty/eleventy-plugin-syntaxhighlight';

const FIGURE = /^::figure\\[([^\\]\\n]*)\\]\\{([^}\\n]*)\\}[ \\t]*$/gm;
const ATTRIBUTE = /(\\w+)="([^"]*)"/g;
const escape = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const sizes = (share) =>
  share === 1 ? '(min-width: 48rem) 45.5rem, calc(100vw - 2.5rem)' : \`(min-width: 48rem) calc(45.5rem * \${share}), calc((100vw - 2.5rem) * \${share})\`;

function figure(_, caption, attributes) {
  const { src = '', alt = caption, width } = Object.fromEntries([...attributes.matchAll(ATTRIBUTE)].map((m) => [m[1], m[2]]));
  const share = width ? Number(width) / 100 : 1;
  const style = width ? \` style="width:\${Number(width)}%"\` : '';
  const image = src.endsWith('.svg')
    ? \`<img src="\${escape(src)}" alt="\${escape(alt)}" loading="lazy" decoding="async" eleventy:ignore>\`
    : \`<img src="\${escape(src)}" alt="\${escape(alt)}" sizes="\${sizes(share)}" loading="lazy" decoding="async">\`;
  return \`<figure class="figure"\${style}>\${image}<figcaption>\${escape(caption)}</figcaption></figure>\`;
}

export default function (config) {
  config.addGlobalData('layout', 'layout.njk');
  config.addGlobalData('lang', 'en');
  config.addPreprocessor('figures', 'md', (_data, content) => content.replace(FIGURE, figure));
  config.addPlugin(syntaxHighlight);
  // Heading ids at the markdown stage, as Eleventy sites commonly make them. Eleventy's own
  // IdAttributePlugin, which parses every page's HTML again, took 42 of a 51 s build of 7,600
  // editions here: a comparison against it flattered ours (0.90 where this gives the real gap).
  config.amendLibrary('md', (md) => md.use(markdownItAnchor));
  config.addPlugin(eleventyImageTransformPlugin, {
    formats: ['avif', 'webp', 'jpeg'],
    widths: ${JSON.stringify(widths)},
    // Our rule: a width is made when the photo exceeds it by a tenth, and the photo's own width.
    minimumThreshold: 1.1,
    ${Object.entries(SHARP_OPTIONS)
      .map(([key, value]) => `${key}: ${JSON.stringify(value)},`)
      .join('\n    ')}
  });
  config.addPassthroughCopy('src/media/**/*.svg');
  return { dir: { input: 'src', output: '_site' } };
}
`;
}

/** Where an edition is served: the first language at the route's path, Portuguese beside it under /pt. */
export function editionUrl(article: SyntheticArticle, lang: 'en' | 'pt'): string {
  const first = article.langs.includes('en') ? 'en' : 'pt';
  return `${lang === first ? '' : '/pt'}/blog/${article.category}/${article.slug}`;
}

/**
 * An Eleventy project doing the same work as our build (see ELEVENTY_SAME) over the same markdown
 * files, laid out so that each edition is served at our URL: `src/blog/<category>/<slug>.md` and
 * `src/pt/blog/…` (its data says `pt`), with the photos and figures the articles show under
 * `src/media`. Its node_modules is the tool folder's.
 */
export async function prepareEleventySame(
  siteRoot: string,
  dir: string,
  articles: readonly SyntheticArticle[],
): Promise<string> {
  const tool = await benchTool(ELEVENTY_SAME.packages, { overrides: ELEVENTY_SAME.overrides });
  await setAside(dir);
  await mkdir(path.join(dir, 'src', '_includes'), { recursive: true });
  await symlink(path.join(tool, 'node_modules'), path.join(dir, 'node_modules'));
  await writeFile(path.join(dir, 'src', '_includes', 'layout.njk'), LAYOUT);
  await writeFile(path.join(dir, 'eleventy.config.mjs'), sameWorkConfig(WIDTHS));
  await mkdir(path.join(dir, 'src', 'pt'), { recursive: true });
  await writeFile(path.join(dir, 'src', 'pt', 'pt.11tydata.json'), '{ "lang": "pt" }\n');
  await cp(path.join(siteRoot, 'content', 'media', 'blog'), path.join(dir, 'src', 'media', 'blog'), {
    recursive: true,
    filter: (src) => !/\.(mp4|webm|pdf)$/.test(src),
  });
  for (const article of articles) {
    for (const lang of article.langs) {
      const target = path.join(dir, 'src', `${editionUrl(article, lang)}.md`);
      await mkdir(path.dirname(target), { recursive: true });
      await copyFile(articleFile(siteRoot, article, lang), target);
      // A Portuguese-only article is served at the route's own path, in Portuguese.
      if (lang === 'pt' && !article.langs.includes('en'))
        await writeFile(target.replace(/\.md$/, '.11tydata.json'), '{ "lang": "pt" }\n');
    }
  }
  return dir;
}

/** One cold build of the prepared same-work project (its output folder and caches set aside first). */
export async function eleventySameBuild(dir: string): Promise<Timed> {
  await setAside(path.join(dir, '_site'));
  await setAside(path.join(dir, '.cache'));
  return timed(process.execPath, [path.join(dir, 'node_modules', '@11ty', 'eleventy', 'cmd.cjs'), '--quiet'], {
    cwd: dir,
  });
}
