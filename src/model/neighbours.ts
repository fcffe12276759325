import { LANGUAGES, type Lang } from '../shared/lang';
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
    map.set(url, before && sameNeighbour(before.previous, previous) && sameNeighbour(before.next, next) ? before : { ...(previous && { previous }), ...(next && { next }) });
  }
  return map;
}

function sameNeighbour(a: Neighbour | undefined, b: Neighbour | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && a.url === b.url && a.title === b.title);
}

/**
 * Whether two orders give every edition the same neighbours: the same editions in the same
 * places, each with the same URL, category and title. The model keeps last build's map when so
 * (a body edit), and works it out again otherwise.
 */
export function sameNeighbourhood(a: Newest, b: Newest): boolean {
  if (a === b) return true;
  for (const lang of LANGUAGES) {
    const [x, y] = [a[lang], b[lang]];
    if (x === y) continue;
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) {
      const [e, f] = [x[i] as ArticleEdition, y[i] as ArticleEdition];
      if (e === f) continue;
      if (e.url !== f.url || e.source.category !== f.source.category || e.source.frontMatter.title !== f.source.frontMatter.title) return false;
    }
  }
  return true;
}
