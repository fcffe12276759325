import type { ArticleEdition, Site } from '../model/site';
import { contentLinks, editionLinkPaths, editionLinksOf, type InternalLink } from './links';

/** Every internal link of the content by the path it leads to (ORPHAN001, LINK005). */
export interface LinkIndex {
  /** Whether some link of the content leads to `path`. */
  reaches(path: string): boolean;
  /** The links leading to `path`, in no particular order. */
  to(path: string): Iterable<InternalLink>;
}

/**
 * What links to a path: an article edition, one or more of whose body's links lead there (its
 * links are made only when asked for, see `LinkIndex.to`), or a link of the JSON content.
 */
type LinkSource = ArticleEdition | InternalLink;

/** An index as a session's last check left it, and what it was made from. */
export interface IndexedLinks {
  site: Site;
  /** The paths each article file's links lead to, in the order of `site.editions`. */
  editions: readonly (readonly string[] | undefined)[];
  /** The links of the JSON content. */
  content: readonly InternalLink[];
  /** What links to each path, each once, in no particular order: lists, not sets (thousands of paths, a few each). */
  byPath: Map<string, LinkSource[]>;
}

/** What an index keeps between a session's checks: each edition's links, and the last index. */
export interface LinkIndexMemo {
  links?: WeakMap<ArticleEdition, InternalLink[]>;
  last?: { indexed?: IndexedLinks };
}

/**
 * The index of the site's links. An edition is indexed by the paths its links lead to, and its
 * links are made only for a path asked for (`to`: the few that lead to a category): whether a
 * page is reached is a question of paths alone. In a session, the last check's index is brought
 * up to date: when as many files are listed as last time, only the editions that are not the same
 * objects in their places as last time (the model shares the others, see `createSite`) are taken
 * out and put in again, so an edit costs its own links rather than the tens of thousands of a
 * large site.
 */
export function linkIndex(site: Site, memo: LinkIndexMemo = {}): LinkIndex {
  const last = memo.last?.indexed;
  // Brought up to date in place: until it is whole again, no later check may start from it.
  if (memo.last) memo.last.indexed = undefined;
  const indexed = (last && updated(site, last)) ?? fresh(site);
  if (memo.last) memo.last.indexed = indexed;
  const { byPath } = indexed;
  return {
    reaches: (path) => (byPath.get(path)?.length ?? 0) > 0,
    to: (path) => linksTo(site, byPath.get(path), path, memo.links),
  };
}

/** The links that lead to `path` of those `sources` hold. */
function* linksTo(
  site: Site,
  sources: Iterable<LinkSource> | undefined,
  path: string,
  known: WeakMap<ArticleEdition, InternalLink[]> | undefined,
): Iterable<InternalLink> {
  for (const source of sources ?? []) {
    if ('href' in source) yield source;
    else for (const link of editionLinksOf(site, source, known)) if (link.path === path) yield link;
  }
}

function fresh(site: Site): IndexedLinks {
  const byPath = new Map<string, LinkSource[]>();
  const editions = site.editions.map((edition) => {
    if (!edition) return undefined;
    const paths = editionLinkPaths(site, edition);
    add(byPath, paths, edition);
    return paths;
  });
  const content = contentLinks(site);
  for (const link of content) add(byPath, [link.path], link);
  return { site, editions, content, byPath };
}

/**
 * The last index with the editions in places that changed taken out and put in again; undefined
 * when files were added or removed.
 */
function updated(site: Site, last: IndexedLinks): IndexedLinks | undefined {
  const before = last.site;
  if (site.editions.length !== before.editions.length || last.editions.length !== before.editions.length)
    return undefined;
  const { byPath } = last;
  const editions = [...last.editions];
  for (let i = 0; i < site.editions.length; i++) {
    const [edition, was] = [site.editions[i], before.editions[i]];
    if (edition === was) continue;
    if (was) remove(byPath, editions[i] ?? [], was);
    editions[i] = edition ? editionLinkPaths(site, edition) : undefined;
    if (edition) add(byPath, editions[i] ?? [], edition);
  }
  for (const link of last.content) remove(byPath, [link.path], link);
  const content = contentLinks(site);
  for (const link of content) add(byPath, [link.path], link);
  return { site, editions, content, byPath };
}

function add(byPath: Map<string, LinkSource[]>, paths: readonly string[], source: LinkSource): void {
  for (const path of paths) {
    const to = byPath.get(path);
    if (to) to.push(source);
    else byPath.set(path, [source]);
  }
}

function remove(byPath: Map<string, LinkSource[]>, paths: readonly string[], source: LinkSource): void {
  for (const path of paths) {
    const to = byPath.get(path);
    const at = to ? to.indexOf(source) : -1;
    if (!to || at === -1) continue;
    // In no particular order: the last one takes its place.
    to[at] = to[to.length - 1] as LinkSource;
    to.pop();
    if (to.length === 0) byPath.delete(path);
  }
}
