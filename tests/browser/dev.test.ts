import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/chromium';
import { type RunningDev, startDev } from '../support/dev';
import { copyOfTool } from '../support/tool';

const run = promisify(execFile);

/** An open tab of `site dev`: the owner edits files on disk and the page follows by itself. */
describe('site dev in the browser', () => {
  let root: string;
  let cleanup: () => Promise<void>;
  let dev: RunningDev;
  let browser: Browser;
  let page: Page;
  const article = 'content/blog/books/DangerousLiaisons.en.md';

  const edit = async (relative: string, change: (text: string) => string) => {
    const absolute = path.join(root, relative);
    await writeFile(absolute, change(await readFile(absolute, 'utf8')));
  };

  beforeAll(async () => {
    ({ root, cleanup } = await copyOfTool());
    // A long article, so that there is a scroll position to keep, with a code block, to which the
    // page's script adds a copy button.
    await edit(
      article,
      (t) =>
        `${t}\n${Array.from({ length: 40 }, (_, i) => `Paragraph ${i + 1} of the letters.`).join('\n\n')}\n\n\`\`\`bash\necho letters\n\`\`\`\n`,
    );
    dev = await startDev(root, root);
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 700 } })).newPage();
    await page.goto(`${dev.origin}/blog/books/DangerousLiaisons`);
    await page.waitForFunction(() => document.readyState === 'complete');
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await dev?.stop();
    await cleanup();
  });

  it('shows the new text of a saved article without any action, at the same scroll position, in place', async () => {
    await page.evaluate(() => scrollTo(0, 900));
    await page.waitForFunction(() => Math.abs(scrollY - 900) < 2);
    await page.evaluate(() => Object.assign(window, { devTestMarker: 'not reloaded' }));
    await edit(article, (t) =>
      t.replace('Paragraph 1 of the letters.', 'Paragraph 1, rewritten while the page was open.'),
    );
    await page.waitForFunction(
      () => document.body.innerText.includes('Paragraph 1, rewritten while the page was open.'),
      undefined,
      { timeout: 20_000 },
    );
    await page.waitForFunction(() => Math.abs(scrollY - 900) < 2, undefined, { timeout: 5000 });
    // Only the markdown text changed: it was put in place, and the page was not loaded again.
    expect(await page.evaluate(() => (window as unknown as { devTestMarker?: string }).devTestMarker)).toBe(
      'not reloaded',
    );
    // The new code block has its copy button, once.
    await page.waitForFunction(() => document.querySelectorAll('.code-block__copy').length === 1, undefined, {
      timeout: 5000,
    });
  });

  it('reloads the page when more than its markdown text changed (a new title), at the same scroll position', async () => {
    await page.evaluate(() => Object.assign(window, { devTestMarker: 'not reloaded' }));
    await edit(article, (t) => t.replace(/^title: .*$/m, 'title: Letters, retitled while open'));
    await page.waitForFunction(() => document.title.includes('Letters, retitled while open'), undefined, {
      timeout: 20_000,
    });
    expect(await page.evaluate(() => (window as unknown as { devTestMarker?: string }).devTestMarker)).toBeUndefined();
    await page.waitForFunction(() => Math.abs(scrollY - 900) < 2, undefined, { timeout: 5000 });
    // After a reload, text edits are put in place again.
    await page.evaluate(() => Object.assign(window, { devTestMarker: 'not reloaded' }));
    await edit(article, (t) => t.replace('Paragraph 3 of the letters.', 'Paragraph 3, rewritten after the reload.'));
    await page.waitForFunction(
      () => document.body.innerText.includes('Paragraph 3, rewritten after the reload.'),
      undefined,
      { timeout: 20_000 },
    );
    expect(await page.evaluate(() => (window as unknown as { devTestMarker?: string }).devTestMarker)).toBe(
      'not reloaded',
    );
  });

  it('shows a mistake over the page, and removes it when the file is fixed', async () => {
    await edit(article, (t) =>
      t.replace('Paragraph 2 of the letters.', 'Paragraph 2 links [nowhere](/blog/books/Nowhere).'),
    );
    const overlay = page.locator('#site-dev-overlay');
    await overlay.waitFor({ timeout: 20_000 });
    const text = await page.evaluate(() => document.getElementById('site-dev-overlay')?.shadowRoot?.textContent ?? '');
    expect(text).toContain('content/blog/books/DangerousLiaisons.en.md:');
    expect(text).toContain('LINK001');
    expect(text).toContain('/blog/books/Nowhere');
    expect(text).toContain('hint:');
    // SCREENSHOTS=<folder> keeps a picture of the overlay, to look at it as the owner does.
    if (process.env.SCREENSHOTS) await page.screenshot({ path: path.join(process.env.SCREENSHOTS, 'dev-overlay.png') });
    await edit(article, (t) =>
      t.replace('Paragraph 2 links [nowhere](/blog/books/Nowhere).', 'Paragraph 2 of the letters.'),
    );
    await overlay.waitFor({ state: 'detached', timeout: 20_000 });
  });

  it('lists the warnings in a folded corner, out of the way, and takes one away when it is dealt with', async () => {
    const pt = 'content/blog/books/DangerousLiaisons.pt.md';
    const shown = () =>
      page.evaluate(() => {
        const root = document.getElementById('site-dev-warnings')?.shadowRoot;
        return {
          summary: root?.querySelector('summary')?.textContent ?? '',
          open: root?.querySelector('details')?.open ?? false,
          text: root?.textContent ?? '',
        };
      });
    // The English edition rewritten (here and by the tests above): its Portuguese one is behind.
    await edit(article, (t) => t.replace('Paragraph 2 of the letters.', 'Paragraph 2 of the letters, revised.'));
    await page.waitForFunction(
      (file) => document.getElementById('site-dev-warnings')?.shadowRoot?.textContent?.includes(`${file}:2 TRANS001`),
      pt,
      { timeout: 20_000 },
    );
    const folded = await shown();
    expect(folded.summary).toMatch(/^\d+ warnings?$/);
    expect(folded.open).toBe(false);
    if (process.env.SCREENSHOTS) {
      await page.evaluate(() =>
        document.getElementById('site-dev-warnings')?.shadowRoot?.querySelector('summary')?.click(),
      );
      await page.screenshot({ path: path.join(process.env.SCREENSHOTS, 'dev-warnings.png') });
    }
    // Brought in line: its warning leaves the list.
    await run(process.execPath, [path.join(root, 'bin', 'site'), '--root', root, 'translations', 'sync', pt]);
    await page.waitForFunction(
      (file) => !document.getElementById('site-dev-warnings')?.shadowRoot?.textContent?.includes(file),
      pt,
      { timeout: 20_000 },
    );
    // The sync's build reloads the pages it made again after the list is updated; the next test
    // marks the page and expects no reload of its own, so the reloads are let through first.
    await page.waitForTimeout(1500);
    await page.waitForLoadState('load');
  });

  it('applies a stylesheet change in place, without reloading the page', async () => {
    await page.evaluate(() => Object.assign(window, { devTestMarker: 'still here' }));
    await edit('templates/styles/base.css', (t) => `${t}\nbody { outline: 3px solid rgb(1, 2, 3); }\n`);
    await page.waitForFunction(() => getComputedStyle(document.body).outlineColor === 'rgb(1, 2, 3)', undefined, {
      timeout: 20_000,
    });
    expect(await page.evaluate(() => (window as unknown as { devTestMarker?: string }).devTestMarker)).toBe(
      'still here',
    );
  });
});
