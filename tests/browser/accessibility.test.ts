import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSite } from '../../src/build/pipeline';
import { editionUrl } from '../../src/shared/route';
import { type BrowserSession, hydrated, startBrowserSession } from '../support/browser';
import { PROJECT_ROOT } from '../support/content';
import { addAxe, axeViolations } from './axe';

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(async () => {
  await session?.close();
});

/** Every edition of every route, and the Not Found page in both languages. */
const { site } = await loadSite(PROJECT_ROOT);
const PAGES = [
  ...site!.routes.flatMap((r) => r.meta.availableLangs.map((l) => editionUrl(r, l))),
  '/nothing',
  '/pt/nada',
];
/**
 * Every page once, in the light scheme at 1280 px; and one page of each kind in each language, the
 * Not Found pages included, in the dark scheme and at 375 px: the scheme and the width change the
 * stylesheet's colours and layout, which are per kind, and the content is the first run's.
 */
const KINDS = [
  ...new Map(
    site!.routes
      .flatMap((r) => r.meta.availableLangs.map((l) => [`${r.component} ${l}`, editionUrl(r, l)] as const))
      .reverse(),
  ).values(),
  '/nothing',
  '/pt/nada',
];
const pagesFor = (width: number, scheme: 'light' | 'dark') => (width === 1280 && scheme === 'light' ? PAGES : KINDS);

describe.each([1280, 375])('axe-core at %i px', (width) => {
  it.each(['light', 'dark'] as const)(
    'finds no violation in the %s scheme: on every page at 1280 px in the light one, on each kind in either language otherwise',
    async (colorScheme) => {
      // Reduced motion: entrance animations would otherwise leave content mid-fade while axe reads colours.
      const { page } = await session.open(width, { reducedMotion: 'reduce', colorScheme });
      await addAxe(page.context());
      const violations: string[] = [];
      for (const url of pagesFor(width, colorScheme)) {
        await page.goto(session.origin + url);
        // As a reader mostly sees it: its islands hydrated (the theme switch shown, among others).
        await hydrated(page);
        for (const violation of await axeViolations(page)) violations.push(`${url}: ${violation}`);
      }
      expect(violations).toEqual([]);
      await page.context().close();
    },
    300_000,
  );
});

describe('the axe-core run', () => {
  it('reports what it is shown: text too faint to read and an image with no text alternative', async () => {
    const { page } = await session.open(1280, { reducedMotion: 'reduce' });
    await addAxe(page.context());
    await page.goto(`${session.origin}/blog`);
    await hydrated(page);
    expect(await axeViolations(page)).toEqual([]);
    await page.evaluate(() => {
      const main = document.querySelector('main') as HTMLElement;
      main.insertAdjacentHTML(
        'afterbegin',
        '<p id="faint" style="color:#ddd;background:#fff">faint</p><img id="bare" src="/media/favicon.svg">',
      );
    });
    const violations = await axeViolations(page);
    expect(violations).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^color-contrast \(serious\) #faint/),
        expect.stringMatching(/^image-alt \(critical\) #bare/),
      ]),
    );
    await page.context().close();
  });
});
