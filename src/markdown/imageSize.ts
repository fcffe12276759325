import { readFileSync } from 'node:fs';
import path from 'node:path';
import { imageSize } from 'image-size';

/** An image's intrinsic size, for the width and height attributes that reserve its box. */
export interface ImageSize {
  width: number;
  height: number;
}

/**
 * The size of a "/media/..." image of the site, read from its file under `mediaDir` (SVG, PNG,
 * JPEG, WebP, AVIF headers, by image-size). Undefined for other URLs and unreadable files; the
 * checker reports missing images itself.
 */
export function mediaImageSize(mediaDir: string, src: string): ImageSize | undefined {
  if (!src.startsWith('/media/')) return undefined;
  try {
    const { width, height } = imageSize(readFileSync(path.join(mediaDir, src.slice('/media/'.length))));
    return width && height ? { width, height } : undefined;
  } catch {
    return undefined;
  }
}
