import { describe, expect, it } from 'vitest';
import { loadSite } from '../../../src/build/pipeline';
import { checkSite } from '../../../src/check/check';
import { PROJECT_ROOT } from '../../support/content';

describe('checkSite', () => {
  it('reports a rule that fails as INTERNAL001, and the other rules still report', async () => {
    const { site } = await loadSite(PROJECT_ROOT);
    if (!site) throw new Error('the real content does not load');
    // A model the translation rule did not foresee (no UI strings at all), and no media files.
    const broken = { ...site, content: { ...site.content, strings: undefined as never } };
    const diagnostics = checkSite(broken, new Set(), () => []);
    const internal = diagnostics.filter((d) => d.code === 'INTERNAL001').map((d) => d.message);
    expect(internal).toContainEqual(expect.stringMatching(/^the translations check failed: /));
    expect(internal.every((m) => m.includes('skipToContent'))).toBe(true);
    expect(diagnostics.some((d) => d.code === 'ASSET001')).toBe(true);
  });
});
