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
/**
 * Every page once, in the light scheme at 1280 px; and one page of each kind in each language, the
 * Not Found pages included, in the dark scheme and at 375 px: the scheme and the width change the
 * stylesheet's colours and layout, which are per kind, and the content is the first run's.
 */
const KINDS = [...new Map(site!.routes.flatMap((r) => r.meta.availableLangs.map((l) => [`${r.component} ${l}`, editionUrl(r, l)] as const)).reverse()).values(), '/nothing', '/pt/nada'];
const pagesFor = (width: number, scheme: 'light' | 'dark') => (width === 1280 && scheme === 'light' ? PAGES : KINDS);

describe.each([1280, 375])('axe-core at %i px', (width) => {
  it.each(['light', 'dark'] as const)(
    'finds no violation in the %s scheme: on every page at 1280 px in the light one, on each kind in either language otherwise',
    async (colorScheme) => {
      // Reduced motion: entrance animations would otherwise leave content mid-fade while axe reads colours.
      const { page } = await session.open(width, { reducedMotion: 'reduce', colorScheme });
      const violations: string[] = [];
      for (const url of pagesFor(width, colorScheme)) {
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
    },
    300_000,
  );
});
