import { renderToString } from 'react-dom/server';
import { Document } from '../../templates/Document';
import type { Site } from '../model/site';
import type { Lang } from '../shared/lang';
import type { HeadProps } from '../shared/props';
import { editionUrl, firstLang, homeUrl, type Route } from '../shared/route';
import { buildChrome, stringsFor } from './chrome';
import { pageContent } from './pages';

/** What rendering needs besides the site: the built asset URLs and the year of the build. */
export interface RenderContext {
  site: Site;
  /** URL of the stylesheet (content-hashed). */
  stylesheet: string;
  /** URL of the client bundle (content-hashed). */
  script: string;
  /** The year shown in the footer. */
  year: number;
}

function absolute(site: Site, url: string): string {
  return site.content.config.baseUrl.replace(/\/$/, '') + url;
}

function headFor(ctx: RenderContext, title: string, description: string, url: string, route: Route | undefined): HeadProps {
  const { site } = ctx;
  const alternates: HeadProps['alternates'] = [];
  if (route) {
    for (const lang of route.meta.availableLangs) alternates.push({ hreflang: lang, href: absolute(site, editionUrl(route, lang)) });
    alternates.push({ hreflang: 'x-default', href: absolute(site, editionUrl(route, firstLang(route))) });
  }
  return {
    title: `${title} · ${site.content.owner.name}`,
    description,
    canonical: absolute(site, url),
    alternates,
    stylesheet: ctx.stylesheet,
    script: ctx.script,
    favicon: site.media(site.content.config.favicon),
  };
}

function toHtml(element: React.ReactElement): string {
  return `<!DOCTYPE html>${renderToString(element)}`;
}

/** The HTML document of one edition: a route in one of its languages. */
export function renderEdition(ctx: RenderContext, route: Route, lang: Lang): string {
  const content = pageContent(ctx.site, route, lang);
  const head = headFor(ctx, content.title, content.description, editionUrl(route, lang), route);
  const chrome = buildChrome({ site: ctx.site, lang, route, year: ctx.year });
  return toHtml(<Document head={head} chrome={chrome} page={content.props} />);
}

/** The Not Found page in one language (served with status 404). */
export function renderNotFound(ctx: RenderContext, lang: Lang): string {
  const strings = stringsFor(ctx.site, lang);
  const head = headFor(ctx, strings['notFound.title'], strings['notFound.message'], lang === 'pt' ? '/pt/404' : '/404', undefined);
  const chrome = buildChrome({ site: ctx.site, lang, route: undefined, year: ctx.year });
  return toHtml(<Document head={head} chrome={chrome} page={{ kind: 'notfound', title: strings['notFound.title'] }} />);
}

/**
 * The pages at "/" and "/pt", for static hosts (the server redirects these paths itself).
 * "/pt" always leads to the Portuguese About Me; "/" to About Me in the remembered language,
 * English by default. The meta refresh serves browsers without JavaScript.
 */
export function renderRedirect(lang: Lang): string {
  const target = homeUrl(lang);
  const script =
    lang === 'en'
      ? `<script>try{if(localStorage.getItem('lang')==='pt')location.replace('${homeUrl('pt')}')}catch(e){}</script>`
      : '';
  return [
    '<!DOCTYPE html>',
    `<html lang="${lang}"><head><meta charset="utf-8">`,
    `<title>${target}</title>`,
    `<link rel="canonical" href="${target}">`,
    script,
    `<meta http-equiv="refresh" content="0; url=${target}">`,
    `</head><body><p><a href="${target}">${target}</a></p></body></html>`,
  ].join('');
}
