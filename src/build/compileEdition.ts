import { mediaUrls, rasterAt } from '../images/urls';
import { compileMarkdown } from '../markdown/compile';
import { mediaImageSize } from '../markdown/imageSize';
import { localizeHref } from '../model/links';
import type { Lang } from '../shared/lang';
import { type BodySite, foundInputs, imageText, type TrackedBody } from './found';

/** Compiles a markdown body in a language, recording each internal link's resolution and image's size. */
export function compileTracked(markdown: string, lang: Lang, site: BodySite): TrackedBody {
  const found = new Map<string, string>();
  const media = mediaUrls(site.images, site.imageCdn);
  const body = compileMarkdown(markdown, {
    lang,
    localizeHref: (href) => {
      const url = localizeHref(href, lang, site.routes);
      found.set(`link ${href}`, url);
      return url;
    },
    mediaUrl: (path) => {
      // A link to a photo points at a variant named by its content: the body is made again when it changes.
      if (rasterAt(site.images, path)) found.set(`image ${path}`, imageText(site, path));
      return media.url(path);
    },
    imageSize: (src) => {
      found.set(`image ${src}`, imageText(site, src));
      return rasterAt(site.images, src) ?? mediaImageSize(site.mediaDir, src);
    },
    picture: media.picture,
  });
  return { body, found: foundInputs(found) };
}
