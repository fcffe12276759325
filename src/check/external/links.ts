import type { Place } from '../../diagnostics/diagnostic';
import { compileMarkdown } from '../../markdown/compile';
import type { Site } from '../../model/site';
import { LANGUAGES } from '../../shared/lang';
import { isExternal } from '../../shared/url';
import { jsonStrings } from '../jsonStrings';
import { bodyPlace, jsonPlace } from '../place';

/** A link (or an image) of the content that leaves the site, where it is written. */
export interface ExternalLink {
  /** As written: "https://docs.docker.com/compose/#files". */
  href: string;
  /** What is asked: the address as URL reads it, without its #fragment ("https://docs.docker.com/compose/"). */
  address: string;
  place: Place;
}

/** The site's settings, not links: its own address and its image CDN's. */
const CONFIG_FILE = 'content/site.json';
const PROFESSIONAL_FILE = 'content/pages/professional.json';

/**
 * Every link and image of the published content that leaves the site, in the order of the files:
 * the article editions' bodies (a link, an autolink, a reference's use, an image), every JSON value
 * that is an http(s) address, and the links of the markdown texts inside JSON (the experience
 * dialogs, placed on their field, as their other findings are). An address on the site's own
 * `baseUrl` is a page of this site, not a link that leaves it, and is not listed.
 */
export function externalLinks(site: Site): ExternalLink[] {
  const own = originOf(site.content.config.baseUrl);
  const links: ExternalLink[] = [];
  const add = (href: string, place: Place) => {
    const address = addressOf(href);
    if (address !== undefined && originOf(address) !== own) links.push({ href, address, place });
  };
  for (const edition of site.editions) {
    if (!edition) continue;
    for (const ref of edition.body.references)
      if (isExternal(ref.href)) add(ref.href, bodyPlace(edition, ref.line, ref.column));
  }
  for (const [file, { value }] of site.content.json) {
    if (file === CONFIG_FILE) continue;
    for (const [text, at] of jsonStrings(value))
      if (isExternal(text) && !/\s/.test(text)) add(text, jsonPlace(site, file, at));
  }
  site.content.pages.professional.experiences.forEach((card, i) => {
    for (const lang of LANGUAGES) {
      const { references } = compileMarkdown(card.modal_text[lang], {
        lang,
        localizeHref: (href) => href,
        mediaUrl: (path) => path,
      });
      for (const ref of references)
        if (isExternal(ref.href))
          add(ref.href, jsonPlace(site, PROFESSIONAL_FILE, ['experiences', i, 'modal_text', lang]));
    }
  });
  return links;
}

/** The address to ask for a link: parsed, without its fragment; undefined when it is not a URL at all. */
export function addressOf(href: string): string | undefined {
  if (!URL.canParse(href)) return undefined;
  const url = new URL(href);
  url.hash = '';
  return url.href;
}

function originOf(address: string): string | undefined {
  return URL.canParse(address) ? new URL(address).origin : undefined;
}
