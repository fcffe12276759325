import type { Site } from '../model/site';
import { CARD_HEIGHT, CARD_WIDTH } from '../shared/card';
import { LANGUAGE_TAGS, type Lang, OG_LOCALES } from '../shared/lang';
import type { Chrome, HeadProps, PageProps, PageStyles } from '../shared/props';
import { editionUrl, feedUrl, firstLang, homeUrl, notFoundUrl, type Route } from '../shared/route';
import { isExternal } from '../shared/url';
import { buildChrome } from './chrome';
import { pageContent } from './pages';

/** What rendering needs besides the site: the built asset URLs and the year of the build. */
export interface RenderContext {
  site: Site;
  /** The CSS of each page kind, inlined or linked: a page gets its own kind's only. */
  styles: Readonly<Record<PageProps['kind'], PageStyles>>;
  /** URL of the client bundle (content-hashed). */
  script: string;
  /** The year shown in the footer. */
  year: number;
  /** Absolute base URL of the published site; the site config's when absent (`--base-url`). */
  baseUrl?: string;
  /** The day of a build that shows drafts, marked: a scheduled article's mark goes when its day comes. */
  preview?: string;
}

/** The site's absolute base URL, without a trailing slash. */
export function baseUrlOf(ctx: RenderContext): string {
  return (ctx.baseUrl ?? ctx.site.content.config.baseUrl).replace(/\/$/, '');
}

interface HeadInput {
  title: string;
  description: string;
  lang: Lang;
  /** The URL of this edition (site path). */
  url: string;
  route: Route | undefined;
  kind: PageProps['kind'];
  card: PageCard;
  jsonLd?: Record<string, unknown>;
}

/** The share card a page names: its file under the site folder and its alternative text (see src/cards/plan.ts). */
export interface PageCard {
  file: string;
  alt: string;
}

function headFor(ctx: RenderContext, input: HeadInput): HeadProps {
  const { site } = ctx;
  const base = baseUrlOf(ctx);
  const absolute = (url: string) => (isExternal(url) ? url : base + url);
  const { route, lang } = input;
  const alternates: HeadProps['alternates'] = [];
  if (route) {
    for (const l of route.meta.availableLangs) alternates.push({ hreflang: l, href: absolute(editionUrl(route, l)) });
    alternates.push({ hreflang: 'x-default', href: absolute(editionUrl(route, firstLang(route))) });
  }
  const offered = route?.meta.availableLangs ?? [lang];
  return {
    title: `${input.title} · ${site.content.owner.name}`,
    description: input.description,
    canonical: absolute(input.url),
    alternates,
    styles: ctx.styles[input.kind],
    script: ctx.script,
    favicon: site.media(site.content.config.favicon),
    appleTouchIcon: site.media(site.content.config.appleTouchIcon),
    manifest: '/manifest.webmanifest',
    feed: { href: feedUrl(lang), title: `${site.content.pages.blog.title[lang]} · ${site.content.owner.name} (RSS)` },
    share: {
      type: route?.component === 'article' ? 'article' : 'website',
      image: { url: absolute(`/${input.card.file}`), width: CARD_WIDTH, height: CARD_HEIGHT, alt: input.card.alt },
      siteName: site.content.owner.name,
      locale: OG_LOCALES[lang],
      localeAlternates: offered.filter((l) => l !== lang).map((l) => OG_LOCALES[l]),
    },
    ...(input.jsonLd ? { jsonLd: input.jsonLd } : {}),
  };
}

/** schema.org data: a Person on About Me, a BlogPosting on articles. */
function structuredData(
  ctx: RenderContext,
  route: Route,
  lang: Lang,
  url: string,
): Record<string, unknown> | undefined {
  const { site } = ctx;
  const base = baseUrlOf(ctx);
  const { owner } = site.content;
  const person = { '@type': 'Person', name: owner.name, url: `${base}${homeUrl(lang)}` };
  if (route.component === 'aboutme') {
    const avatar = site.media(owner.avatar);
    return {
      '@context': 'https://schema.org',
      ...person,
      jobTitle: owner.subtitle[lang],
      image: isExternal(avatar) ? avatar : base + avatar,
      sameAs: owner.socials.map((s) => s.url),
    };
  }
  if (route.component === 'article') {
    const edition = site.articleByPath.get(route.path)?.editions[lang];
    if (!edition) return undefined;
    const fm = edition.source.frontMatter;
    return {
      '@context': 'https://schema.org',
      '@type': 'BlogPosting',
      headline: fm.title,
      description: fm.description,
      datePublished: fm.date,
      inLanguage: LANGUAGE_TAGS[lang],
      url: base + url,
      mainEntityOfPage: base + url,
      author: person,
    };
  }
  return undefined;
}

/** Everything a document is rendered from: plain data, so it can be hashed as a cache key. */
export interface DocumentInputs {
  head: HeadProps;
  chrome: Chrome;
  page: PageProps;
}

/** The inputs of one edition's document: a route in one of its languages. */
export function editionInputs(ctx: RenderContext, route: Route, lang: Lang, card: PageCard): DocumentInputs {
  const content = pageContent(ctx.site, route, lang);
  const url = editionUrl(route, lang);
  const jsonLd = structuredData(ctx, route, lang, url);
  const head = headFor(ctx, {
    title: content.title,
    description: content.description,
    lang,
    url,
    route,
    kind: content.props.kind,
    card,
    ...(jsonLd ? { jsonLd } : {}),
  });
  const chrome = buildChrome({ site: ctx.site, lang, route, year: ctx.year });
  return { head, chrome, page: content.props };
}

/** The inputs of the Not Found page in one language (served with status 404). */
export function notFoundInputs(ctx: RenderContext, lang: Lang, card: PageCard): DocumentInputs {
  const strings = ctx.site.strings[lang];
  const head = headFor(ctx, {
    title: strings['notFound.title'],
    description: strings['notFound.message'],
    lang,
    url: notFoundUrl(lang),
    route: undefined,
    kind: 'notfound',
    card,
  });
  const chrome = buildChrome({ site: ctx.site, lang, route: undefined, year: ctx.year });
  return { head, chrome, page: { kind: 'notfound', title: strings['notFound.title'] } };
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
