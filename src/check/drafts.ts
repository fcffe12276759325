import { type Diagnostic, diagnostic } from '../diagnostics/diagnostic';
import { unpublished, type Waiting } from '../model/publication';
import type { Article, Site } from '../model/site';
import { type ArticleRulesMemo, byArticle } from './byArticle';
import { frontMatterPlace } from './place';

/**
 * DRAFT002: in a build that shows drafts (`site dev`, `--drafts`), a warning on each edition the
 * published site does not have yet, so the overlay lists them beside the problems.
 */
export function checkDrafts(site: Site, memo?: ArticleRulesMemo): Diagnostic[] {
  const { drafts, today } = site.publication;
  if (!drafts) return [];
  return byArticle(site, { name: 'drafts', reads: [today], judge: (article) => draftEditions(article, today) }, memo);
}

function draftEditions(article: Article, today: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const edition of Object.values(article.editions)) {
    const state = unpublished(edition.source, today);
    if (!state) continue;
    const date = state.kind === 'scheduled' ? state.date : undefined;
    out.push(
      diagnostic('DRAFT002', frontMatterPlace(edition, [date === undefined ? 'draft' : 'date']), {
        lang: edition.lang,
        date,
      }),
    );
  }
  return out;
}

const signatures = new WeakMap<ReadonlyMap<string, Waiting>, string>();

/**
 * The editions that wait (`Site.waiting`) as one string: what an edition's link findings depend on
 * of them. Worked out once per map.
 */
export function waitingSignature(site: Site): string {
  let signature = signatures.get(site.waiting);
  if (signature === undefined) {
    signature = '';
    for (const [key, { date }] of site.waiting) signature += `${key} ${date ?? 'draft'}\n`;
    signatures.set(site.waiting, signature);
  }
  return signature;
}
