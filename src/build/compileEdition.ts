import { compileMarkdown } from '../markdown/compile';
import { mediaImageSize } from '../markdown/imageSize';
import { localizeHref, mediaUrl } from '../model/links';
import type { Lang } from '../shared/lang';
import { type BodySite, sizeText, type TrackedBody } from './found';

/** Compiles a markdown body in a language, recording each internal link's resolution and image's size. */
export function compileTracked(markdown: string, lang: Lang, site: BodySite): TrackedBody {
  const found: Record<string, string> = {};
  const body = compileMarkdown(markdown, {
    lang,
    localizeHref: (href) => {
      const url = localizeHref(href, lang, site.routes);
      found[`link ${href}`] = url;
      return url;
    },
    mediaUrl: (path) => mediaUrl(path, site.imageCdn),
    imageSize: (src) => {
      const size = mediaImageSize(site.mediaDir, src);
      found[`image ${src}`] = sizeText(size);
      return size;
    },
  });
  return { body, found };
}
