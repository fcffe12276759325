import path from 'node:path';
import { type Diagnostic, diagnostic, type Place } from '../diagnostics/diagnostic';
import { isRaster, type RasterCatalogue, type RasterImage } from '../images/raster';
import { rasterAt } from '../images/urls';
import { WIDTHS } from '../images/variants';
import type { ArticleEdition, Site } from '../model/site';
import { jsonStrings } from './jsonStrings';
import { bodyPlace, frontMatterPlace, jsonPlace } from './place';

/**
 * ASSET001 and HTTP001 in the JSON content: every "/media/..." file referenced exists (with that
 * case), and external links use https (articles: `editionAssetProblems`).
 */
export function checkContentAssets(site: Site, mediaFiles: ReadonlySet<string>): Diagnostic[] {
  const out: Diagnostic[] = [];
  // A raster file whose header cannot be read is not in the catalogue, and is never published.
  for (const file of mediaFiles)
    if (isRaster(file) && !site.images.has(file))
      out.push(diagnostic('ASSET004', { file: `content/media/${file}`, line: 0, column: 0 }, { image: file }));
  for (const [file, { value: data }] of site.content.json) {
    for (const [value, at] of jsonStrings(data)) {
      const raster = rasterAt(site.images, value);
      if (raster) oversized(raster, PAGE_WIDTH, jsonPlace(site, file, at), out);
      if (value.startsWith('/media/') && !mediaExists(mediaFiles, value))
        out.push(missingMedia(mediaFiles, value, jsonPlace(site, file, at)));
      if (value.startsWith('http://')) out.push(diagnostic('HTTP001', jsonPlace(site, file, at), { url: value }));
    }
  }
  return out;
}

/** ASSET001 to ASSET003 and HTTP001 for one article edition: its cover, images and links. */
export function editionAssetProblems(
  edition: ArticleEdition,
  mediaFiles: ReadonlySet<string>,
  images: RasterCatalogue,
): Diagnostic[] {
  // No closures here: this runs for every edition judged, and the TypeScript loader names each
  // inner function as it is made.
  const out: Diagnostic[] = [];
  const cover = edition.source.frontMatter.cover;
  if (cover && !mediaExists(mediaFiles, cover))
    out.push(missingMedia(mediaFiles, cover, frontMatterPlace(edition, ['cover'])));
  for (const ref of edition.body.references) {
    if (ref.href.startsWith('/media/') && !mediaExists(mediaFiles, ref.href))
      out.push(missingMedia(mediaFiles, ref.href, bodyPlace(edition, ref.line, ref.column)));
    if (ref.href.startsWith('http://'))
      out.push(diagnostic('HTTP001', bodyPlace(edition, ref.line, ref.column), { url: ref.href }));
    if (ref.kind === 'image' && !ref.alt?.trim()) {
      out.push(
        diagnostic('ASSET002', bodyPlace(edition, ref.line, ref.column), {
          image: path.basename(ref.href),
          lang: edition.lang,
        }),
      );
    }
    const raster = ref.kind === 'image' ? rasterAt(images, ref.href) : undefined;
    if (raster) oversized(raster, BODY_WIDTH, bodyPlace(edition, ref.line, ref.column), out);
  }
  return out;
}

/** The widest an article's body shows an image, in CSS pixels: its column (templates/styles/pages/article.css). */
const BODY_WIDTH = 728;
/** The widest any page shows an image of the JSON content: the widest variant, the full width of a wide screen. */
const PAGE_WIDTH = WIDTHS[WIDTHS.length - 1] as number;

/**
 * ASSET003 for a source more than twice as wide as the most it is ever shown at: its width on a
 * screen of twice the density, no wider than the widest variant (which is all that is published).
 */
function oversized(image: RasterImage, shown: number, place: Place, out: Diagnostic[]): void {
  const needed = Math.min(shown * 2, PAGE_WIDTH);
  if (image.width > needed * 2)
    out.push(diagnostic('ASSET003', place, { image: path.basename(image.file), width: image.width, shown, needed }));
}

/** Whether a "/media/..." URL names a file of content/media. */
function mediaExists(mediaFiles: ReadonlySet<string>, url: string): boolean {
  return mediaFiles.has(decodedPath(url).slice('/media/'.length));
}

/** ASSET001 for a "/media/..." URL that names no file, with the file it names but for case, if any. */
function missingMedia(mediaFiles: ReadonlySet<string>, url: string, place: Place): Diagnostic {
  const lower = url.toLowerCase();
  const variant = [...mediaFiles].find((f) => `/media/${f}`.toLowerCase() === lower);
  return diagnostic('ASSET001', place, { url, variant });
}

/** The path of a "/media/..." URL with its escapes decoded; a malformed escape ("%e.") is taken as written. */
function decodedPath(url: string): string {
  const path = url.split(/[?#]/)[0] ?? '';
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}
