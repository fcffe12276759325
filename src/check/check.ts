import path from 'node:path';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic';
import { listFiles } from '../load/files';
import type { Article, ArticleEdition, Site } from '../model/site';
import { checkAssets, editionAssetProblems } from './assets';
import { checkBreadcrumbs } from './breadcrumbs';
import { checkEmptyCategoryLinks } from './emptyCategory';
import { checkIds, editionIdProblems, editionIds } from './ids';
import { checkLinks, collectLinks, editionLinks, type InternalLink } from './links';
import type { CheckReuse } from './memory';
import { faultText } from '../diagnostics/failure';
import { checkRegister } from './register';
import { checkRoutes } from './routes';
import { checkTranslations } from './translations';

/** The files under content/media by their path below it, with forward slashes. */
export async function listMedia(root: string): Promise<Set<string>> {
  const dir = path.join(root, 'content', 'media');
  return new Set((await listFiles(dir)).map((f) => path.relative(dir, f).split(path.sep).join('/')));
}

/**
 * Every rule of `site check` over the site model in memory: links, anchors, breadcrumbs,
 * translations, assets and routes. Schema and file-layout problems are found by `load`. With
 * `reuse`, work whose inputs are unchanged since the last check is taken from its memory.
 */
export function checkSite(site: Site, mediaFiles: ReadonlySet<string>, reuse?: CheckReuse): Diagnostic[] {
  let found: { ids: ReturnType<typeof editionIds>; links: InternalLink[] } | undefined;
  const failed = guarded('links', () => {
    found = { ids: editionIds(site, reuse), links: collectLinks(site) };
    return [];
  });
  if (reuse && found) reuse.memory.links = found.links;
  const linked = found
    ? [
        ...guarded('links', () => checkLinks(site, found!.links, found!.ids, reuse?.memory)),
        ...guarded('ids', () => checkIds(site, found!.ids)),
        ...guarded('routes', () => checkRoutes(site, found!.links)),
        ...guarded('empty categories', () => checkEmptyCategoryLinks(site, found!.links)),
      ]
    : failed;
  return [
    ...linked,
    ...guarded('breadcrumbs', () => checkBreadcrumbs(site)),
    ...guarded('translations', () => checkTranslations(site)),
    ...guarded('assets', () => checkAssets(site, mediaFiles)),
    ...guarded('register', () => checkRegister(site)),
  ];
}

/**
 * A rule that fails (a fault of the tool on some content it did not foresee) is reported as a
 * diagnostic, and the other rules still run: the owner gets a report, not a stack trace.
 */
function guarded(rule: string, run: () => Diagnostic[]): Diagnostic[] {
  try {
    return run();
  } catch (error) {
    return [diagnostic('INTERNAL001', { file: 'content', line: 0, column: 0 }, { kind: 'check', rule, fault: faultText(error) })];
  }
}

/**
 * The rules an edit of one article body can break, for that edition alone: its links, anchors,
 * ids and media, plus `inbound`, the links elsewhere that point into it. Everything else about the
 * site (routes, titles, breadcrumbs, translations) is as it was, and checked by the full check.
 */
export function checkEdition(site: Site, article: Article, edition: ArticleEdition, mediaFiles: ReadonlySet<string>, inbound: readonly InternalLink[], reuse?: CheckReuse): Diagnostic[] {
  const ids = editionIds(site, reuse);
  return [
    ...checkLinks(site, [...editionLinks(article, edition), ...inbound], ids, reuse?.memory),
    ...editionIdProblems(edition, ids.layout),
    ...editionAssetProblems(edition, mediaFiles),
  ];
}
