import path from 'node:path';
import type { Diagnostic } from '../diagnostics/diagnostic';
import { listFiles } from '../load/files';
import type { ArticleEdition, Site } from '../model/site';
import type { Route } from '../shared/route';
import { checkContentAssets } from './assets';
import { checkBreadcrumbs } from './breadcrumbs';
import type { ArticleRulesMemo } from './byArticle';
import { checkDrafts } from './drafts';
import { type EditionMemo, type EditionsFound, editionFindings } from './editions';
import { checkEmptyCategoryLinks } from './emptyCategory';
import { guarded } from './guard';
import { checkPageIds, type EditionIds, editionIds, type RenderedIds } from './ids';
import { type IndexedLinks, type LinkIndex, linkIndex } from './linkIndex';
import { checkLinks, contentLinks, type InternalLink } from './links';
import { type TitleIndexMemo, titleIndexKey, titleJudge } from './linkText';
import { checkOutdated } from './outdated';
import { checkRegister, type RegisterMemo } from './register';
import { checkRoutes, type RouteClashes, routeClashes } from './routes';
import { checkTranslations } from './translations';

/** The files under content/media by their path below it, with forward slashes. */
export async function listMedia(root: string): Promise<Set<string>> {
  const dir = path.join(root, 'content', 'media');
  return new Set((await listFiles(dir)).map((f) => path.relative(dir, f).split(path.sep).join('/')));
}

/**
 * What a check keeps between runs: each edition's findings (the build cache); the title index and
 * each edition's links (a session's memory).
 */
export interface CheckMemo {
  editions: EditionMemo;
  titles?: TitleIndexMemo;
  links?: WeakMap<ArticleEdition, InternalLink[]>;
  /** The marks of register of each JSON content value and the count of each Portuguese edition, while they live. */
  register?: RegisterMemo;
  /** The last check's index of links (a session's memory). */
  index?: { indexed?: IndexedLinks };
  /** The case clashes of each route list (ROUTE001), while the list lives. */
  clashes?: WeakMap<readonly Route[], RouteClashes>;
  /** What the rules judged article by article found in each article of the last check (a session's memory). */
  articles?: ArticleRulesMemo;
}

/**
 * Every rule of `site check` over the site model in memory: links, anchors, breadcrumbs,
 * translations, assets, headings and routes. Schema and file-layout problems are found by `load`. The ids
 * of pages other than articles are read from their rendering (`rendered`). With a memo, what the
 * rules found in an edition is taken from it while nothing they read changed (editions.ts).
 */
export function checkSite(
  site: Site,
  mediaFiles: ReadonlySet<string>,
  rendered: RenderedIds,
  memo?: CheckMemo,
): Diagnostic[] {
  // The title key the edition rules worked out for this site, when they did (editions.ts): not hashed twice.
  const facts = memo?.editions.facts;
  const titles = titleJudge(site, memo?.titles, () =>
    facts?.last?.site === site ? facts.last.titles.key : titleIndexKey(site),
  );
  let found: { ids: EditionIds; links: LinkIndex; editions: EditionsFound } | undefined;
  const failed = guarded('links', () => {
    const ids = editionIds(site, rendered);
    // Each edition's links, worked out once for the index and the edition rules.
    const links = memo?.links ?? new WeakMap<ArticleEdition, InternalLink[]>();
    found = {
      ids,
      links: linkIndex(site, { links, ...(memo?.index && { last: memo.index }) }),
      editions: editionFindings({ site, ids, media: mediaFiles, titles, links }, memo?.editions),
    };
    return [];
  });
  // Only the editions that found something, in the site's order.
  const editions = found
    ? found.editions.withFindings.map((i) => found!.editions.byEdition.get(site.editions[i] as ArticleEdition)!)
    : [];
  const all = (rule: 'links' | 'ids' | 'assets' | 'headings') => {
    const out: Diagnostic[] = [];
    for (const findings of editions) for (const d of findings[rule]) out.push(d);
    return out;
  };
  const linked = found
    ? [
        ...all('links'),
        ...guarded('links', () => checkLinks(site, contentLinks(site), found!.ids, titles.match)),
        ...all('ids'),
        ...guarded('ids', () => checkPageIds(site, found!.ids)),
        ...guarded('routes', () => checkRoutes(site, found!.links, clashesOf(site.routes, memo?.clashes))),
        ...guarded('empty categories', () => checkEmptyCategoryLinks(site, found!.links)),
      ]
    : failed;
  return [
    ...linked,
    ...guarded('breadcrumbs', () => checkBreadcrumbs(site, memo?.articles)),
    ...guarded('translations', () => checkTranslations(site, memo?.articles)),
    ...guarded('drafts', () => checkDrafts(site, memo?.articles)),
    ...guarded('outdated translations', () => checkOutdated(site, memo?.articles)),
    ...guarded('assets', () => checkContentAssets(site, mediaFiles)),
    ...all('assets'),
    ...all('headings'),
    ...guarded('register', () =>
      checkRegister(site, (edition, key) => found?.editions.byEdition.get(edition)?.register[key], memo?.register),
    ),
  ];
}

function clashesOf(routes: readonly Route[], known: WeakMap<readonly Route[], RouteClashes> | undefined): RouteClashes {
  let clashes = known?.get(routes);
  if (!clashes) {
    clashes = routeClashes(routes);
    known?.set(routes, clashes);
  }
  return clashes;
}
