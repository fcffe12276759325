import { LANGUAGES, type Lang } from '../shared/lang';
import { articlePath } from '../shared/route';
import type { ArticleEdition } from './site';

/** An article an article page links to at its end: its title and URL in the page's language. */
export interface Neighbour {
  title: string;
  url: string;
}

/** The articles published just before (`previous`) and just after (`next`) one, in its category and language. */
export interface Neighbours {
  previous?: Neighbour;
  next?: Neighbour;
}

/** Each edition's neighbours, by its URL. */
export type NeighbourMap = ReadonlyMap<string, Neighbours>;

type Newest = Readonly<Record<Lang, readonly ArticleEdition[]>>;

/**
 * The neighbours of every edition: one walk of each language's editions, newest first, keeping
 * the edition last seen in each category (the newer neighbour of the next one found there). An
 * edition whose neighbours are those `last` gave it keeps that very entry, so a title edit, which
 * moves the neighbours of two editions, leaves every other page's plan to hold by identity.
 */
export function neighbourMap(newest: Newest, last?: NeighbourMap): NeighbourMap {
  const map = new Map<string, Neighbours>();
  for (const lang of LANGUAGES) {
    const newer = new Map<string, Neighbours & { self: Neighbour }>();
    for (const edition of newest[lang]) {
      const category = edition.source.category;
      const self = { title: edition.source.frontMatter.title, url: edition.url };
      const entry: Neighbours & { self: Neighbour } = { self };
      const before = newer.get(category);
      if (before) {
        entry.next = before.self;
        before.previous = self;
      }
      newer.set(category, entry);
      map.set(edition.url, entry);
    }
  }
  // Drops the walk's own field: a page reads only `previous` and `next`.
  for (const [url, { previous, next }] of map) {
    const before = last?.get(url);
    map.set(
      url,
      before && sameNeighbour(before.previous, previous) && sameNeighbour(before.next, next)
        ? before
        : neighbours(previous, next),
    );
  }
  return map;
}

/**
 * An entry of the map, its fields set one by one: on Node 20's V8 an object literal made of spreads
 * (`{ ...(previous && { previous }), ...(next && { next }) }`) has a hidden class of its own, one
 * per edition here, which every page's read of its neighbours then looks among.
 */
function neighbours(previous: Neighbour | undefined, next: Neighbour | undefined): Neighbours {
  const entry: Neighbours = {};
  if (previous) entry.previous = previous;
  if (next) entry.next = next;
  return entry;
}

function sameNeighbour(a: Neighbour | undefined, b: Neighbour | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && a.url === b.url && a.title === b.title);
}

/**
 * The neighbours of every edition in the order `now`, from `last`, the map of the order `before`:
 * that very map when every edition has the same neighbours (a body edit); when the two orders
 * differ only in titles (the same URLs and categories in the same places), a copy of it in which
 * the newer and older neighbours of each retitled edition name it by its new title, every other
 * entry the very one of `last`; undefined when an edition moved, came or went (see `neighbourMap`).
 * Compared by identity first: only the editions that are not the very ones of `before` are read.
 */
export function retitledNeighbours(now: Newest, before: Newest, last: NeighbourMap): NeighbourMap | undefined {
  let map: Map<string, Neighbours> | undefined;
  const moved: string[] = [];
  for (const lang of LANGUAGES) {
    const [x, y] = [now[lang], before[lang]];
    if (x === y) continue;
    if (x.length !== y.length) return undefined;
    for (let i = 0; i < x.length; i++) {
      const [e, f] = [x[i] as ArticleEdition, y[i] as ArticleEdition];
      if (e === f) continue;
      const category = e.source.category;
      if (e.url !== f.url || category !== f.source.category) return undefined;
      const title = e.source.frontMatter.title;
      if (title === f.source.frontMatter.title) continue;
      map ??= new Map(last);
      const self: Neighbour = { title, url: e.url };
      // The nearest edition of its category on each side: the newer one's previous, the older one's next.
      const newer = nearestInCategory(x, i, -1, category);
      const older = nearestInCategory(x, i, 1, category);
      if (newer) map.set(newer.url, { ...map.get(newer.url), previous: self });
      if (older) map.set(older.url, { ...map.get(older.url), next: self });
      for (const neighbour of [newer, older])
        if (neighbour) moved.push(articlePath(neighbour.source.category, neighbour.source.slug));
    }
  }
  if (!map) return last;
  movedSince.set(map, { from: last, paths: moved });
  return map;
}

/** How each map `retitledNeighbours` made differs from the one it was made from. */
const movedSince = new WeakMap<NeighbourMap, { from: NeighbourMap; paths: readonly string[] }>();

/**
 * The paths of the articles whose editions' neighbours differ between `before` and `now`, when
 * `now` was made from `before` by `retitledNeighbours` (a title edit); undefined otherwise.
 */
export function neighboursMovedSince(now: NeighbourMap, before: NeighbourMap): readonly string[] | undefined {
  const moved = movedSince.get(now);
  return moved?.from === before ? moved.paths : undefined;
}

function nearestInCategory(
  editions: readonly ArticleEdition[],
  from: number,
  step: 1 | -1,
  category: string,
): ArticleEdition | undefined {
  for (let i = from + step; i >= 0 && i < editions.length; i += step) {
    const edition = editions[i] as ArticleEdition;
    if (edition.source.category === category) return edition;
  }
  return undefined;
}
