import { compileMarkdown } from '../markdown/compile';
import { localizeHref, mediaUrl } from '../model/links';
import type { Lang } from '../shared/lang';
import type { Route } from '../shared/route';
import type { TrackedBody } from './resolutions';

/** Compiles a markdown body in a language, recording how each internal link was resolved. */
export function compileTracked(markdown: string, lang: Lang, routes: ReadonlyMap<string, Route>, imageCdn: string | undefined): TrackedBody {
  const resolutions: [string, string][] = [];
  const body = compileMarkdown(markdown, {
    localizeHref: (href) => {
      const url = localizeHref(href, lang, routes);
      resolutions.push([href, url]);
      return url;
    },
    mediaUrl: (path) => mediaUrl(path, imageCdn),
  });
  return { body, resolutions };
}
