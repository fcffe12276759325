import { AxeBuilder } from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSite } from '../../src/build/pipeline';
import { editionUrl } from '../../src/shared/route';
import { type BrowserSession, startBrowserSession } from '../support/browser';
import { PROJECT_ROOT } from '../support/content';

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(async () => {
  await session?.close();
});

/** Every edition of every route, and the Not Found page in both languages. */
const { site } = await loadSite(PROJECT_ROOT);
const PAGES = [...site!.routes.flatMap((r) => r.meta.availableLangs.map((l) => editionUrl(r, l))), '/nothing', '/pt/nada'];

describe.each([1280, 375])('axe-core at %i px', (width) => {
  it(`finds no violation on any of the ${PAGES.length} pages, in either language`, async () => {
    // Reduced motion: entrance animations would otherwise leave content mid-fade while axe reads colours.
    const { page } = await session.open(width, { reducedMotion: 'reduce' });
    const violations: string[] = [];
    for (const url of PAGES) {
      await page.goto(session.origin + url);
      const result = await new AxeBuilder({ page }).analyze();
      for (const v of result.violations)
        violations.push(
          `${url}: ${v.id} (${v.impact}) ${v.nodes
            .map((n) => n.target.join(' '))
            .slice(0, 3)
            .join(', ')}`,
        );
    }
    expect(violations).toEqual([]);
    await page.context().close();
  }, 300_000);
});
