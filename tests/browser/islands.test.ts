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
const url = (path: string) => session.origin + path;

/** React's production build points its errors to react.dev: the chunk that holds it says so. */
const isReact = (source: string) => source.includes('react.dev/errors');

/**
 * Holds the chunk with React and the islands for `ms`, as a slow connection would: what a reader
 * does meanwhile must not be lost.
 */
async function slowIslands(page: Page, ms: number): Promise<void> {
  await page.route(/\/assets\/[^/]+\.js$/, async (route) => {
    const response = await route.fetch();
    const body = await response.body();
    if (isReact(body.toString('utf8'))) await new Promise((resolve) => setTimeout(resolve, ms));
    await route.fulfill({ response, body });
  });
}

/** The page's scripts, with when each was requested and whether the load event had fired by then. */
async function scriptTimings(page: Page): Promise<Array<{ path: string; afterLoad: boolean }>> {
  return page.evaluate(() => {
    const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    return performance
      .getEntriesByType('resource')
      .map((entry) => ({ path: new URL(entry.name).pathname, start: entry.startTime }))
      .filter((entry) => /^\/assets\/[^/]+\.js$/.test(entry.path))
      .map((entry) => ({
        path: entry.path,
        afterLoad: navigation.loadEventStart > 0 && entry.start >= navigation.loadEventStart,
      }));
  });
}

describe('React and the islands come after the page', () => {
  for (const [width, path] of [
    [1280, '/aboutme'],
    [375, '/pt/blog/gastronomy'],
  ] as const) {
    it(`are requested only once the page has loaded, and its start-up script is free of React (${path}, ${width} px)`, async () => {
      const { page, problems } = await session.open(width);
      await page.goto(url(path));
      await expect.poll(async () => (await scriptTimings(page)).some((s) => s.afterLoad)).toBe(true);
      const scripts = await scriptTimings(page);
      const sources = await Promise.all(scripts.map(async (s) => (await page.request.get(url(s.path))).text()));
      const react = scripts.filter((_, i) => isReact(sources[i] ?? ''));
      expect(react.length).toBe(1);
      expect(react[0]?.afterLoad).toBe(true);
      expect(scripts.filter((s) => !s.afterLoad).length).toBeGreaterThan(0);
      // Hydrated: the toolbar's theme toggle works.
      const toggle = page.locator('.toolbar button[aria-pressed]').first();
      await toggle.click();
      await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('true');
      expect(problems).toEqual([]);
      await page.context().close();
    });
  }

  it('moves nothing in the toolbar when they come: the theme switch kept its place (375 px, dark)', async () => {
    const { page, problems } = await session.open(375, { colorScheme: 'dark' });
    await slowIslands(page, 1000);
    await page.goto(url('/pt/blog'));
    const places = () =>
      page.evaluate(() =>
        [...document.querySelectorAll('.toolbar a, .toolbar button')]
          .filter((e) => !e.closest('#drawer'))
          .map((e) => `${e.className} ${Math.round(e.getBoundingClientRect().x)}`),
      );
    const before = await places();
    const toggle = page.locator('.toolbar .theme-toggle:not(.theme-toggle--labelled)');
    expect(await toggle.isVisible()).toBe(false);
    expect(await page.locator('html[data-hydrated]').count()).toBe(0);
    await page.waitForSelector('html[data-hydrated]', { state: 'attached', timeout: 5000 });
    expect(await toggle.isVisible()).toBe(true);
    expect(await places()).toEqual(before);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

describe('what a reader does before the islands are hydrated', () => {
  for (const path of ['/blog', '/pt/blog']) {
    it(`a tap on the menu button opens the drawer once they are, not before and not twice (${path}, 375 px)`, async () => {
      const { page, problems } = await session.open(375, { height: 740 });
      await slowIslands(page, 1000);
      await page.goto(url(path));
      await page.locator('.menu-button').click();
      expect(await page.locator('#drawer').isVisible()).toBe(false);
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.className), { timeout: 5000 })
        .toBe('drawer__close');
      // Given once: a second, replayed tap would have closed it again.
      await page.waitForTimeout(300);
      expect(await page.locator('#drawer').isVisible()).toBe(true);
      expect(problems).toEqual([]);
      await page.context().close();
    });
  }

  it('a language flag, a link, is followed at once, and the language it chose is remembered', async () => {
    const { page, problems } = await session.open(1280);
    await slowIslands(page, 3000);
    await page.goto(url('/blog'));
    const started = Date.now();
    await page.locator('.toolbar a.lang-switch__item[hreflang="pt"]').click();
    await page.waitForURL(url('/pt/blog'));
    expect(Date.now() - started).toBeLessThan(2500);
    // The site's root sends a reader to the About Me of the language last chosen.
    await page.goto(url('/'));
    await page.waitForURL(url('/pt/aboutme'));
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('words typed in the blog search are searched once they are', async () => {
    const { page, problems } = await session.open(1280);
    await slowIslands(page, 1000);
    await page.goto(url('/blog'));
    await page.locator('#search-input').pressSequentially('docker', { delay: 20 });
    expect(await page.locator('#search-results').count()).toBe(0);
    await expect
      .poll(() => page.locator('#search-results [role="option"]').count(), { timeout: 5000 })
      .toBeGreaterThan(0);
    expect(await page.locator('#search-input').inputValue()).toBe('docker');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('a newsletter sign-up is sent by the island once they are, never posted by the browser (375 px, pt)', async () => {
    const { page, problems } = await session.open(375);
    await slowIslands(page, 2000);
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/newsletter'))
        posts.push(request.headers()['content-type'] ?? '');
    });
    await page.goto(url('/pt/projects'));
    await page.locator('#newsletter-email').fill('early@example.com');
    await page.locator('#newsletter-email').press('Enter');
    const message = page.locator('.newsletter__message');
    await expect.poll(() => message.innerText(), { timeout: 6000 }).not.toBe('');
    expect(await message.getAttribute('class')).toContain('newsletter__message--success');
    expect(new URL(page.url()).pathname).toBe('/pt/projects');
    expect(posts).toEqual(['application/json']);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
