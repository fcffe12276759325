import { describe, expect, it } from 'vitest';
import { loadSite } from '../../../src/build/pipeline';
import { planPages, planPagesButArticles, siteHashes } from '../../../src/render/plan';
import { PROJECT_ROOT } from '../../support/content';

const { site } = await loadSite(PROJECT_ROOT);

describe('planPagesButArticles', () => {
  it("plans every page but the articles' exactly as planPages does, so a check finds the ids a build kept", () => {
    if (!site) throw new Error('the real content did not load');
    const hashes = siteHashes(site);
    const basis = { code: 'code', look: 'look', cards: { code: 'cards', look: 'ink', host: 'example.org' } };
    const shown = (plans: ReturnType<typeof planPages>) =>
      plans.map(({ file, kind, lang, inputs }) => ({ file, kind, lang, inputs }));
    const all = planPages(site, hashes, basis);
    const some = planPagesButArticles(site, hashes, basis);
    expect(shown(some)).toEqual(shown(all.filter((plan) => plan.kind !== 'article')));
    // The real site has pages of each other kind, and the Not Found page in each language.
    expect(new Set(some.map((plan) => plan.kind))).toEqual(
      new Set(['aboutme', 'professional', 'projects', 'atelier', 'blog', 'category', 'gallery', 'notfound']),
    );
  });
});
