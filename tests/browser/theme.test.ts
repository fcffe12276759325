import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, startBrowserSession } from '../support/browser';

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(async () => {
  await session?.close();
});

const LANGS = [
  { lang: 'en', prefix: '', name: 'Dark theme' },
  { lang: 'pt', prefix: '/pt', name: 'Tema escuro' },
] as const;

/** The page's background and text colours, as drawn. */
const colours = (page: Page) =>
  page.evaluate(() => ({
    background: getComputedStyle(document.body).backgroundColor,
    text: getComputedStyle(document.body).color,
  }));
const LIGHT = { background: 'rgb(250, 247, 242)', text: 'rgb(27, 34, 48)' };
const DARK = { background: 'rgb(15, 20, 28)', text: 'rgb(227, 231, 238)' };

/** Records the scheme chosen on <html> at the moment <body> is parsed: before anything is drawn. */
const RECORD_AT_BODY = () => {
  new MutationObserver((_, observer) => {
    if (!document.body) return;
    (window as unknown as { themeAtBody: string | null }).themeAtBody = document.documentElement.dataset.theme ?? null;
    observer.disconnect();
  }).observe(document, { childList: true, subtree: true });
};

describe.each([1280, 375])('the colour scheme at %i px', (width) => {
  describe.each(LANGS)('in $lang', ({ prefix, name }) => {
    it("follows the reader's system, light or dark", async () => {
      for (const [colorScheme, expected] of [
        ['light', LIGHT],
        ['dark', DARK],
      ] as const) {
        const { page, problems } = await session.open(width, { colorScheme });
        await page.goto(`${session.origin}${prefix}/blog/tech/docker`);
        expect(await colours(page), colorScheme).toEqual(expected);
        const toggle = page.locator('.toolbar').getByRole('button', { name, exact: true });
        await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe(String(colorScheme === 'dark'));
        expect(problems).toEqual([]);
        await page.context().close();
      }
    });

    it('switches with the toolbar toggle, is remembered with no flash of the other scheme, and switches back from the drawer', async () => {
      const { page, problems } = await session.open(width, { colorScheme: 'light' });
      await page.addInitScript(RECORD_AT_BODY);
      await page.goto(`${session.origin}${prefix}/blog`);
      const toolbarColour = () => page.locator('.toolbar').evaluate((e) => getComputedStyle(e).backgroundColor);
      const blue = await toolbarColour();
      const toggle = page.locator('.toolbar').getByRole('button', { name, exact: true });
      await toggle.click();
      expect(await colours(page)).toEqual(DARK);
      expect(await toggle.getAttribute('aria-pressed')).toBe('true');
      // The route colours keep their meaning: the Blog's toolbar is blue in both schemes.
      expect(await toolbarColour()).toBe(blue);
      await page.goto(`${session.origin}${prefix}/aboutme`);
      expect(await page.evaluate(() => (window as unknown as { themeAtBody: string | null }).themeAtBody)).toBe('dark');
      expect(await colours(page)).toEqual(DARK);
      if (width === 375) {
        await page.getByRole('button', { name: prefix ? 'Abrir menu' : 'Open menu' }).click();
        const inDrawer = page.locator('#drawer').getByRole('button', { name, exact: true });
        expect(await inDrawer.getAttribute('aria-pressed')).toBe('true');
        await inDrawer.click();
        await page.keyboard.press('Escape');
      } else {
        await page.locator('.toolbar').getByRole('button', { name, exact: true }).click();
      }
      expect(await colours(page)).toEqual(LIGHT);
      expect(
        await page.locator('.toolbar').getByRole('button', { name, exact: true }).getAttribute('aria-pressed'),
      ).toBe('false');
      // The light choice is remembered too, over a system that prefers dark.
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.reload();
      expect(await page.evaluate(() => (window as unknown as { themeAtBody: string | null }).themeAtBody)).toBe(
        'light',
      );
      expect(await colours(page)).toEqual(LIGHT);
      expect(problems).toEqual([]);
      await page.context().close();
    });
  });
});
