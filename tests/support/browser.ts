import type { FastifyInstance } from 'fastify';
import type { Browser, BrowserContextOptions, ConsoleMessage, Page } from 'playwright-core';
import { inject } from 'vitest';
import { buildApp } from '../../server/app';
import { openSqliteStore } from '../../server/storage/sqlite';
import { launchChromium } from './chromium';

/** The built real content (or another build, `distDir`) served on a loopback port, and one Chromium for a test file. */
export interface BrowserSession {
  origin: string;
  /** A fresh page at a width; `problems` collects console errors, warnings and uncaught errors. */
  open(
    width: number,
    options?: BrowserContextOptions & { height?: number },
  ): Promise<{ page: Page; problems: string[] }>;
  close(): Promise<void>;
}

export async function startBrowserSession(options: { api?: boolean; distDir?: string } = {}): Promise<BrowserSession> {
  // With the API by default (an in-memory store), as `site serve` runs; without it, as a static host.
  const store = options.api === false ? undefined : openSqliteStore(':memory:');
  const app: FastifyInstance = await buildApp({
    distDir: options.distDir ?? inject('distDir'),
    ...(store ? { store, rateLimit: { max: 10_000, timeWindow: 60_000 } } : {}),
  });
  const origin = await app.listen({ port: 0, host: '127.0.0.1' });
  const browser: Browser = await launchChromium();
  return {
    origin,
    async open(width, options = {}) {
      const { height = 900, ...rest } = options;
      const context = await browser.newContext({ viewport: { width, height }, ...rest });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (message: ConsoleMessage) => {
        if (message.type() === 'error' || message.type() === 'warning')
          problems.push(`${message.type()}: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
      return { page, problems };
    },
    async close() {
      await browser.close();
      await app.close();
      await store?.close();
    },
  };
}

/**
 * Waits until every island of the page is hydrated (`data-hydrated` on its root element): React's
 * chunk is requested after the page's load event, which `page.goto` waits for by default.
 */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
}
