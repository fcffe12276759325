import type { Lang } from '../shared/lang';
import type { Route } from '../shared/route';
import type { InternalLink } from './links';

/** The article a link's text names instead of its target (LINK004), when there is one. */
export type TitleMatch = { title: string; path: string } | undefined;

/**
 * What a long-lived process (`site dev`) keeps from one check to the next: the work whose inputs
 * it can tell are unchanged, so that a save re-checks what the save can have affected.
 */
export interface CheckMemory {
  /** The ids of each page other than an article (which the check renders to read), by page. */
  pageIds: Map<string, { signature: string; ids: string[] }>;
  /** LINK004 answers by language, target and text, valid while every article's titles are as they were. */
  titleMatches: { titles: string; answers: Map<string, TitleMatch> };
  /** Every internal link of the site at the last full check: the links into an edited article. */
  links: readonly InternalLink[];
}

export function checkMemory(): CheckMemory {
  return { pageIds: new Map(), titleMatches: { titles: '', answers: new Map() }, links: [] };
}

export interface CheckReuse {
  memory: CheckMemory;
  /** A signature of everything a page is made from: equal signatures, equal pages. */
  signature: (route: Route, lang: Lang) => string;
}
