import { compileMarkdown } from '../markdown/compile';
import { localizeHref, mediaUrl } from '../model/links';
import type { Lang } from '../shared/lang';
import type { Route } from '../shared/route';
import { mediaImageSize } from '../markdown/imageSize';
import { sizeText, type TrackedBody } from './resolutions';

/** Compiles a markdown body in a language, recording how each internal link and image size was resolved. */
export function compileTracked(markdown: string, lang: Lang, routes: ReadonlyMap<string, Route>, imageCdn: string | undefined, mediaDir: string): TrackedBody {
  const resolutions: [string, string][] = [];
  const images: [string, string][] = [];
  const body = compileMarkdown(markdown, {
    localizeHref: (href) => {
      const url = localizeHref(href, lang, routes);
      resolutions.push([href, url]);
      return url;
    },
    mediaUrl: (path) => mediaUrl(path, imageCdn),
    imageSize: (src) => {
      const size = mediaImageSize(mediaDir, src);
      images.push([src, sizeText(size)]);
      return size;
    },
  });
  return { body, resolutions, images };
}
