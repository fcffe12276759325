import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { readRasters } from '../../src/images/raster';
import { type VariantFormat, variantsOf } from '../../src/images/variants';
import { editionUrl } from './eleventy';
import { articleFile, type SyntheticArticle } from './synthetic';

/**
 * What a system must have made of the synthetic site to be compared with our build: the bench
 * refuses a ratio against a system that did less (or more) than the work it is said to do.
 */

/** One edition as the bench expects to find it: its URL, the language of its code block, the photo it shows. */
export interface ExpectedPage {
  url: string;
  /** The language tag of its fenced code block (every synthetic article has one). */
  code: string;
  /** The photo's path under /media when its figure is a photo (one article in four). */
  photo?: string;
}

export interface ExpectedWork {
  pages: ExpectedPage[];
  /** The photo variants our build publishes, by format: each photo at each of its widths. */
  variants: Partial<Record<VariantFormat, number>>;
}

/**
 * The work the corpus asks for, read from its markdown (each edition's code language and photo)
 * and its photos (their variants by our build's own rules, src/images/variants.ts).
 */
export async function expectedWork(siteRoot: string, articles: readonly SyntheticArticle[]): Promise<ExpectedWork> {
  const pages = await Promise.all(
    articles.flatMap((article) =>
      article.langs.map(async (lang): Promise<ExpectedPage> => {
        const markdown = await readFile(articleFile(siteRoot, article, lang), 'utf8');
        const code = /^```(\w+)$/m.exec(markdown)?.[1];
        if (!code)
          throw new Error(
            `bench corpus: ${articleFile(siteRoot, article, lang)} has no fenced code block with a language`,
          );
        const photo = /^::figure\[.*\{src="(\/media\/blog\/photos\/[^"]+)"/m.exec(markdown)?.[1];
        return { url: editionUrl(article, lang), code, ...(photo ? { photo } : {}) };
      }),
    ),
  );
  const mediaDir = path.join(siteRoot, 'content', 'media');
  const photos = [...new Set(pages.flatMap((page) => (page.photo ? [page.photo.slice('/media/'.length)] : [])))];
  const rasters = await readRasters(mediaDir, photos);
  if (rasters.size !== photos.length)
    throw new Error(`bench corpus: ${photos.length - rasters.size} of its photos cannot be read`);
  const variants: Partial<Record<VariantFormat, number>> = {};
  for (const image of rasters.values())
    for (const variant of variantsOf(image)) variants[variant.format] = (variants[variant.format] ?? 0) + 1;
  return { pages, variants };
}

/** How a highlighter marks a token in the HTML it writes. */
const TOKEN: Record<'hljs' | 'prism', RegExp> = { hljs: /<span class="hljs-/, prism: /<span class="token / };

/**
 * Code blocks whose text may hold no token for a highlighter to colour: the corpus's shell lines
 * (a command, a word, an option) are plain words to highlight.js. Every other language's blocks
 * have strings, numbers, keywords or punctuation.
 */
const MAY_BE_PLAIN = new Set(['bash']);

const FORMAT_OF_EXTENSION: Record<string, VariantFormat> = {
  avif: 'avif',
  webp: 'webp',
  jpg: 'jpeg',
  jpeg: 'jpeg',
  png: 'png',
};

/** Where a system wrote its work, and how to read it. */
export interface Output {
  /** Its name, for messages. */
  system: string;
  /** The folder its HTML is under. */
  dir: string;
  /** The file an edition's page is at, from its URL. */
  pageFile: (url: string) => string;
  /** Exactly one page per edition, or at least that (our build also writes the site's own pages). */
  pages: 'exact' | 'at least';
  highlighter: 'hljs' | 'prism';
  /** Where its photo variants are (those of the synthetic photos alone); none for a system that makes no images. */
  imagesDir?: string;
}

/** What a system was found to have made. */
export interface WorkDone {
  pages: number;
  highlightedPages: number;
  pagesWithPicture: number;
  images: Partial<Record<VariantFormat, number>>;
  imageBytes: Partial<Record<VariantFormat, number>>;
}

/** A system that did not do the work it is compared on: the bench stops with this. */
export class WorkMissing extends Error {
  override name = 'WorkMissing';
}

/**
 * Reads what a system wrote and checks it did the expected work: every edition's page is there
 * (and no page more, where `exact`), each with its code block highlighted (tokens marked by its
 * highlighter), each photo article's page with a `<picture>` offering AVIF, WebP and JPEG, and
 * the photos' variant files, as many of each format as our build makes. Throws WorkMissing
 * listing every shortfall.
 */
export async function checkWork(output: Output, expected: ExpectedWork): Promise<WorkDone> {
  const problems: string[] = [];
  const htmlFiles = (await filesUnder(output.dir)).filter((file) => file.endsWith('.html'));
  const pagesWanted = expected.pages.length;
  if (output.pages === 'exact' ? htmlFiles.length !== pagesWanted : htmlFiles.length < pagesWanted) {
    problems.push(
      `${htmlFiles.length} HTML pages written where ${output.pages === 'exact' ? '' : 'at least '}${pagesWanted} were expected (one per edition)`,
    );
  }
  const missing: string[] = [];
  const plain: string[] = [];
  const noPicture: string[] = [];
  let highlightedPages = 0;
  let pagesWithPicture = 0;
  await inBatches(expected.pages, 16, async (page) => {
    const html = await readFile(output.pageFile(page.url), 'utf8').catch(() => undefined);
    if (html === undefined) {
      missing.push(page.url);
      return;
    }
    const coloured = new RegExp(`class="language-${page.code}\\b`).test(html) && TOKEN[output.highlighter].test(html);
    if (coloured) highlightedPages++;
    else if (!MAY_BE_PLAIN.has(page.code) || !html.includes(`language-${page.code}`))
      plain.push(`${page.url} (${page.code})`);
    if (output.imagesDir && page.photo) {
      if (
        /<picture[\s>]/.test(html) &&
        html.includes('image/avif') &&
        html.includes('image/webp') &&
        /\.jpe?g\b/.test(html.slice(html.indexOf('<picture')))
      )
        pagesWithPicture++;
      else noPicture.push(page.url);
    }
  });
  if (missing.length > 0) problems.push(`${missing.length} editions have no page (${sample(missing)})`);
  if (plain.length > 0)
    problems.push(`${plain.length} pages have no ${output.highlighter} tokens in their code block (${sample(plain)})`);
  if (noPicture.length > 0)
    problems.push(`${noPicture.length} photo articles have no <picture> of AVIF, WebP and JPEG (${sample(noPicture)})`);
  const images: Partial<Record<VariantFormat, number>> = {};
  const imageBytes: Partial<Record<VariantFormat, number>> = {};
  if (output.imagesDir) {
    for (const file of await filesUnder(output.imagesDir)) {
      const format = FORMAT_OF_EXTENSION[path.extname(file).slice(1).toLowerCase()];
      if (!format) continue;
      images[format] = (images[format] ?? 0) + 1;
      imageBytes[format] = (imageBytes[format] ?? 0) + (await stat(file)).size;
    }
    for (const [format, wanted] of Object.entries(expected.variants) as [VariantFormat, number][]) {
      if (images[format] !== wanted)
        problems.push(`${images[format] ?? 0} ${format} image files written where ${wanted} were expected`);
    }
    for (const format of Object.keys(images) as VariantFormat[]) {
      if (!(format in expected.variants))
        problems.push(`${images[format]} ${format} image files written, a format our build does not publish`);
    }
  }
  if (problems.length > 0)
    throw new WorkMissing(`${output.system} did not do the work it is compared on:\n  - ${problems.join('\n  - ')}`);
  return { pages: htmlFiles.length, highlightedPages, pagesWithPicture, images, imageBytes };
}

function sample(items: readonly string[]): string {
  return `${items.slice(0, 3).join(', ')}${items.length > 3 ? ', …' : ''}`;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

async function inBatches<T>(items: readonly T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(work));
}
