import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, startBrowserSession } from '../support/browser';

let withApi: BrowserSession;
let staticHost: BrowserSession;
beforeAll(async () => {
  withApi = await startBrowserSession();
  staticHost = await startBrowserSession({ api: false });
});
afterAll(async () => {
  await withApi?.close();
  await staticHost?.close();
});

describe('the blog search box', () => {
  it('searches from four characters, in a 200 px dropdown, and hides it again for shorter terms', async () => {
    const { page, problems } = await withApi.open(1280);
    const requests: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/blog_posts/search'))
        requests.push(new URL(r.url()).searchParams.get('searchWord') ?? '');
    });
    await page.goto(`${withApi.origin}/blog`);
    const input = page.locator('#search-input');
    await input.fill('doc');
    await page.waitForTimeout(500);
    expect(requests).toEqual([]);
    expect(await page.locator('#search-results').count()).toBe(0);
    await input.fill('docker');
    const results = page.locator('#search-results');
    await expect.poll(() => results.count()).toBe(1);
    expect(await results.locator('[role="option"]').first().innerText()).toContain('Docker');
    expect(await results.evaluate((el) => getComputedStyle(el).maxHeight)).toBe('200px');
    expect(await results.locator('[role="option"]').count()).toBeLessThanOrEqual(10);
    expect(requests).toEqual(['docker']);
    await input.fill('do');
    await expect.poll(() => results.count()).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('opens the first result on Enter, and the one chosen with the arrow keys', async () => {
    const { page } = await withApi.open(375);
    await page.goto(`${withApi.origin}/pt/blog`);
    const input = page.locator('#search-input');
    await input.fill('musica');
    await expect.poll(() => page.locator('#search-results [role="option"]').count()).toBeGreaterThan(1);
    const second = await page.locator('#search-results [role="option"] a').nth(1).getAttribute('href');
    await input.press('ArrowDown');
    await input.press('ArrowDown');
    expect(await page.locator('#search-results [role="option"]').nth(1).getAttribute('aria-selected')).toBe('true');
    await input.press('Enter');
    await page.waitForURL(withApi.origin + second!);
    await page.goto(`${withApi.origin}/pt/blog`);
    await page.locator('#search-input').fill('gulbenkian');
    await expect.poll(() => page.locator('#search-results [role="option"]').count()).toBeGreaterThan(0);
    await page.locator('#search-input').press('Enter');
    await page.waitForURL(`${withApi.origin}/blog/culture/gulbenkian`);
    await page.context().close();
  });

  it('never shows the answer to an older term that arrives last', async () => {
    const { page } = await withApi.open(1280);
    await page.route('**/api/blog_posts/search?*', async (route) => {
      const term = new URL(route.request().url()).searchParams.get('searchWord');
      if (term === 'apocalypse') await new Promise((r) => setTimeout(r, 1200));
      await route.continue();
    });
    await page.goto(`${withApi.origin}/blog`);
    const input = page.locator('#search-input');
    await input.fill('apocalypse');
    await expect.poll(() => page.locator('.search__spinner').count()).toBe(1);
    await input.fill('docker');
    await expect.poll(() => page.locator('#search-results [role="option"]').first().innerText()).toContain('Docker');
    await page.waitForTimeout(1500);
    expect(await page.locator('#search-results [role="option"]').first().innerText()).toContain('Docker');
    expect(await page.locator('.search__spinner').count()).toBe(0);
    await page.context().close();
  });

  it('searches in the browser, with the same results, where there is no API', async () => {
    const { page } = await staticHost.open(1280);
    await page.goto(`${staticHost.origin}/pt/blog`);
    await page.locator('#search-input').fill('musica');
    await expect.poll(() => page.locator('#search-results [role="option"]').count()).toBeGreaterThan(0);
    const local = await page
      .locator('#search-results [role="option"] a')
      .evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    const api = await fetch(`${withApi.origin}/api/blog_posts/search?searchWord=musica&language=pt`).then(
      (r) => r.json() as Promise<{ data: { endpoint: string }[] }>,
    );
    expect(local).toEqual(api.data.map((r) => r.endpoint));
    await page.context().close();
  });

  it('stops the spinner and only logs "Error searching blog posts" when nothing can answer', async () => {
    const { page, problems } = await staticHost.open(1280);
    await page.route('**/search/**', (route) => route.abort());
    await page.goto(`${staticHost.origin}/blog`);
    await page.locator('#search-input').fill('docker');
    await expect.poll(() => problems.some((p) => p.includes('Error searching blog posts'))).toBe(true);
    expect(await page.locator('.search__spinner').count()).toBe(0);
    expect(await page.locator('#search-results').count()).toBe(0);
    await page.context().close();
  });
});
