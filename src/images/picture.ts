import type { Picture } from '../shared/props';
import type { RasterImage } from './raster';
import { fallbackFormat, formatsOf, MIME, type VariantFormat, variantFile, widthsOf } from './variants';

/**
 * The `<picture>` of a raster image: each format's variants as a `srcset`, the fallback's last.
 * `url` maps a path under dist/ to its published URL (the image CDN when one is configured).
 */
export function pictureOf(image: RasterImage, url: (path: string) => string): Picture {
  const widths = widthsOf(image);
  const srcset = (format: VariantFormat) =>
    widths.map((width) => `${url(pathOf(image, width, format))} ${width}w`).join(', ');
  const fallback = fallbackFormat(image);
  return {
    src: fallbackUrl(image, url),
    width: image.width,
    height: image.height,
    sources: formatsOf(image)
      .filter((format) => format !== fallback)
      .map((format) => ({ type: MIME[format], srcset: srcset(format) })),
    srcset: srcset(fallback),
  };
}

/** The URL of an image's fallback at its widest: what a plain link to it, a video poster or a share card gets. */
export function fallbackUrl(image: RasterImage, url: (path: string) => string): string {
  const widths = widthsOf(image);
  return url(pathOf(image, widths[widths.length - 1] as number, fallbackFormat(image)));
}

/**
 * A variant's URL path, escaped: a space in a file's name would split a `srcset` entry in two, and
 * a quote or a parenthesis would end a CSS `url()` (the Professional hero's background).
 */
function pathOf(image: RasterImage, width: number, format: VariantFormat): string {
  return encodeURI(`/${variantFile(image, width, format)}`).replace(
    /['()]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}
