import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { launchChromium } from '../support/chromium';
import { PROJECT_ROOT } from '../support/content';
import { listen, startDev } from '../support/dev';
import { settle } from './dev';
import { type Stats, stats } from './measure';

// The functions handed to page.waitForFunction() run in the tab: the one DOM global they read,
// declared for this file alone (the Node root has no DOM, and run.ts imports this file).
declare const document: { readyState: string; body: { innerText: string } | null };

export interface BrowserFigures {
  /** The page open in the tab, and the file saved. */
  page: string;
  file: string;
  /** From writing the file to the new text being in the open tab's document, per edit. */
  saveToVisibleMs: Stats;
  edits: number;
}

/**
 * `site dev` on `siteRoot` (a copy of the real content) with the page open in headless Chromium,
 * as the owner works: the article's file is saved with a new paragraph, and the time runs until
 * the tab, reloaded by the dev client, shows it. Loopback only.
 */
export async function browserFigures(
  siteRoot: string,
  pageUrl: string,
  file: string,
  edits = 7,
): Promise<BrowserFigures> {
  const absolute = path.join(siteRoot, file);
  const original = await readFile(absolute, 'utf8');
  const dev = await startDev(PROJECT_ROOT, siteRoot);
  // A listener of our own on the event stream, only to tell when the builds after a save are done.
  const events = await listen(`${dev.origin}/__dev/events`);
  const browser = await launchChromium();
  const samples: number[] = [];
  try {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await page.goto(`${dev.origin}${pageUrl}`);
    await page.waitForFunction(() => document.readyState === 'complete');
    for (let edit = 1; edit <= edits; edit++) {
      await settle(events, 3000);
      const marker = `Edit ${edit}, seen in the browser.`;
      const saved = performance.now();
      await writeFile(absolute, original.replace(/\n\n/, `\n\n${marker}\n\n`));
      await page.waitForFunction((text) => document.body?.innerText.includes(text), marker, { timeout: 60_000 });
      samples.push(performance.now() - saved);
    }
  } finally {
    await browser.close();
    events.close();
    await dev.stop();
    await writeFile(absolute, original);
  }
  return { page: pageUrl, file, saveToVisibleMs: stats(samples), edits };
}
