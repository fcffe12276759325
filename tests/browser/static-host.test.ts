import { createServer, type Server } from 'node:http';
import type { Browser } from 'playwright-core';
import handler from 'serve-handler';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium } from '../support/chromium';

/** dist/ on a plain static file server with extension-less URLs, as a CDN or GitHub Pages serves it. */
let server: Server;
let origin: string;
let browser: Browser;
beforeAll(async () => {
  server = createServer(
    (request, response) => void handler(request, response, { public: inject('distDir'), cleanUrls: true }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

describe('dist/ on a plain static host (no API)', () => {
  it('leads / to About Me in the remembered language, and /pt to the Portuguese one', async () => {
    const page = await browser.newPage();
    await page.goto(`${origin}/`);
    await page.waitForURL(`${origin}/aboutme`);
    await page.evaluate(() => localStorage.setItem('lang', 'pt'));
    await page.goto(`${origin}/`);
    await page.waitForURL(`${origin}/pt/aboutme`);
    await page.goto(`${origin}/pt`);
    await page.waitForURL(`${origin}/pt/aboutme`);
    await page.context().close();
  });

  it('navigates, switches language, opens a gallery photo and shows Coming soon for the counter', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${origin}/aboutme`);
    await page.locator('.toolbar__nav a[href="/blog"]').click();
    await page.waitForURL(`${origin}/blog`);
    await page.locator('.toolbar .lang-switch a[hreflang="pt"]').click();
    await page.waitForURL(`${origin}/pt/blog`);
    expect(await page.locator('h1').innerText()).toBe('Blog');
    await page.goto(`${origin}/pt/blog/gastronomy`);
    await page.locator('[data-photo-index="2"]').click();
    expect(await page.locator('#gallery-dialog').isVisible()).toBe(true);
    expect(await page.locator('.site-footer .visit-counter').innerText()).toBe('Coming soon');
    await page.context().close();
  });

  it('searches the blog in the browser', async () => {
    const page = await browser.newPage();
    await page.goto(`${origin}/blog`);
    await page.locator('#search-input').fill('docker');
    await expect
      .poll(() => page.locator('#search-results [role="option"]').count(), { timeout: 5000 })
      .toBeGreaterThan(0);
    expect(await page.locator('#search-results [role="option"] a').first().getAttribute('href')).toBe(
      '/blog/tech/docker',
    );
    await page.context().close();
  });

  it('answers an unknown path with the Not Found page and status 404', async () => {
    const page = await browser.newPage();
    const response = await page.goto(`${origin}/no/such/page`);
    expect(response?.status()).toBe(404);
    expect(await page.locator('.not-found__message').innerText()).toBe('Oh oh, it looks like there is nothing here...');
    await page.context().close();
  });
});
