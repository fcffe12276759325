import { type Diagnostic, diagnostic } from '../diagnostics/diagnostic';
import { unpublished } from '../model/publication';
import type { Site } from '../model/site';
import type { Lang } from '../shared/lang';
import { articlePath } from '../shared/route';
import { frontMatterPlace } from './place';

/** An article edition the published site does not have yet: a draft (no date) or scheduled for `date`. */
export interface Waiting {
  date?: string;
}

const known = new WeakMap<Site, ReadonlyMap<string, Waiting>>();

/** The key of an edition in `waitingEditions`. */
export const waitingKey = (lang: Lang, path: string) => `${lang} ${path}`;

/**
 * Every article edition the published site does not have, by `waitingKey`: those this build holds
 * back, and, when it shows drafts (`site dev`), the drafts and scheduled ones it shows. Worked out
 * once per site model.
 */
export function waitingEditions(site: Site): ReadonlyMap<string, Waiting> {
  let waiting = known.get(site);
  if (waiting) return waiting;
  const map = new Map<string, Waiting>();
  const add = (lang: Lang, path: string, state: ReturnType<typeof unpublished>) => {
    if (state) map.set(waitingKey(lang, path), state.kind === 'scheduled' ? { date: state.date } : {});
  };
  for (const { source, state } of site.held) add(source.lang, articlePath(source.category, source.slug), state);
  if (site.publication.drafts) {
    for (const article of site.articles) {
      for (const edition of Object.values(article.editions)) add(edition.lang, article.route.path, unpublished(edition.source, site.publication.today));
    }
  }
  waiting = map;
  known.set(site, waiting);
  return waiting;
}

/**
 * DRAFT002: in a build that shows drafts (`site dev`, `--drafts`), a warning on each edition the
 * published site does not have yet, so the overlay lists them beside the problems.
 */
export function checkDrafts(site: Site): Diagnostic[] {
  if (!site.publication.drafts) return [];
  const out: Diagnostic[] = [];
  for (const article of site.articles) {
    for (const edition of Object.values(article.editions)) {
      const state = unpublished(edition.source, site.publication.today);
      if (!state) continue;
      const date = state.kind === 'scheduled' ? state.date : undefined;
      out.push(diagnostic('DRAFT002', frontMatterPlace(edition, [date === undefined ? 'draft' : 'date']), { lang: edition.lang, date }));
    }
  }
  return out;
}

const signatures = new WeakMap<ReadonlyMap<string, Waiting>, string>();

/** The editions that wait (`waitingEditions`) as one string: what an edition's link findings depend on of them. Worked out once per site model. */
export function waitingSignature(site: Site): string {
  const waiting = waitingEditions(site);
  let signature = signatures.get(waiting);
  if (signature === undefined) {
    signature = '';
    for (const [key, { date }] of waiting) signature += `${key} ${date ?? 'draft'}\n`;
    signatures.set(waiting, signature);
  }
  return signature;
}
