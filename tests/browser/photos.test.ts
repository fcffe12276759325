import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../src/build/pipeline';
import { type BrowserSession, startBrowserSession } from '../support/browser';
import { copyOfContent } from '../support/content';
import { cameraPhoto } from '../support/photo';

// The real content shows no photo yet (its pictures are SVG): a copy of it gains one, as the
// first photo of a gallery and as a figure of an article in both languages, and is built and served.
const PHOTO = '/media/gallery/gastronomy/harbour.jpg';
let content: Awaited<ReturnType<typeof copyOfContent>>;
let session: BrowserSession;

beforeAll(async () => {
  content = await copyOfContent({ media: 'copied' });
  await writeFile(path.join(content.root, 'content', PHOTO), await cameraPhoto());
  await content.edit('content/categories/gastronomy.json', (text) =>
    text.replace('/media/gallery/gastronomy/01.svg', PHOTO),
  );
  await content.edit(
    'content/blog/tech/Git.en.md',
    (text) => `${text}\n\n::figure[The harbour at dusk]{src="${PHOTO}"}\n`,
  );
  await content.edit('content/pages/professional.json', (text) => text.replace('/media/professional/hero.svg', PHOTO));
  await content.edit(
    'content/blog/tech/Git.pt.md',
    (text) => `${text}\n\n::figure[O porto ao anoitecer]{src="${PHOTO}"}\n`,
  );
  const outDir = path.join(content.root, 'dist');
  const result = await build({ root: content.root, outDir });
  if (!result.ok) throw new Error(`the build failed: ${result.diagnostics.map((d) => d.code).join(', ')}`);
  session = await startBrowserSession({ distDir: outDir });
}, 120_000);

afterAll(async () => {
  await session?.close();
  await content?.cleanup();
});

/** Opens a page and records every request for the photo's variants until the image at `selector` has loaded. */
async function photoRequests(
  page: Page,
  url: string,
  selector: string,
): Promise<{ requested: string[]; shown: string }> {
  const requested: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/harbour-'))
      requested.push(path.basename(new URL(request.url()).pathname).replace(/\.[0-9a-f]{10}\./, '.'));
  });
  await page.goto(url);
  const img = page.locator(selector).first();
  await img.scrollIntoViewIfNeeded();
  await expect
    .poll(() => img.evaluate((e: HTMLImageElement) => e.complete && e.naturalWidth > 0), { timeout: 10_000 })
    .toBe(true);
  return { requested, shown: await img.evaluate((e: HTMLImageElement) => e.currentSrc) };
}

const variant = (url: string) => /harbour-(\d+)\.[0-9a-f]{10}\.(\w+)$/.exec(url)?.slice(1, 3).join('.') ?? url;

describe.each([
  // At 375 px the gallery shows two photos a row (about 188 px each) and the article's column is
  // 335 px; at 1280 px, three a row of 368 px and a column of 728 px.
  { width: 375, gallery: '320.avif', article: '640.avif' },
  { width: 1280, gallery: '640.avif', article: '960.avif' },
])('a photo at $width px', ({ width, gallery, article }) => {
  describe.each([
    { lang: 'en', prefix: '' },
    { lang: 'pt', prefix: '/pt' },
  ])('in $lang', ({ prefix }) => {
    it.each(['light', 'dark'] as const)(
      'loads the AVIF variant the width needs and no other, in the %s scheme',
      async (colorScheme) => {
        const { page, problems } = await session.open(width, { colorScheme });
        const shownInGallery = await photoRequests(
          page,
          `${session.origin}${prefix}/blog/gastronomy`,
          '.gallery picture img',
        );
        expect(variant(shownInGallery.shown)).toBe(gallery);
        expect(shownInGallery.requested).toEqual([`harbour-${gallery}`]);
        await page.context().close();

        const second = await session.open(width, { colorScheme });
        const shownInArticle = await photoRequests(
          second.page,
          `${session.origin}${prefix}/blog/tech/Git`,
          '.figure picture img',
        );
        expect(variant(shownInArticle.shown)).toBe(article);
        expect(shownInArticle.requested).toEqual([`harbour-${article}`]);
        expect([...problems, ...second.problems]).toEqual([]);
        await second.page.context().close();
      },
    );
  });
});

describe.each([
  // The dialog is 60rem wide at most: 960 px at 1280, the viewport less 2rem (343 px) at 375.
  { width: 375, dialog: '640.avif' },
  { width: 1280, dialog: '960.avif' },
])('the gallery dialog at $width px', ({ width, dialog }) => {
  it('shows the photo from the format the grid chose, at the width the dialog needs', async () => {
    const { page, problems } = await session.open(width);
    const requested: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/harbour-'))
        requested.push(path.basename(new URL(request.url()).pathname).replace(/\.[0-9a-f]{10}\./, '.'));
    });
    await page.goto(`${session.origin}/blog/gastronomy`);
    const thumbnail = page.locator('.gallery picture img').first();
    await expect.poll(() => thumbnail.evaluate((e: HTMLImageElement) => e.complete && e.naturalWidth > 0)).toBe(true);
    await page.locator('.gallery__open').first().click();
    const large = page.locator('#gallery-dialog [data-gallery-image]');
    await expect
      .poll(
        async () =>
          variant(
            await large.evaluate((e: HTMLImageElement) => (e.complete && e.naturalWidth > 0 ? e.currentSrc : '')),
          ),
        { timeout: 10_000 },
      )
      .toBe(dialog);
    expect(requested.at(-1)).toBe(`harbour-${dialog}`);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

it("shows the Professional page's hero photo as its AVIF in Chromium, fetched once", async () => {
  const { page, problems } = await session.open(1280);
  const requested: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/harbour-'))
      requested.push(path.basename(new URL(request.url()).pathname).replace(/\.[0-9a-f]{10}\./, '.'));
  });
  await page.goto(`${session.origin}/professional`, { waitUntil: 'networkidle' });
  expect(await page.locator('.hero').evaluate((e) => getComputedStyle(e).backgroundImage)).toMatch(/^image-set\(/);
  expect(requested).toEqual(['harbour-1920.avif']);
  expect(problems).toEqual([]);
  await page.context().close();
});
