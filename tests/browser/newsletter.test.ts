import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { simpleParser } from 'mailparser';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../server/app';
import { openPostman } from '../../server/newsletter/postman';
import { Tokens } from '../../server/newsletter/tokens';
import { openSqliteStore } from '../../server/storage/sqlite';
import type { SiteStore } from '../../server/storage/store';
import type { Lang } from '../../src/shared/lang';
import { hydrated } from '../support/browser';
import { launchChromium } from '../support/chromium';
import { PROJECT_ROOT } from '../support/content';
import { addAxe, axeViolations } from './axe';

/** Where the screenshots go (SCREENSHOTS=dir keeps them for a look; a temporary folder otherwise). */
let shots: string;
let outbox: string;
let app: FastifyInstance;
let store: SiteStore;
let browser: Browser;
let origin: string;
let secret: string;

beforeAll(async () => {
  outbox = await mkdtemp(path.join(os.tmpdir(), 'site-newsletter-browser-'));
  shots = process.env.SCREENSHOTS ?? path.join(outbox, 'shots');
  await mkdir(shots, { recursive: true });
  store = openSqliteStore(':memory:', () => undefined);
  const postman = openPostman({ outboxDir: outbox, from: 'Duarte Salgueiro <newsletter@example.com>' });
  app = await buildApp({
    distDir: inject('distDir'),
    store,
    rateLimit: { max: 10_000, timeWindow: 60_000 },
    newsletter: { postman, baseUrl: 'https://example.com', root: PROJECT_ROOT },
  });
  origin = await app.listen({ port: 0, host: '127.0.0.1' });
  secret = await store.newsletter.setting('token_secret', 'unused');
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await store?.close();
  if (!process.env.SCREENSHOTS) await rm(outbox, { recursive: true, force: true });
});

/** Signs an address up through the API and returns the confirmation e-mail written to the outbox. */
async function signUp(email: string, language: Lang) {
  const before = new Set(await readdir(outbox));
  const response = await fetch(`${origin}/api/newsletter`, {
    method: 'POST',
    headers: { cookie: 'XSRF-TOKEN=t', 'x-xsrf-token': 't', 'content-type': 'application/json' },
    body: JSON.stringify({ email, language }),
  });
  expect(response.status).toBe(200);
  for (let i = 0; i < 100; i++) {
    const added = (await readdir(outbox)).filter((f) => f.endsWith('.eml') && !before.has(f));
    if (added.length > 0) return simpleParser(await readFile(path.join(outbox, added[0]!)));
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no confirmation e-mail for ${email}`);
}

const pagePath = (link: string) => {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
};

describe.each(['en', 'pt'] as const)('the newsletter pages in %s', (lang) => {
  it.each([1280, 375])(
    'pass axe and look right at %i px in both schemes: confirm, confirmed, unsubscribe, unsubscribed, bad link',
    async (width) => {
      const violations: string[] = [];
      for (const colorScheme of ['light', 'dark'] as const) {
        const mail = await signUp(`reader-${lang}-${width}-${colorScheme}@example.com`, lang);
        const link = /https:\/\/example\.com\S*\/newsletter\/confirm\?token=\S+/.exec(mail.text ?? '')![0];
        const context = await browser.newContext({
          viewport: { width, height: 900 },
          colorScheme,
          reducedMotion: 'reduce',
        });
        await addAxe(context);
        const page = await context.newPage();
        const look = async (name: string) => {
          await hydrated(page);
          for (const v of await axeViolations(page)) violations.push(`${name}: ${v}`);
          // Nothing wider than the screen.
          expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), name).toBe(true);
          await page.screenshot({
            path: path.join(shots, `${name}-${lang}-${width}-${colorScheme}.png`),
            fullPage: false,
          });
        };
        await page.goto(origin + pagePath(link));
        await look('confirm');
        await expect
          .poll(() => page.locator('main h1').innerText())
          .toBe(lang === 'en' ? 'Confirm your subscription' : 'Confirma a tua subscrição');
        await page.locator('main form button').click();
        await page.waitForLoadState();
        expect(await page.locator('main h1').innerText()).toBe(
          lang === 'en' ? 'You are subscribed' : 'Subscrição confirmada',
        );
        await look('confirmed');
        const id = Number(new URL(link).searchParams.get('token')!.split('.')[0]);
        await page.goto(
          `${origin}${lang === 'pt' ? '/pt' : ''}/newsletter/unsubscribe?token=${new Tokens(secret).sign('leave', id)}`,
        );
        await look('unsubscribe');
        await page.locator('main form button').click();
        await page.waitForLoadState();
        expect(await page.locator('main h1').innerText()).toBe(
          lang === 'en' ? 'You are unsubscribed' : 'Subscrição cancelada',
        );
        await look('unsubscribed');
        await page.goto(`${origin}${lang === 'pt' ? '/pt' : ''}/newsletter/confirm?token=1.AAAAAAAAAAAAAAAAAAAAAA`);
        await look('badlink');
        // The footer's sign-up answer on this page, as on any other.
        await page.locator('#newsletter-email').fill(`again-${lang}-${width}-${colorScheme}@example.com`);
        await page.locator('.newsletter__form button').click();
        await expect
          .poll(() => page.locator('.newsletter__message').innerText())
          .toContain(lang === 'en' ? 'check your inbox' : 'vê o teu e-mail');
        await look('footer-answer');
        // The e-mail itself, as a mail program would show its HTML part.
        await page.setContent(mail.html || '');
        await page.screenshot({
          path: path.join(shots, `email-confirm-${lang}-${width}-${colorScheme}.png`),
          fullPage: true,
        });
        await context.close();
      }
      expect(violations).toEqual([]);
    },
    120_000,
  );
});
