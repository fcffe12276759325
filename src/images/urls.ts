import { mediaUrl } from '../model/links';
import type { Picture } from '../shared/props';
import { fallbackUrl, pictureOf } from './picture';
import type { RasterCatalogue, RasterImage } from './raster';

/** How the site's "/media/..." paths are published: a raster image as its variants, any other file as it is. */
export interface MediaUrls {
  /**
   * The URL of a "/media/..." path: a raster image's widest fallback, any other file itself (on the
   * image CDN when one is configured).
   */
  url(path: string): string;
  /** The variants of a "/media/..." raster image; undefined for any other path. */
  picture(path: string): Picture | undefined;
}

export function mediaUrls(images: RasterCatalogue, imageCdn: string | undefined): MediaUrls {
  const onCdn = (path: string) => mediaUrl(path, imageCdn);
  return {
    url: (path) => {
      const image = rasterAt(images, path);
      return image ? fallbackUrl(image, onCdn) : onCdn(path);
    },
    picture: (path) => {
      const image = rasterAt(images, path);
      return image && pictureOf(image, onCdn);
    },
  };
}

/** The raster image a "/media/..." path names (its escapes decoded, a query or fragment left out). */
export function rasterAt(images: RasterCatalogue, path: string): RasterImage | undefined {
  if (images.size === 0 || !path.startsWith('/media/')) return undefined;
  const file = path.slice('/media/'.length).split(/[?#]/)[0] ?? '';
  try {
    return images.get(decodeURI(file));
  } catch {
    return images.get(file);
  }
}
