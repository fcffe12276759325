import { type Diagnostic, diagnostic, type Place } from '../diagnostics/diagnostic';
import { bodyLinkHrefs } from '../markdown/linkHrefs';
import { waitingKey } from '../model/publication';
import type { Article, ArticleEdition, Site } from '../model/site';
import { LANGUAGES, type Lang } from '../shared/lang';
import { articlePath, offers, type Route } from '../shared/route';
import type { EditionIds } from './ids';
import { type TitleMatcher, titleMatcher } from './linkText';
import { bodyPlace, jsonPlace } from './place';
import { caseVariant, closestRoute, hrefPath, splitHref, targetLang } from './targets';

/** An internal link as written in the content, with the language of the page that shows it. */
export interface InternalLink {
  href: string;
  /** The href's path and its "#id", split once (`splitHref`). */
  path: string;
  hash: string | undefined;
  lang: Lang;
  place: Place;
  /** The visible text, when the content gives it. */
  text?: string;
  /** The page the link is on, when it is an article (its own path resolves "#id" links). */
  fromPath?: string;
}

const isInternal = (href: string) => href.startsWith('/') && !href.startsWith('/media/') && !href.startsWith('//');

/** A link's href as written, as the internal link's href it is ("#id" on the article's own path), or undefined when it is not internal. */
function internalLinkHref(article: Article, written: string): string | undefined {
  const href = written.startsWith('#') ? `${article.route.path}${written}` : written;
  return isInternal(href) ? href : undefined;
}

/** The internal links in the body of one article edition. */
function editionLinks(article: Article, edition: ArticleEdition): InternalLink[] {
  const links: InternalLink[] = [];
  for (const ref of edition.body.references) {
    const href = ref.kind === 'link' ? internalLinkHref(article, ref.href) : undefined;
    if (href === undefined) continue;
    // Field by field, not spread: one shape for the thousands of links of a site (docs/performance.md).
    const { path, hash } = splitHref(href);
    const { lang } = edition;
    const place = bodyPlace(edition, ref.line, ref.column);
    const fromPath = article.route.path;
    links.push(
      ref.text
        ? { href, path, hash, lang, place, fromPath, text: ref.text }
        : { href, path, hash, lang, place, fromPath },
    );
  }
  return links;
}

/**
 * An edition's internal links (`editionLinks`), kept in `known` while the edition lives: the link
 * index and the edition rules both read them.
 */
export function editionLinksOf(
  site: Site,
  edition: ArticleEdition,
  known?: WeakMap<ArticleEdition, InternalLink[]>,
): readonly InternalLink[] {
  let links = known?.get(edition);
  if (!links) {
    const article = site.articleByPath.get(articlePath(edition.source.category, edition.source.slug));
    links = article ? editionLinks(article, edition) : [];
    known?.set(edition, links);
  }
  return links;
}

/**
 * The paths the internal links of an edition's body lead to, each once: what `editionLinksOf`
 * gives, without making its links (a large site has tens of thousands).
 */
export function editionLinkPaths(site: Site, edition: ArticleEdition): string[] {
  const paths: string[] = [];
  for (const href of editionHrefs(site, edition)) {
    const path = hrefPath(href);
    if (!paths.includes(path)) paths.push(path);
  }
  return paths;
}

/** The hrefs of the internal links of an edition's body, as `editionLinksOf` gives them, without making its links. */
export function editionHrefs(site: Site, edition: ArticleEdition): string[] {
  const article = site.articleByPath.get(articlePath(edition.source.category, edition.source.slug));
  const hrefs: string[] = [];
  if (!article) return hrefs;
  // From the hrefs a body read from the cache keeps apart, not its references (see packedFacts).
  for (const written of bodyLinkHrefs(edition.body)) {
    const href = internalLinkHref(article, written);
    if (href !== undefined) hrefs.push(href);
  }
  return hrefs;
}

/** The internal links of the JSON content: navigation, pages and categories. */
export function contentLinks(site: Site): InternalLink[] {
  const links: InternalLink[] = [];
  const both = (href: string, place: Place) => {
    for (const lang of LANGUAGES) links.push({ href, ...splitHref(href), lang, place });
  };
  const { navigation, pages } = site.content;
  for (const [i, item] of navigation.entries())
    both(item.path, jsonPlace(site, 'content/navigation.json', [i, 'path']));
  pages.aboutme.sections.forEach((section, i) => {
    both(section.path, jsonPlace(site, 'content/pages/aboutme.json', ['sections', i, 'path']));
    if (section.card.route)
      both(section.card.route, jsonPlace(site, 'content/pages/aboutme.json', ['sections', i, 'card', 'route']));
  });
  pages.projects.projects.forEach((project, i) => {
    if (isInternal(project.link))
      both(project.link, jsonPlace(site, 'content/pages/projects.json', ['projects', i, 'link']));
  });
  for (const category of site.categories.values()) {
    category.data.links?.forEach((link, i) => {
      if (!isInternal(link.url)) return;
      for (const lang of LANGUAGES) {
        const text = link.text[lang];
        if (text)
          links.push({
            href: link.url,
            ...splitHref(link.url),
            lang,
            text,
            place: jsonPlace(site, category.file, ['links', i, 'url']),
          });
      }
    });
  }
  for (const [key, entries] of Object.entries(pages.blog.highlights ?? {})) {
    entries.forEach((entry, i) => {
      for (const lang of LANGUAGES) {
        const text = entry.title[lang];
        if (text)
          links.push({
            href: entry.path,
            ...splitHref(entry.path),
            lang,
            text,
            place: jsonPlace(site, 'content/pages/blog.json', ['highlights', key, i, 'path']),
          });
      }
    });
  }
  return links;
}

/**
 * DRAFT001, LINK001-004 and ANCHOR001: no link from a published page leads to an unpublished
 * article; each link's route exists with exactly that case, in the language of
 * the page showing it, its "#id" exists on the edition it opens, and its text does not name
 * another article. A link shown in both languages is reported once per distinct problem.
 * `titleMatch` is made once per check when links are judged in several calls.
 */
export function checkLinks(
  site: Site,
  links: readonly InternalLink[],
  ids: EditionIds,
  titleMatch: TitleMatcher = titleMatcher(site),
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  const report = (d: Diagnostic) => {
    const key = `${d.code} ${d.file}:${d.line}:${d.column} ${d.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(d);
    }
  };
  const { waiting } = site;
  for (const link of links) {
    const { path, hash } = link;
    const route = site.routeByPath.get(path);
    // A link from a published page to an edition the published site does not have (a draft, a
    // scheduled article). A draft may link to anything; a scheduled page to what is published by its day.
    const unpublished =
      waiting.get(waitingKey(link.lang, path)) ??
      (route ? undefined : (waiting.get(waitingKey('en', path)) ?? waiting.get(waitingKey('pt', path))));
    const from = link.fromPath === undefined ? undefined : waiting.get(waitingKey(link.lang, link.fromPath));
    const waits =
      from !== undefined &&
      (from.date === undefined || (unpublished?.date !== undefined && unpublished.date <= from.date));
    if (unpublished && !waits) {
      const lang = waiting.has(waitingKey(link.lang, path))
        ? link.lang
        : waiting.has(waitingKey('en', path))
          ? 'en'
          : 'pt';
      report(diagnostic('DRAFT001', link.place, { path, lang, date: unpublished.date }));
      continue;
    }
    if (!route) {
      const variant = caseVariant(site, path);
      if (variant) {
        report(diagnostic('LINK002', link.place, { path, page: variant.path, hash }));
      } else {
        const near = closestRoute(site, path);
        report(diagnostic('LINK001', link.place, { path, near: near?.path }));
      }
      continue;
    }
    if (!offers(route, link.lang)) {
      report(diagnostic('LINK003', link.place, { path, lang: link.lang, offered: route.meta.availableLangs }));
      continue;
    }
    if (hash !== undefined) checkAnchor({ route, hash, link }, ids, report);
    if (link.text) {
      const better = titleMatch(link.text, route, link.lang);
      if (better) {
        report(diagnostic('LINK004', link.place, { text: link.text, path, article: better }));
      }
    }
  }
  return out;
}

/** A link into a page's section: the page, the section's id, and the link as written. */
interface AnchorLink {
  route: Route;
  hash: string;
  link: InternalLink;
}

/** ANCHOR001 when the page, in the language the link leads to, has no element with the link's id. */
function checkAnchor({ route, hash, link }: AnchorLink, ids: EditionIds, report: (d: Diagnostic) => void): void {
  const lang = targetLang(route, link.lang);
  const present = ids.of(route, lang);
  if (present.has(hash)) return;
  const lower = hash.toLowerCase();
  const near = [...present].find(
    (id) => id.toLowerCase() === lower || id.replace(/-/g, '') === lower.replace(/-/g, ''),
  );
  const own = [...present].filter((id) => !ids.layout.has(id));
  report(diagnostic('ANCHOR001', link.place, { hash, path: route.path, lang, near, ids: own }));
}
