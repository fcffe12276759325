import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, hydrated, startBrowserSession } from '../support/browser';

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(async () => {
  await session?.close();
});
const url = (path: string) => session.origin + path;

describe('Professional experience dialog', () => {
  for (const [lang, path, close] of [
    ['en', '/professional', 'Close'],
    ['pt', '/pt/professional', 'Fechar'],
  ] as const) {
    it(`opens with the image, title and long text, and closes with ${close} or Escape (${lang})`, async () => {
      const { page, problems } = await session.open(375, { height: 740 });
      await page.goto(url(path));
      expect(await page.locator('.experience__card').count()).toBe(5);
      const opener = page.locator('[data-dialog-open="experience-microsoft"]');
      await opener.click();
      const dialog = page.locator('#experience-microsoft');
      expect(await dialog.isVisible()).toBe(true);
      expect(await dialog.locator('h3').innerText()).toContain('Microsoft');
      expect(await dialog.locator('.prose li').count()).toBe(9);
      expect(await dialog.locator('img').count()).toBe(1);
      expect(await page.evaluate(() => document.body.style.overflow)).toBe('hidden');
      await dialog.getByRole('button', { name: close }).click();
      expect(await dialog.isVisible()).toBe(false);
      // The dialog's close event, which restores scrolling, is dispatched as a task.
      await expect.poll(() => page.evaluate(() => document.body.style.overflow)).toBe('');
      await opener.click();
      await page.keyboard.press('Escape');
      expect(await dialog.isVisible()).toBe(false);
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-dialog-open'))).toBe(
        'experience-microsoft',
      );
      expect(problems).toEqual([]);
      await page.context().close();
    });
  }
});

describe('galleries', () => {
  it('show 3 photos a row on desktop and 2 on mobile, 12 in all', async () => {
    for (const [width, perRow] of [
      [1280, 3],
      [375, 2],
    ] as const) {
      const { page } = await session.open(width);
      await page.goto(url('/blog/gastronomy'));
      const tops = await page
        .locator('.gallery__item')
        .evaluateAll((items) => items.map((i) => Math.round(i.getBoundingClientRect().top)));
      expect(tops).toHaveLength(12);
      expect(tops.filter((t) => t === tops[0])).toHaveLength(perRow);
      await page.context().close();
    }
  });

  it('reveal the description over a photo on hover', async () => {
    const { page } = await session.open(1280);
    await page.goto(url('/blog/photos'));
    const caption = page.locator('.gallery__caption').first();
    expect(await caption.evaluate((el) => getComputedStyle(el).opacity)).toBe('0');
    await page.locator('.gallery__open').first().hover();
    await expect.poll(() => caption.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
    await page.context().close();
  });

  it('step through the photos in the dialog and stop at the first and the last, with no wrap', async () => {
    const { page } = await session.open(1280);
    await page.goto(url('/pt/blog/gastronomy'));
    await page.locator('[data-photo-index="0"]').click();
    const dialog = page.locator('#gallery-dialog');
    const previous = dialog.locator('[data-gallery-previous]');
    const next = dialog.locator('[data-gallery-next]');
    expect(await previous.isDisabled()).toBe(true);
    const firstSrc = await dialog.locator('[data-gallery-image]').getAttribute('src');
    await next.click();
    expect(await dialog.locator('[data-gallery-image]').getAttribute('src')).not.toBe(firstSrc);
    expect(await previous.isDisabled()).toBe(false);
    for (let i = 0; i < 12; i++) if (!(await next.isDisabled())) await next.click();
    expect(await next.isDisabled()).toBe(true);
    expect(await dialog.locator('[data-gallery-counter]').innerText()).toBe('12 / 12');
    expect(await dialog.locator('[data-gallery-title]').innerText()).toBe(
      await page.locator('[data-photo-index="11"] [data-photo-title]').innerText(),
    );
    // Desktop shows the image and arrows only; the close button and the texts are for small screens.
    expect(await dialog.locator('.gallery-dialog__details').isVisible()).toBe(false);
    await page.keyboard.press('Escape');
    expect(await dialog.isVisible()).toBe(false);
    await page.context().close();
  });

  it('show title, description and Fechar in the dialog on small screens', async () => {
    const { page } = await session.open(375, { height: 740 });
    await page.goto(url('/pt/blog/photos'));
    await page.locator('[data-photo-index="3"]').click();
    const dialog = page.locator('#gallery-dialog');
    expect(await dialog.locator('[data-gallery-title]').isVisible()).toBe(true);
    expect(await dialog.locator('[data-gallery-text]').innerText()).toBe(
      await page.locator('[data-photo-index="3"] [data-photo-text]').innerText(),
    );
    await dialog.getByRole('button', { name: 'Fechar' }).click();
    expect(await dialog.isVisible()).toBe(false);
    await page.context().close();
  });
});

describe('About Me', () => {
  it('turns a section card on click at 767 px or less, shows its back after 1300 ms, and resets when wider', async () => {
    const { page } = await session.open(375, { height: 740 });
    await page.clock.install();
    await page.goto(url('/aboutme'));
    const card = page.locator('#blog .flip');
    await card.scrollIntoViewIfNeeded();
    // Scrolled to, the card's section rises 24 px into place over 0.7 s (src/client/reveal.ts): the
    // pointer's moves below aim at where the card comes to rest. Aimed at where it was, a point just
    // outside it ends inside it, and the card rightly turns again.
    const section = page.locator('#blog');
    await expect.poll(() => section.getAttribute('class')).toContain('reveal--in');
    await section.evaluate((element) => Promise.all(element.getAnimations().map((animation) => animation.finished)));
    // The card takes clicks once hydrated and the window is known to be narrow.
    await expect.poll(() => card.getAttribute('role')).toBe('button');
    await card.click();
    expect(await card.getAttribute('aria-pressed')).toBe('true');
    await page.clock.runFor(1000);
    expect(await page.locator('#blog .rotating-card__back--visible').count()).toBe(0);
    await page.clock.runFor(400);
    expect(await page.locator('#blog .rotating-card__back--visible').count()).toBe(1);
    await page.setViewportSize({ width: 1024, height: 740 });
    await expect.poll(() => page.locator('#blog .flip').getAttribute('class')).not.toContain('flip--flipped');
    // Still a button that Enter and Space turn (tests/browser/visitors.test.ts), but a pointer's
    // click no longer does: hover does.
    await page.mouse.move(0, 0);
    await card.click({ position: { x: 10, y: 10 } });
    // The pointer leaves the card: to a point just above or below it (the window's corner may lie
    // over the card, as the resize leaves the page scrolled).
    const box = (await card.boundingBox()) as { x: number; y: number; width: number; height: number };
    await page.mouse.move(box.x + box.width / 2, box.y > 40 ? box.y - 20 : box.y + box.height + 20);
    // A continuous event: React renders it in a task of its own, after the move has returned.
    await expect.poll(() => card.getAttribute('aria-pressed')).toBe('false');
    await page.context().close();
  });

  it('turns back a card a pointer crosses faster than the card renders', async () => {
    const { page } = await session.open(1280);
    await page.goto(url('/aboutme'));
    await hydrated(page);
    const card = page.locator('#blog .flip');
    const pointer = (events: string[]) =>
      card.evaluate((element, types) => {
        const face = element.querySelector('.flip__front') as Element;
        for (const type of types)
          face.dispatchEvent(new MouseEvent(type, { bubbles: true, relatedTarget: document.body }));
      }, events);
    // Each alone: the enter turns the card, the leave turns it back.
    await pointer(['mouseover']);
    await expect.poll(() => card.getAttribute('aria-pressed')).toBe('true');
    await pointer(['mouseout']);
    await expect.poll(() => card.getAttribute('aria-pressed')).toBe('false');
    // Both in one task: React renders the enter after the leave has come, and the leave still counts.
    await pointer(['mouseover', 'mouseout']);
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    expect(await card.getAttribute('aria-pressed')).toBe('false');
    await page.context().close();
  });

  it('cycles the four quotes every 5 s, wrapping, with no arrows', async () => {
    const { page } = await session.open(1280);
    await page.clock.install();
    await page.goto(url('/pt/aboutme'));
    // The carousel turns from the moment it is hydrated, after the page has loaded.
    await hydrated(page);
    // textContent: the class says which quote is shown; its fade-in runs on real time, not the test clock.
    const active = async () => (await page.locator('.quotes__slide--active blockquote').textContent()) ?? '';
    expect(await page.locator('.quotes__slide').count()).toBe(4);
    // No arrows: the one button is the pause control (WCAG 2.2.2).
    expect(await page.locator('.quotes button').evaluateAll((buttons) => buttons.map((b) => b.className))).toEqual([
      'motion-toggle',
    ]);
    const seen = [await active()];
    for (let i = 0; i < 4; i++) {
      await page.clock.runFor(5000);
      seen.push(await active());
    }
    expect(new Set(seen.slice(0, 4)).size).toBe(4);
    expect(seen[4]).toBe(seen[0]);
    await page.context().close();
  });

  it('types the greeting with the timings of docs/product.md and moves to the next text', async () => {
    const { page } = await session.open(1280);
    await page.clock.install();
    await page.goto(url('/aboutme'));
    // The typing starts from the moment the typewriter is hydrated, after the page has loaded.
    await hydrated(page);
    const text = () => page.locator('.typewriter__text').innerText();
    const first = await text();
    await page.clock.runFor(2200 + 2000 + 100 * first.length + 1100 + 300);
    const typing = await text();
    expect(typing.length).toBeGreaterThan(0);
    expect(first.startsWith(typing)).toBe(false);
    await page.context().close();
  });

  it('sizes the video banner to the body height and recomputes it on resize', async () => {
    const { page } = await session.open(1280, { height: 900 });
    await page.goto(url('/aboutme'));
    const video = page.locator('.banner__video');
    expect(await video.evaluate((v: HTMLVideoElement) => [v.muted, v.loop, v.autoplay])).toEqual([true, true, true]);
    const header = await page.locator('.site-header').evaluate((h) => h.getBoundingClientRect().height);
    const height = () => page.locator('.banner').evaluate((b) => b.getBoundingClientRect().height);
    expect(Math.abs((await height()) - (900 - header))).toBeLessThan(2);
    await page.setViewportSize({ width: 1280, height: 700 });
    await expect.poll(async () => Math.abs((await height()) - (700 - header)) < 2).toBe(true);
    await page.context().close();
  });
});

describe('navigation', () => {
  it('restores the scroll position on back and forward, and starts other pages at the top', async () => {
    const { page } = await session.open(1280, { height: 700 });
    await page.goto(url('/blog'));
    await page.evaluate(() => window.scrollTo({ top: 500, behavior: 'instant' }));
    await page.waitForTimeout(100);
    await page.locator('.categories a[href="/blog/books"]').click();
    await page.waitForURL(url('/blog/books'));
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await page.goBack();
    await expect.poll(() => page.evaluate(() => Math.round(window.scrollY))).toBe(500);
    await page.goForward();
    await page.waitForURL(url('/blog/books'));
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await page.context().close();
  });

  it('scrolls smoothly to the section an index entry names', async () => {
    const { page } = await session.open(1280, { height: 700 });
    await page.goto(url('/blog/tech/Site'));
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior)).toBe('smooth');
    const entry = page.locator('.article__index a').nth(1);
    const id = (await entry.getAttribute('href'))!.slice(1);
    await entry.click();
    await expect
      .poll(
        () => page.evaluate((target) => Math.round(document.getElementById(target)!.getBoundingClientRect().top), id),
        { timeout: 5000 },
      )
      .toBeLessThan(120);
    expect(page.url()).toBe(url(`/blog/tech/Site#${id}`));
    await page.context().close();
  });

  it('colours the toolbar per route: transparent on About Me, dark on Professional (transparent on mobile), blue elsewhere', async () => {
    const colour = async (width: number, path: string) => {
      const { page } = await session.open(width);
      await page.goto(url(path));
      const value = await page.locator('.toolbar').evaluate((t) => getComputedStyle(t).backgroundColor);
      await page.context().close();
      return value;
    };
    expect(await colour(1280, '/aboutme')).toBe('rgba(0, 0, 0, 0)');
    expect(await colour(375, '/pt/aboutme')).toBe('rgba(0, 0, 0, 0)');
    expect(await colour(1280, '/professional')).toBe('rgb(11, 37, 69)');
    expect(await colour(375, '/professional')).toBe('rgba(0, 0, 0, 0)');
    expect(await colour(1280, '/blog')).toBe('rgb(30, 64, 175)');
    expect(await colour(375, '/pt/blog/tech/Site')).toBe('rgb(30, 64, 175)');
  });

  it('switches language from the footer entry to the same page in the other language', async () => {
    const { page } = await session.open(375, { height: 740 });
    await page.goto(url('/pt/projects'));
    await page.locator('.site-footer .lang-switch a').click();
    await page.waitForURL(url('/projects'));
    expect(await page.locator('h1').innerText()).toBe('Projects');
    await page.context().close();
  });

  it('keeps keyboard focus inside the open drawer', async () => {
    const { page } = await session.open(375, { height: 740 });
    await page.goto(url('/blog'));
    await page.locator('.menu-button').click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.className)).toBe('drawer__close');
    for (let i = 0; i < 12; i++) await page.keyboard.press('Tab');
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('#drawer')))).toBe(true);
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('#drawer')))).toBe(true);
    await page.context().close();
  });
});

describe('reduced motion', () => {
  it('shows every section at once, without entrance animations', async () => {
    const { page } = await session.open(1280, { reducedMotion: 'reduce' });
    await page.goto(url('/professional'));
    expect(await page.locator('.reveal').count()).toBe(0);
    expect(
      await page
        .locator('.values__item')
        .first()
        .evaluate((el) => getComputedStyle(el).opacity),
    ).toBe('1');
    await page.context().close();
  });

  it('animates sections into view when motion is allowed', async () => {
    const { page } = await session.open(1280);
    await page.goto(url('/professional'));
    const last = page.locator('.values__item').last();
    expect(await last.getAttribute('class')).toContain('reveal');
    await last.scrollIntoViewIfNeeded();
    await expect.poll(() => last.getAttribute('class')).toContain('reveal--in');
    await page.context().close();
  });
});
