import type { RasterCatalogue } from '../images/raster';
import { rasterAt } from '../images/urls';
import type { CompiledMarkdown } from '../markdown/compile';
import { type ImageSize, mediaImageSize } from '../markdown/imageSize';
import { localizeHref } from '../model/links';
import type { Lang } from '../shared/lang';
import type { Route } from '../shared/route';

/**
 * A compiled markdown body and what it turned out to read besides its text: each internal link's
 * resolution ("link /blog/x" → "/pt/blog/x") and each image's size ("image /media/a.png" →
 * "640x480"). These are inputs found while compiling; the body stays valid while each of them
 * has the same value now (a target gaining or losing a translation moves links to it).
 */
export interface TrackedBody {
  body: CompiledMarkdown;
  found: FoundInputs;
}

/**
 * A body's found inputs, each name followed by its value: a flat list of strings, as the markdown
 * cache keeps them. Read back as an object, the names (a link's target, an image's path) would
 * each become a property name of an object of its own, thousands of them on every build.
 */
export type FoundInputs = readonly string[];

/** The found inputs `found` names (a record, in the order they were first found), as a flat list. */
export function foundInputs(found: ReadonlyMap<string, string>): FoundInputs {
  const list: string[] = [];
  for (const [name, value] of found) list.push(name, value);
  return list;
}

/** Where a body's found inputs get their current values: the build's routes and media folder. */
export interface BodySite {
  routes: ReadonlyMap<string, Route>;
  imageCdn: string | undefined;
  mediaDir: string;
  /** The raster images, published as variants named by their content. */
  images: RasterCatalogue;
}

/** The current value of a found input of a body in `lang` ("link <href>" or "image <src>"). */
export function foundValue(name: string, lang: Lang, site: BodySite): string {
  const space = name.indexOf(' ');
  const kind = name.slice(0, space);
  const target = name.slice(space + 1);
  return kind === 'link' ? localizeHref(target, lang, site.routes) : imageText(site, target);
}

/**
 * What a body's HTML takes from an image: its size, and for a raster image the hash its
 * variants are named by (a replaced photo of the same size moves every URL of its `<picture>`).
 */
export function imageText(site: BodySite, src: string): string {
  const raster = rasterAt(site.images, src);
  return raster ? `${raster.width}x${raster.height} ${raster.hash}` : sizeText(mediaImageSize(site.mediaDir, src));
}

export function sizeText(size: ImageSize | undefined): string {
  return size ? `${size.width}x${size.height}` : '';
}
