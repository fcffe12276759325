import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, hydrated, startBrowserSession } from '../support/browser';

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

const colour = (page: Page) => page.locator('.newsletter__message').evaluate((el) => getComputedStyle(el).color);
const RED = 'rgb(255, 138, 128)';
const GREEN = 'rgb(155, 231, 166)';

describe.each([
  { lang: 'en', path: '/blog', invalid: 'Invalid request.' },
  { lang: 'pt', path: '/pt/blog', invalid: 'Pedido inválido.' },
] as const)('the footer in $lang', ({ lang, path, invalid }) => {
  it('shows the visit count from the API, after counting this visit', async () => {
    const { page, problems } = await withApi.open(375);
    await page.goto(withApi.origin + path);
    await expect.poll(() => page.locator('.site-footer .visit-counter').innerText()).toMatch(/^\d[\d\s.,]*$/);
    const first = Number((await page.locator('.site-footer .visit-counter').innerText()).replace(/\D/g, ''));
    await page.reload();
    await expect
      .poll(async () => Number((await page.locator('.site-footer .visit-counter').innerText()).replace(/\D/g, '')))
      .toBe(first + 1);
    await page.locator('.menu-button').click();
    expect(await page.locator('#drawer .visit-counter').innerText()).toBe(
      await page.locator('.site-footer .visit-counter').innerText(),
    );
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("signs up, showing the server's text (check your inbox) in light green", async () => {
    const { page } = await withApi.open(1280);
    await page.goto(withApi.origin + path);
    await page.locator('#newsletter-email').fill(`reader-${lang}@example.com`);
    await page.locator('.newsletter__form button').click();
    await expect
      .poll(() => page.locator('.newsletter__message').innerText())
      .toContain(lang === 'en' ? 'check your inbox' : 'vê o teu e-mail');
    expect(await colour(page)).toBe(GREEN);
    await page.context().close();
  });

  it("shows the server's text in red when success is not true, and sends nothing for an empty field", async () => {
    const { page } = await withApi.open(1280);
    const requests: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/newsletter')) requests.push(r.url());
    });
    await page.goto(withApi.origin + path);
    // Hydrated first: a click before then would be held until it is, and the wait below would prove nothing.
    await hydrated(page);
    await page.locator('.newsletter__form button').click();
    await page.waitForTimeout(200);
    expect(requests).toEqual([]);
    // Nothing shown (docs/product.md, Input rules): only a screen reader hears what to do
    // (tests/browser/visitors.test.ts).
    expect(await page.locator('.newsletter__message > :not(.visually-hidden)').count()).toBe(0);
    expect(
      await page
        .locator('.newsletter__message')
        .evaluate(
          (el) => [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE && n.textContent !== '').length,
        ),
    ).toBe(0);
    await page.locator('#newsletter-email').fill('not-an-address');
    await page.locator('.newsletter__form button').click();
    await expect
      .poll(() => page.locator('.newsletter__message').innerText())
      .toContain(lang === 'en' ? 'does not look right' : 'não parece correto');
    expect(await colour(page)).toBe(RED);
    await page.context().close();
  });

  it(`shows '${invalid}' in red when the API fails, and 'Coming soon' where there is no API`, async () => {
    const { page } = await staticHost.open(1280);
    await page.goto(staticHost.origin + path);
    await page.locator('#newsletter-email').fill('someone@example.com');
    await page.locator('.newsletter__form button').click();
    await expect.poll(() => page.locator('.newsletter__message').innerText()).toBe(invalid);
    expect(await colour(page)).toBe(RED);
    expect(await page.locator('.site-footer .visit-counter').innerText()).toBe('Coming soon');
    await page.context().close();
  });
});
