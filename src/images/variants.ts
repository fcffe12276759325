import type { RasterImage } from './raster';

/** The widths, in pixels, a raster image is published at (those it reaches), for `srcset`. */
export const WIDTHS = [320, 640, 960, 1280, 1920] as const;

/** The published formats: AVIF and WebP, and the fallback every browser shows (the source's own kind). */
export type VariantFormat = 'avif' | 'webp' | 'jpeg' | 'png';

/** One published file of a raster image. */
export interface Variant {
  /** Its path under dist/ ("assets/media/blog/harbour-640.3f9a1c2b7d.avif"). */
  file: string;
  width: number;
  format: VariantFormat;
}

const EXTENSION: Record<VariantFormat, string> = { avif: 'avif', webp: 'webp', jpeg: 'jpg', png: 'png' };

/** The MIME type of a format, for `<source type>`. */
export const MIME: Record<VariantFormat, string> = {
  avif: 'image/avif',
  webp: 'image/webp',
  jpeg: 'image/jpeg',
  png: 'image/png',
};

/**
 * The widths an image is published at: each of `WIDTHS` it exceeds by a tenth (a variant barely
 * narrower than the next would only add a file), and its own width, up to the widest of them.
 * Never wider than the source: a variant is never enlarged.
 */
export function widthsOf(image: Pick<RasterImage, 'width'>): number[] {
  const widest = WIDTHS[WIDTHS.length - 1] as number;
  const top = Math.min(image.width, widest);
  return [...WIDTHS.filter((width) => width * 1.1 <= top), top];
}

/**
 * The fallback format: a JPEG stays a JPEG, anything else (which may be transparent) becomes a
 * PNG when it is a PNG and a WebP otherwise (every browser that shows AVIF shows WebP).
 */
export function fallbackFormat(image: Pick<RasterImage, 'file'>): VariantFormat {
  if (/\.jpe?g$/i.test(image.file)) return 'jpeg';
  return /\.png$/i.test(image.file) ? 'png' : 'webp';
}

/** The formats an image is published in, the fallback last (a WebP source's fallback is its WebP). */
export function formatsOf(image: Pick<RasterImage, 'file'>): VariantFormat[] {
  const fallback = fallbackFormat(image);
  return fallback === 'webp' ? ['avif', 'webp'] : ['avif', 'webp', fallback];
}

/**
 * The path under dist/ of an image's variant: beside the bundle, named by the source's content, so
 * it is cached for ever.
 */
export function variantFile(image: Pick<RasterImage, 'file' | 'hash'>, width: number, format: VariantFormat): string {
  const stem = image.file.replace(/\.[^./]+$/, '');
  return `assets/media/${stem}-${width}.${image.hash}.${EXTENSION[format]}`;
}

/** Every published file of an image: each format at each width. */
export function variantsOf(image: RasterImage): Variant[] {
  const widths = widthsOf(image);
  return formatsOf(image).flatMap((format) =>
    widths.map((width) => ({ file: variantFile(image, width, format), width, format })),
  );
}
