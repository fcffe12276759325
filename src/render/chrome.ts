import type { LoadedContent } from '../load/content';
import { localizeHref } from '../model/links';
import type { Site } from '../model/site';
import { LANGUAGES, type Lang } from '../shared/lang';
import type { Chrome, LanguageLabels } from '../shared/props';
import { BLOG_PATH, editionUrl, homeUrl, type PageKind, type Route } from '../shared/route';

/**
 * What the chrome reads of the site: its site-wide content, never the articles (the server's
 * newsletter pages have no model).
 */
export type ChromeSite = Pick<Site, 'strings' | 'media' | 'picture' | 'routeByPath'> & {
  content: Pick<LoadedContent, 'owner' | 'navigation' | 'config' | 'strings'>;
};

function languageLabels(site: ChromeSite): Record<Lang, LanguageLabels> {
  const s = site.content.strings;
  const labels = {} as Record<Lang, LanguageLabels>;
  for (const target of LANGUAGES) {
    // The warning speaks the target language: the visitor asked for it.
    labels[target] = {
      name: s[`lang.${target}`][target] ?? '',
      switchTo: s[`lang.switchTo.${target}`][target] ?? '',
      warningTitle: s['lang.warning.title'][target] ?? '',
      warningText: s['lang.warning.text'][target] ?? '',
      dismiss: s['lang.warning.dismiss'][target] ?? '',
    };
  }
  return labels;
}

/** The section a page belongs to in the menu: blog pages light up "Blog", the Atelier "Projects". */
function section(route: Route | undefined): string | undefined {
  if (!route) return undefined;
  if (route.path.startsWith(BLOG_PATH)) return BLOG_PATH;
  if (route.path === '/atelier') return '/projects';
  return route.path;
}

export interface ChromeInput {
  site: ChromeSite;
  lang: Lang;
  /** Undefined on the Not Found page. */
  route: Route | undefined;
  year: number;
}

export function buildChrome({ site, lang, route, year }: ChromeInput): Chrome {
  const { owner, navigation } = site.content;
  const current = section(route);
  const alternates: Chrome['alternates'] = {};
  if (route) for (const l of route.meta.availableLangs) alternates[l] = editionUrl(route, l);
  else for (const l of LANGUAGES) alternates[l] = homeUrl(l);
  return {
    lang,
    kind: (route?.component ?? 'notfound') as PageKind | 'notfound',
    routeName: route?.name ?? 'notfound',
    alternates,
    strings: site.strings[lang],
    owner: {
      name: owner.name,
      subtitle: owner.subtitle[lang],
      avatar: site.media(owner.avatar),
      avatarPicture: site.picture(owner.avatar),
      cvUrl: site.media(owner.cv.file),
      socials: owner.socials.map((s) => ({ name: s.name, img: site.media(s.img), url: s.url })),
    },
    nav: navigation.map((item) => ({
      title: item.title[lang],
      url: localizeHref(item.path, lang, site.routeByPath),
      icon: item.icon,
      current: item.path === current,
    })),
    flags: { en: site.media(site.content.config.flags.en), pt: site.media(site.content.config.flags.pt) },
    languages: languageLabels(site),
    year,
  };
}
