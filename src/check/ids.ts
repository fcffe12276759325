import { type Diagnostic, diagnostic, type Place } from '../diagnostics/diagnostic';
import type { ArticleEdition, Site } from '../model/site';
import type { Lang } from '../shared/lang';
import type { Route } from '../shared/route';
import { bodyPlace, frontMatterPlace } from './place';

/** The element ids of every edition, as a visitor's browser would see them. */
export interface EditionIds {
  of(route: Route, lang: Lang): ReadonlySet<string>;
  /** Ids of the layout around every page (header, drawer, footer). */
  layout: ReadonlySet<string>;
  /** Every id of a rendered page other than an article, in order, duplicates kept. */
  rendered(route: Route, lang: Lang): readonly string[];
}

/** The id attributes of an HTML document, in order, duplicates kept. */
export function idsInHtml(html: string): string[] {
  return [...html.matchAll(/\sid="([^"]*)"/g)].map((m) => m[1] ?? '');
}

/** The id the article template gives its index list. */
const ARTICLE_INDEX_ID = 'article-index';

/**
 * The ids of a rendered page other than an article, in order, duplicates kept; with no route,
 * the Not Found page (its ids are those of the layout around every page). They come from the
 * build's one render of each page, or from the ids kept since the page's inputs last changed.
 */
export type RenderedIds = (route: Route | undefined, lang: Lang) => readonly string[];

/** Ids per edition: an article's from its compiled body plus the layout, other pages' as rendered. */
export function editionIds(site: Site, rendered: RenderedIds): EditionIds {
  const layout = new Set(rendered(undefined, 'en'));
  const cache = new Map<string, Set<string>>();
  return {
    layout,
    rendered,
    of(route, lang) {
      const key = `${lang} ${route.path}`;
      let ids = cache.get(key);
      if (!ids) {
        const article = route.component === 'article' ? site.articleByPath.get(route.path) : undefined;
        const edition = article?.editions[lang];
        if (edition) {
          ids = new Set([...layout, ...edition.body.ids]);
          if (edition.source.frontMatter.index) ids.add(ARTICLE_INDEX_ID);
        } else {
          ids = new Set(rendered(route, lang));
        }
        cache.set(key, ids);
      }
      return ids;
    },
  };
}

/**
 * ANCHOR002 and INDEX001 for one article edition: its headings against the layout's ids, its index
 * against its headings.
 */
export function editionIdProblems(edition: ArticleEdition, layout: ReadonlySet<string>): Diagnostic[] {
  const out: Diagnostic[] = [];
  const hasIndex = Boolean(edition.source.frontMatter.index);
  for (const heading of edition.body.headings) {
    if (layout.has(heading.id) || (hasIndex && heading.id === ARTICLE_INDEX_ID)) {
      out.push(
        diagnostic('ANCHOR002', bodyPlace(edition, heading.line, 1), {
          kind: 'layout',
          heading: heading.text,
          id: heading.id,
        }),
      );
    }
  }
  const index = edition.source.frontMatter.index;
  if (Array.isArray(index)) {
    const sections = new Set(edition.body.headings.map((h) => h.id));
    index.forEach((entry, i) => {
      if (!sections.has(entry.id)) {
        const near = [...sections].find((id) => id.toLowerCase() === entry.id.toLowerCase());
        out.push(
          diagnostic('INDEX001', frontMatterPlace(edition, ['index', i, 'id']), {
            id: entry.id,
            near,
            sections: [...sections],
          }),
        );
      }
    });
  }
  return out;
}

/** ANCHOR002 for every page other than an article (articles: `editionIdProblems`): no id twice. */
export function checkPageIds(site: Site, ids: EditionIds): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const route of site.routes) {
    if (route.component === 'article') continue;
    for (const lang of route.meta.availableLangs) {
      const all = ids.rendered(route, lang);
      const seen = new Set<string>();
      for (const id of all) {
        if (seen.has(id)) {
          out.push(diagnostic('ANCHOR002', pagePlace(route), { kind: 'twice', id, path: route.path, lang }));
        }
        seen.add(id);
      }
    }
  }
  return out;
}

function pagePlace(route: Route): Place {
  const file =
    route.component === 'category' || route.component === 'gallery'
      ? `content/categories/${route.name}.json`
      : `content/pages/${route.name}.json`;
  return { file, line: 0, column: 0 };
}
