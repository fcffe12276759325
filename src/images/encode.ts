import os from 'node:os';
import sharp from 'sharp';
import type { Variant, VariantFormat } from './variants';

/**
 * Each format's settings, chosen on the bench's photos (1600 px JPEGs, five widths each): AVIF at
 * effort 1 takes far less time than effort 2 for files a little larger; WebP at effort 2, far less
 * than the default for a little more. The JPEG fallback keeps mozjpeg (its files markedly smaller
 * than libjpeg's): it is what a video poster and a share card show.
 */
const SETTINGS: Record<VariantFormat, (image: sharp.Sharp) => sharp.Sharp> = {
  avif: (image) => image.avif({ quality: 50, effort: 1 }),
  webp: (image) => image.webp({ quality: 75, effort: 2 }),
  jpeg: (image) => image.jpeg({ quality: 80, mozjpeg: true }),
  png: (image) => image.png({ compressionLevel: 9 }),
};

/** Variants encoded at once: one more than the cores, so that none waits while another is set up. */
const AT_ONCE = os.availableParallelism() + 1;

// libvips keeps recent operations and their pixels for reuse: a build encodes each once.
sharp.cache(false);

/**
 * Encodes the variants of a raster image from its bytes: turned upright as its EXIF orientation
 * says, narrowed to each width (never widened), and written with no metadata at all: sharp keeps
 * none unless asked (no EXIF, so no GPS position or camera serial; no XMP, IPTC or ICC profile:
 * the pixels are converted to sRGB). Rejects when the bytes are not a readable image.
 */
export async function encodeVariants(source: Uint8Array, variants: readonly Variant[]): Promise<Buffer[]> {
  // A truncated or corrupt file is an error, not a grey picture published.
  const upright = sharp(source, { failOn: 'error' }).rotate();
  const encoded: Buffer[] = new Array(variants.length);
  let next = 0;
  // A few at once, each taking the next variant as it finishes: each holds a decoded copy of the source.
  const lane = async () => {
    for (let i = next++; i < variants.length; i = next++) {
      const variant = variants[i] as Variant;
      encoded[i] = await SETTINGS[variant.format](
        upright.clone().resize({ width: variant.width, withoutEnlargement: true }),
      ).toBuffer();
    }
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, variants.length) }, lane));
  return encoded;
}
