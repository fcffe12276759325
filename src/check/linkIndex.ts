import type { ArticleEdition, Site } from '../model/site';
import { contentLinks, editionLinksOf, type InternalLink } from './links';

/** Every internal link of the content by the path it leads to (ORPHAN001, LINK005). */
export interface LinkIndex {
  /** Whether some link of the content leads to `path`. */
  reaches(path: string): boolean;
  /** The links leading to `path`, in no particular order. */
  to(path: string): Iterable<InternalLink>;
}

/** An index as a session's last check left it, and what it was made from. */
export interface IndexedLinks {
  site: Site;
  /** Each article file's links, in the order of `site.editions`. */
  editions: readonly (readonly InternalLink[] | undefined)[];
  /** The links of the JSON content. */
  content: readonly InternalLink[];
  byPath: Map<string, Set<InternalLink>>;
}

/** What an index keeps between a session's checks: each edition's links, and the last index. */
export interface LinkIndexMemo {
  links?: WeakMap<ArticleEdition, InternalLink[]>;
  last?: { indexed?: IndexedLinks };
}

/**
 * The index of the site's links. In a session, the last check's index is brought up to date: when
 * as many files are listed as last time, only the links of the editions that are not the
 * same objects in their places as last time (the model shares the others, see `createSite`) are taken out and put
 * in again, so an edit costs its own links rather than the tens of thousands of a large site.
 */
export function linkIndex(site: Site, memo: LinkIndexMemo = {}): LinkIndex {
  const linksOf = (edition: ArticleEdition): readonly InternalLink[] => editionLinksOf(site, edition, memo.links);
  const last = memo.last?.indexed;
  // Brought up to date in place: until it is whole again, no later check may start from it.
  if (memo.last) memo.last.indexed = undefined;
  const indexed = (last && updated(site, last, linksOf)) ?? fresh(site, linksOf);
  if (memo.last) memo.last.indexed = indexed;
  const { byPath } = indexed;
  return {
    reaches: (path) => (byPath.get(path)?.size ?? 0) > 0,
    to: (path) => byPath.get(path) ?? [],
  };
}

function fresh(site: Site, linksOf: (edition: ArticleEdition) => readonly InternalLink[]): IndexedLinks {
  const byPath = new Map<string, Set<InternalLink>>();
  const editions = site.editions.map((edition) => (edition ? linksOf(edition) : undefined));
  for (const links of editions) if (links) add(byPath, links);
  const content = contentLinks(site);
  add(byPath, content);
  return { site, editions, content, byPath };
}

/**
 * The last index with the links of the editions in places that changed taken out and put in again;
 * undefined when files were added or removed.
 */
function updated(
  site: Site,
  last: IndexedLinks,
  linksOf: (edition: ArticleEdition) => readonly InternalLink[],
): IndexedLinks | undefined {
  const before = last.site;
  if (site.editions.length !== before.editions.length || last.editions.length !== before.editions.length)
    return undefined;
  const { byPath } = last;
  const editions = [...last.editions];
  for (let i = 0; i < site.editions.length; i++) {
    const edition = site.editions[i];
    if (edition === before.editions[i]) continue;
    const links = edition ? linksOf(edition) : undefined;
    if (links === editions[i]) continue;
    remove(byPath, editions[i] ?? []);
    if (links) add(byPath, links);
    editions[i] = links;
  }
  remove(byPath, last.content);
  const content = contentLinks(site);
  add(byPath, content);
  return { site, editions, content, byPath };
}

function add(byPath: Map<string, Set<InternalLink>>, links: readonly InternalLink[]): void {
  for (const link of links) {
    let to = byPath.get(link.path);
    if (!to) {
      to = new Set();
      byPath.set(link.path, to);
    }
    to.add(link);
  }
}

function remove(byPath: Map<string, Set<InternalLink>>, links: readonly InternalLink[]): void {
  for (const link of links) {
    const to = byPath.get(link.path);
    to?.delete(link);
    if (to?.size === 0) byPath.delete(link.path);
  }
}
