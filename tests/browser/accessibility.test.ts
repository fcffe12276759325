import { AxeBuilder } from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserSession, type BrowserSession } from '../support/browser';

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(async () => {
  await session?.close();
});

/** One page of each kind, in both languages. */
const PAGES = ['/aboutme', '/pt/aboutme', '/professional', '/pt/professional', '/projects', '/pt/projects', '/atelier', '/pt/atelier',
  '/blog', '/pt/blog', '/blog/tech', '/pt/blog/culture', '/blog/gastronomy', '/pt/blog/photos', '/blog/tech/Site', '/pt/blog/tech/Site',
  '/blog/culture/gulbenkian', '/pt/blog/books/DangerousLiaisons', '/nothing', '/pt/nada'];

describe.each([1280, 375])('axe-core at %i px', (width) => {
  it('finds no violation on any page kind, in either language', async () => {
    // Reduced motion: entrance animations would otherwise leave content mid-fade while axe reads colours.
    const { page } = await session.open(width, { reducedMotion: 'reduce' });
    const violations: string[] = [];
    for (const url of PAGES) {
      await page.goto(session.origin + url);
      const result = await new AxeBuilder({ page }).analyze();
      for (const v of result.violations) violations.push(`${url}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
    }
    expect(violations).toEqual([]);
    await page.context().close();
  }, 120_000);
});
