import path from 'node:path';
import { type Diagnostic, diagnostic } from '../diagnostics/diagnostic';
import { faultText } from '../diagnostics/failure';
import { listFiles } from '../load/files';
import type { Site } from '../model/site';
import { checkAssets } from './assets';
import { checkBreadcrumbs } from './breadcrumbs';
import { checkEmptyCategoryLinks } from './emptyCategory';
import { checkIds, type EditionIds, editionIds, type RenderedIds } from './ids';
import { checkLinks, collectLinks, type InternalLink } from './links';
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
 * translations, assets and routes. Schema and file-layout problems are found by `load`. The ids
 * of pages other than articles are read from their rendering (`rendered`).
 */
export function checkSite(site: Site, mediaFiles: ReadonlySet<string>, rendered: RenderedIds): Diagnostic[] {
  let found: { ids: EditionIds; links: InternalLink[] } | undefined;
  const failed = guarded('links', () => {
    found = { ids: editionIds(site, rendered), links: collectLinks(site) };
    return [];
  });
  const linked = found
    ? [
        ...guarded('links', () => checkLinks(site, found!.links, found!.ids)),
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
