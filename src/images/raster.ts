import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { statSignature } from '../load/stat';

/** The raster formats the site publishes as processed variants; every other media file is published as it is. */
const RASTER = /\.(jpe?g|png|webp|avif)$/i;

/** Whether a file of content/media (by its path below it) is a raster image, published only as variants. */
export function isRaster(file: string): boolean {
  return RASTER.test(file);
}

/** A raster image of content/media, as its variants are named and laid out from it. */
export interface RasterImage {
  /** Its path below content/media, with forward slashes ("blog/harbour.jpg"). */
  file: string;
  /** Its size as shown: after the rotation its EXIF orientation asks for. */
  width: number;
  height: number;
  /** The first 10 hex digits of the SHA-256 of its bytes: every variant's name carries it. */
  hash: string;
}

/**
 * The raster images of content/media by their path below it; a file whose header cannot be read is
 * left out (published as it is).
 */
export type RasterCatalogue = ReadonlyMap<string, RasterImage>;

/**
 * Images read by an earlier build, found again by their path and stat signature (the build cache):
 * a file whose size, inode and times are as they were is not read again (see `statSignature`).
 */
export interface KnownRasters {
  get(file: string, signature: string): RasterImage | undefined;
  set(file: string, signature: string, image: RasterImage): void;
}

/**
 * Reads each raster image among `files` (paths below `mediaDir`): its hash and its size. The
 * whole file is read, for the hash: the variants are named by their source's content, so that a
 * changed photo gets new URLs and the old ones can be cached for ever. An image `known` has under
 * its stat signature is taken from there; sharp is loaded only when one must be read.
 */
export async function readRasters(
  mediaDir: string,
  files: Iterable<string>,
  known?: KnownRasters,
): Promise<RasterCatalogue> {
  const rasters = [...files].filter(isRaster).sort();
  if (rasters.length === 0) return new Map();
  // Loaded once, for the first image to read (a native module, slow to load).
  let sharp: Promise<typeof import('sharp')> | undefined;
  const load = () => {
    sharp ??= import('sharp').then((module) => module.default);
    return sharp;
  };
  const read = await Promise.all(
    rasters.map(async (file) => {
      const signature = known && statSignature(path.join(mediaDir, file));
      const found = signature === undefined ? undefined : known?.get(file, signature);
      if (found) return found;
      const image = await readRaster(await load(), mediaDir, file);
      if (image && signature !== undefined) known?.set(file, signature, image);
      return image;
    }),
  );
  return new Map(read.filter((image) => image !== undefined).map((image) => [image.file, image]));
}

async function readRaster(
  sharp: typeof import('sharp'),
  mediaDir: string,
  file: string,
): Promise<RasterImage | undefined> {
  try {
    const bytes = await readFile(path.join(mediaDir, file));
    // sharp reads the header as its encoder will: the size after the rotation the file asks for
    // (an EXIF orientation in a JPEG, a WebP or a PNG; an AVIF's own rotation).
    const { autoOrient } = await sharp(bytes).metadata();
    if (!autoOrient?.width || !autoOrient.height) return undefined;
    return {
      file,
      width: autoOrient.width,
      height: autoOrient.height,
      hash: createHash('sha256').update(bytes).digest('hex').slice(0, 10),
    };
  } catch {
    return undefined;
  }
}
