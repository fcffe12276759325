import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, hydrated, startBrowserSession } from '../support/browser';

let session: BrowserSession;
let origin: string;
beforeAll(async () => {
  session = await startBrowserSession();
  origin = session.origin;
});
afterAll(async () => {
  await session?.close();
});

const open = (width: number, height?: number) => session.open(width, height ? { height } : {});

const EDITIONS = [
  '/aboutme',
  '/pt/aboutme',
  '/professional',
  '/pt/professional',
  '/projects',
  '/pt/projects',
  '/atelier',
  '/pt/atelier',
  '/blog',
  '/pt/blog',
  '/blog/tech',
  '/pt/blog/tech',
  '/blog/gastronomy',
  '/pt/blog/photos',
  '/blog/tech/Site',
  '/pt/blog/tech/Site',
  '/blog/culture/gulbenkian',
  '/blog/books/DangerousLiaisons',
  '/pt/blog/books/DangerousLiaisons',
];

describe('pages in Chromium', () => {
  it('hydrate every island without a console error or warning, at desktop and mobile widths', async () => {
    for (const width of [1280, 375]) {
      const { page, problems } = await open(width);
      for (const url of EDITIONS) {
        await page.goto(origin + url, { waitUntil: 'load' });
        // Every island hydrated (React's chunk comes after the page has loaded): a mismatch would have been logged.
        await hydrated(page);
        expect(problems, `${url} at ${width}px`).toEqual([]);
      }
      await page.context().close();
    }
  });

  it('switches to the other edition of the same page with the flags and remembers the choice', async () => {
    const { page } = await open(1280);
    await page.goto(`${origin}/blog/tech/Site`);
    await page.locator('.toolbar .lang-switch a[hreflang="pt"]').click();
    await page.waitForURL(`${origin}/pt/blog/tech/Site`);
    expect(await page.getAttribute('html', 'lang')).toBe('pt');
    await page.goto(`${origin}/`);
    await page.waitForURL(`${origin}/pt/aboutme`);
    await page.context().close();
  });

  it('shows the warning in the target language, and stays, when the page lacks that language', async () => {
    const { page } = await open(1280);
    await page.goto(`${origin}/blog/culture/gulbenkian`);
    await page.locator('.toolbar .lang-switch button[lang="en"]').click();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.innerText()).toContain('Warning');
    expect(await alert.innerText()).toContain('This page is not available in English yet');
    expect(page.url()).toBe(`${origin}/blog/culture/gulbenkian`);
    await page.context().close();
  });

  it('opens the mobile drawer with page scrolling locked, and restores it on close', async () => {
    const { page } = await open(375, 740);
    await page.goto(`${origin}/pt/blog`);
    await expect.poll(() => page.locator('.menu-button').isVisible()).toBe(true);
    expect(await page.locator('.toolbar__nav').isVisible()).toBe(false);
    await page.locator('.menu-button').click();
    const drawer = page.locator('#drawer');
    await expect.poll(() => drawer.getAttribute('aria-hidden')).toBe('false');
    expect(await page.evaluate(() => document.body.style.overflow)).toBe('hidden');
    expect(await drawer.innerText()).toContain('Encontra-me online');
    expect(await drawer.innerText()).toContain('Projetos');
    await page.keyboard.press('Escape');
    await expect.poll(() => drawer.getAttribute('aria-hidden')).toBe('true');
    expect(await page.evaluate(() => document.body.style.overflow)).toBe('');
    await page.context().close();
  });

  it('shows the centred Not Found message for an unknown path', async () => {
    const { page } = await open(1280);
    const response = await page.goto(`${origin}/pt/nada`);
    expect(response?.status()).toBe(404);
    const message = page.locator('.not-found__message');
    expect(await message.innerText()).toBe('Oops, parece que não há nada aqui...');
    expect(await message.evaluate((el) => getComputedStyle(el.parentElement!).alignItems)).toBe('center');
    await page.context().close();
  });
});
