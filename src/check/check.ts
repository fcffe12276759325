import path from 'node:path';
import type { Diagnostic } from '../diagnostics/diagnostic';
import { listFiles } from '../load/files';
import type { Site } from '../model/site';
import { checkAssets } from './assets';
import { checkBreadcrumbs } from './breadcrumbs';
import { checkIds, editionIds } from './ids';
import { checkLinks, collectLinks } from './links';
import type { CheckReuse } from './memory';
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
  const ids = editionIds(site, reuse);
  const links = collectLinks(site);
  return [
    ...checkLinks(site, links, ids, reuse?.memory),
    ...checkIds(site, ids),
    ...checkBreadcrumbs(site),
    ...checkTranslations(site),
    ...checkAssets(site, mediaFiles),
    ...checkRoutes(site, links),
  ];
}
