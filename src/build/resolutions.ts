import type { CompiledMarkdown } from '../markdown/compile';
import { mediaImageSize, type ImageSize } from '../markdown/imageSize';
import { localizeHref } from '../model/links';
import type { Lang } from '../shared/lang';
import type { Route } from '../shared/route';

/**
 * A compiled markdown body and how each internal link and image in it was resolved: what the HTML
 * depends on besides the markdown itself. A cached body stays valid only while every link still
 * resolves the same way (a target gaining or losing a translation) and every image keeps its size.
 */
export interface TrackedBody {
  body: CompiledMarkdown;
  resolutions: [href: string, url: string][];
  /** Each image's src and the size written for it ("" when none), which a new file can change. */
  images: [src: string, size: string][];
}

/**
 * True when every internal link of a cached body still resolves to the URL it was compiled with,
 * and every image still has the size written into it.
 */
export function stillResolves(tracked: TrackedBody, lang: Lang, routes: ReadonlyMap<string, Route>, mediaDir: string): boolean {
  return (
    tracked.resolutions.every(([href, url]) => localizeHref(href, lang, routes) === url) &&
    tracked.images.every(([src, size]) => sizeText(mediaImageSize(mediaDir, src)) === size)
  );
}

export function sizeText(size: ImageSize | undefined): string {
  return size ? `${size.width}x${size.height}` : '';
}
