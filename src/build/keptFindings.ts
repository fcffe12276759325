import type { EditionFindings } from '../check/editions';
import type { MemoCodec } from './memo';

/** What the checks memo keeps for an edition: its findings, and the key of the titles they read (`fine`). */
export interface KeptFindings {
  fine: string;
  findings: EditionFindings;
}

/** The findings of an edition in which the rules found nothing, as every such edition read from the cache shares them. */
const NOTHING: EditionFindings = Object.freeze({
  links: Object.freeze([]) as unknown as EditionFindings['links'],
  ids: Object.freeze([]) as unknown as EditionFindings['ids'],
  assets: Object.freeze([]) as unknown as EditionFindings['assets'],
  headings: Object.freeze([]) as unknown as EditionFindings['headings'],
  register: Object.freeze({
    title: Object.freeze([]) as unknown as EditionFindings['register']['title'],
    description: Object.freeze([]) as unknown as EditionFindings['register']['description'],
  }),
});

function foundNothing({ links, ids, assets, headings, register }: EditionFindings): boolean {
  return (
    links.length +
      ids.length +
      assets.length +
      headings.length +
      register.title.length +
      register.description.length ===
    0
  );
}

/**
 * The checks memo writes an edition in which the rules found nothing (nearly every one) as its
 * `fine` key alone, not as seven empty lists and objects: a site's thousands of them were read
 * back and made again as objects on every build. They are read back as one shared, frozen value.
 */
export const keptFindings: MemoCodec<KeptFindings> = {
  write: (kept) => (foundNothing(kept.findings) ? kept.fine : kept),
  read: (stored) => (typeof stored === 'string' ? { fine: stored, findings: NOTHING } : (stored as KeptFindings)),
};
