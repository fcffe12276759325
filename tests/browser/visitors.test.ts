import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, hydrated, startBrowserSession } from '../support/browser';

/*
 * What a keyboard user, a phone user and a reader who needs calm or large text meet, each at the
 * width where it showed: focus kept in sight and moved sensibly, dialogs opened at their top, the
 * search list followed and closed, every card reachable and named, moving parts standing still
 * under reduced motion with a pause control at every setting, no sideways scrolling with text at
 * 200 %, focus rings that stand out, and the smaller things beside them.
 */

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(async () => {
  await session?.close();
});
const url = (path: string) => session.origin + path;

/** The box of the focused element, and the bottom of the toolbar where it sticks (0 where it does not). */
const focusAndToolbar = (page: Page) =>
  page.evaluate(() => {
    const toolbar = document.querySelector('.toolbar')!;
    const sticky = getComputedStyle(toolbar).position === 'sticky';
    const box = document.activeElement!.getBoundingClientRect();
    const tag = `${document.activeElement!.tagName.toLowerCase()}.${document.activeElement!.className} "${(document.activeElement as HTMLElement).innerText?.slice(0, 30)}"`;
    return {
      top: box.top,
      bottom: box.bottom,
      toolbar: sticky ? toolbar.getBoundingClientRect().bottom : 0,
      height: innerHeight,
      tag,
      inMain: Boolean(document.activeElement!.closest('main')),
    };
  });

/** WCAG relative luminance of an sRGB colour. */
function luminance([r, g, b]: number[]): number {
  const channel = (c: number) => {
    const v = c / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r!) + 0.7152 * channel(g!) + 0.0722 * channel(b!);
}
function contrast(a: number[], b: number[]): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}
const rgb = (css: string) =>
  css
    .match(/\d+(\.\d+)?/g)!
    .slice(0, 3)
    .map(Number);

describe('the Professional experience dialogs', () => {
  for (const [width, path] of [
    [375, '/professional'],
    [1280, '/pt/professional'],
  ] as const) {
    it(`open at their top, with focus on the title, at ${width} px (all five)`, async () => {
      const { page } = await session.open(width, { height: width < 700 ? 740 : 800 });
      await page.goto(url(path));
      const openers = page.locator('[data-dialog-open]');
      expect(await openers.count()).toBe(5);
      for (let i = 0; i < 5; i++) {
        const opener = openers.nth(i);
        const id = (await opener.getAttribute('data-dialog-open'))!;
        // Enter on the focused card for the first, a click for the others.
        if (i === 0) {
          await opener.focus();
          await page.keyboard.press('Enter');
        } else await opener.click();
        const state = await page.evaluate((dialogId) => {
          const dialog = document.getElementById(dialogId)!;
          const box = dialog.getBoundingClientRect();
          const image = dialog.querySelector('img')!.getBoundingClientRect();
          const title = dialog.querySelector('h3')!.getBoundingClientRect();
          return {
            scrollTop: dialog.scrollTop,
            imageTop: image.top - box.top,
            titleBottom: title.bottom - box.top,
            height: box.height,
            focusOnTitle: document.activeElement === dialog.querySelector('h3'),
          };
        }, id);
        expect(state, id).toMatchObject({ scrollTop: 0, imageTop: 0, focusOnTitle: true });
        expect(state.titleBottom, id).toBeLessThanOrEqual(state.height);
        await page.keyboard.press('Escape');
      }
      await page.context().close();
    });
  }
});

describe('the gallery dialog', () => {
  const counter = (page: Page) => page.locator('[data-gallery-counter]').innerText();
  const focused = (page: Page) =>
    page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.tagName);

  it('moves focus to the other arrow when the last photo disables Next, and the arrow keys go on working (1280 px)', async () => {
    const { page } = await session.open(1280);
    await page.goto(url('/blog/photos'));
    await page.locator('[data-photo-index="0"]').click();
    await page.locator('[data-gallery-next]').focus();
    for (let i = 0; i < 11; i++) await page.keyboard.press('Enter');
    expect(await counter(page)).toBe('12 / 12');
    expect(await focused(page)).toBe('Previous photo');
    await page.keyboard.press('ArrowLeft');
    expect(await counter(page)).toBe('11 / 12');
    // Back to the first with Previous: focus moves to Next.
    for (let i = 0; i < 10; i++) await page.keyboard.press('Enter');
    expect(await counter(page)).toBe('1 / 12');
    expect(await focused(page)).toBe('Next photo');
    await page.context().close();
  });

  it('keeps focus in the dialog when the arrow keys reach the last photo on a phone (375 px, pt)', async () => {
    const { page } = await session.open(375, { height: 740 });
    await page.goto(url('/pt/blog/gastronomy'));
    await page.locator('[data-photo-index="0"]').click();
    for (let i = 0; i < 11; i++) await page.keyboard.press('ArrowRight');
    expect(await counter(page)).toBe('12 / 12');
    expect(await focused(page)).toBe('Fotografia anterior');
    await page.keyboard.press('ArrowLeft');
    expect(await counter(page)).toBe('11 / 12');
    await page.context().close();
  });
});

describe('the blog search', () => {
  const options = (page: Page) => page.locator('#search-results [role="option"]');

  it('scrolls its 200 px list to keep the highlighted result in sight (1280 px)', async () => {
    const { page } = await session.open(1280);
    await page.goto(url('/blog'));
    await page.locator('#search-input').fill('work');
    await expect.poll(() => options(page).count()).toBeGreaterThan(6);
    const count = await options(page).count();
    for (let i = 0; i < count; i++) {
      await page.keyboard.press('ArrowDown');
      const seen = await page.evaluate((n) => {
        const list = document.getElementById('search-results')!.getBoundingClientRect();
        const option = document.getElementById(`search-result-${n}`)!.getBoundingClientRect();
        return option.top >= list.top - 1 && option.bottom <= list.bottom + 1;
      }, i);
      expect(seen, `result ${i + 1} of ${count}`).toBe(true);
    }
    await page.context().close();
  });

  it('closes its list when focus leaves it and on a click elsewhere, and opens it again on focus (375 px, pt)', async () => {
    const { page } = await session.open(375, { height: 740 });
    await page.goto(url('/pt/blog'));
    const input = page.locator('#search-input');
    await input.fill('musica');
    await expect.poll(() => options(page).count()).toBeGreaterThan(0);
    // The results are not tab stops (arrow keys reach them): Tab leaves the search.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('.search')))).toBe(false);
    expect(await page.locator('#search-results').count()).toBe(0);
    expect(await input.getAttribute('aria-expanded')).toBe('false');
    await page.keyboard.press('Shift+Tab');
    await expect.poll(() => options(page).count()).toBeGreaterThan(0);
    await page.locator('h1').click();
    expect(await page.locator('#search-results').count()).toBe(0);
    // A click on a result still follows it.
    await input.click();
    const href = await options(page).first().locator('a').getAttribute('href');
    await options(page).first().locator('a').click();
    await page.waitForURL(url(href!));
    await page.context().close();
  });

  it('says when nothing matches, in either language (1280 px)', async () => {
    for (const [path, text] of [
      ['/blog', 'No article matches “qwzxv”.'],
      ['/pt/blog', 'Nenhum artigo corresponde a “qwzxv”.'],
    ] as const) {
      const { page } = await session.open(1280, { colorScheme: path === '/blog' ? 'light' : 'dark' });
      await page.goto(url(path));
      await page.locator('#search-input').fill('qwzxv');
      await expect.poll(() => page.locator('.search__none').innerText()).toBe(text);
      expect(await page.locator('#search-results').count()).toBe(0);
      await page.locator('#search-input').fill('docker');
      await expect.poll(() => options(page).count()).toBeGreaterThan(0);
      expect(await page.locator('.search__none').isVisible()).toBe(false);
      await page.context().close();
    }
  });

  it('opens the first result for an Enter pressed before the results arrived (1280 px)', async () => {
    const { page } = await session.open(1280);
    await page.route('**/api/blog_posts/search?*', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      await route.continue();
    });
    await page.goto(url('/blog'));
    await hydrated(page);
    await page.locator('#search-input').fill('docker');
    await page.keyboard.press('Enter');
    await page.waitForURL(url('/blog/tech/docker'));
    await page.context().close();
  });
});

describe('the sticky toolbar', () => {
  for (const width of [1280, 375]) {
    it(`never covers the focused element, from the skip link down and back up through an article (${width} px)`, async () => {
      const { page } = await session.open(width, { height: width < 700 ? 740 : 800, reducedMotion: 'reduce' });
      await page.goto(url('/blog/tech/Git'));
      await hydrated(page);
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.className)).toBe('skip-link');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Tab');
      const hidden: string[] = [];
      const check = async () => {
        const box = await focusAndToolbar(page);
        // Its top in sight, below the toolbar (a code block or table taller than the window runs on below it).
        if (box.inMain && (box.top < box.toolbar || box.top > box.height - 16))
          hidden.push(`${box.tag} at ${Math.round(box.top)} (toolbar to ${Math.round(box.toolbar)})`);
      };
      await check();
      // Tab down through the whole article, then back up.
      for (let i = 0; i < 60; i++) {
        await page.keyboard.press('Tab');
        await check();
      }
      for (let i = 0; i < 60; i++) {
        await page.keyboard.press('Shift+Tab');
        await check();
      }
      expect(hidden).toEqual([]);
      await page.context().close();
    });
  }

  for (const [width, path, id] of [
    [1280, '/blog/tech/Git#github-actions', 'github-actions'],
    [375, '/pt/blog/tech/Git#github-actions', 'github-actions'],
  ] as const) {
    it(`lands an anchor below it (${width} px, ${path})`, async () => {
      const { page } = await session.open(width, { height: width < 700 ? 740 : 800, reducedMotion: 'reduce' });
      await page.goto(url(path));
      await hydrated(page);
      const place = () =>
        page.evaluate((target) => {
          const toolbar = document.querySelector('.toolbar')!.getBoundingClientRect().bottom;
          return document.getElementById(target)!.getBoundingClientRect().top - toolbar;
        }, id);
      await expect.poll(place).toBeGreaterThanOrEqual(0);
      expect(await place()).toBeLessThan(40);
      // And from the article's index.
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.locator(`.article__index a[href="#${id}"]`).click();
      await expect.poll(place).toBeGreaterThanOrEqual(0);
      expect(await place()).toBeLessThan(40);
      await page.context().close();
    });
  }
});

describe('the About Me cards', () => {
  it('can each be reached with the keyboard and turned at 1280 px, and say what their back says', async () => {
    const { page } = await session.open(1280, { reducedMotion: 'reduce' });
    await page.goto(url('/aboutme'));
    await hydrated(page);
    const cards = page.locator('.flip');
    expect(await cards.count()).toBe(5);
    const reached = new Set<string>();
    for (let i = 0; i < 80 && reached.size < 5; i++) {
      await page.keyboard.press('Tab');
      const label = await page.evaluate(() =>
        document.activeElement?.classList.contains('flip') ? document.activeElement.getAttribute('aria-label') : null,
      );
      if (label) reached.add(label);
    }
    expect([...reached]).toEqual([
      'Turn the card: Portrait',
      'Turn the card: Why this site?',
      'Turn the card: Professional',
      'Turn the card: Blog',
      'Turn the card: Projects',
    ]);
    const why = page.locator('#why .flip');
    await why.focus();
    // What a hover shows, a focus shows too; Enter and Space turn it.
    expect(await why.getAttribute('aria-pressed')).toBe('true');
    await page.keyboard.press('Enter');
    expect(await why.getAttribute('aria-pressed')).toBe('false');
    await page.keyboard.press('Space');
    expect(await why.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => page.locator('#why .rotating-card__back--visible').count()).toBe(1);
    const description = await why.evaluate(
      (card) => document.getElementById(card.getAttribute('aria-describedby') ?? '')?.textContent,
    );
    expect(description).toContain('Fernando Pessoa');
    await page.context().close();
  });

  it('are named after themselves at 375 px, in both languages; the portrait has no empty band and no quote marks', async () => {
    for (const [path, names] of [
      [
        '/aboutme',
        [
          'Turn the card: Portrait',
          'Turn the card: Why this site?',
          'Turn the card: Professional',
          'Turn the card: Blog',
          'Turn the card: Projects',
        ],
      ],
      [
        '/pt/aboutme',
        [
          'Virar o cartão: Retrato',
          'Virar o cartão: Porquê este site?',
          'Virar o cartão: Profissional',
          'Virar o cartão: Blog',
          'Virar o cartão: Projetos',
        ],
      ],
    ] as const) {
      const { page } = await session.open(375, { height: 740, colorScheme: path === '/aboutme' ? 'dark' : 'light' });
      await page.goto(url(path));
      await hydrated(page);
      await expect
        .poll(() =>
          page.locator('.flip[role="button"]').evaluateAll((cards) => cards.map((c) => c.getAttribute('aria-label'))),
        )
        .toEqual(names);
      expect(await page.locator('#intro .rotating-card__title').count()).toBe(0);
      expect(
        await page.locator('.rotating-card__title').evaluateAll((titles) => titles.map((t) => t.textContent)),
      ).not.toContain('');
      const portrait = page.locator('#intro .flip');
      await portrait.click();
      await expect.poll(() => page.locator('#intro .rotating-card__back--visible').count(), { timeout: 3000 }).toBe(1);
      const back = await page.locator('#intro .flip__back').innerText();
      expect(back).not.toMatch(/[“”"]/);
      expect(await page.locator('#intro .flip__back blockquote').count()).toBe(0);
      await page.context().close();
    }
  });
});

describe('motion', () => {
  const typed = (page: Page) => page.locator('.typewriter__text').innerText();
  const quote = async (page: Page) => (await page.locator('.quotes__slide--active blockquote').textContent()) ?? '';
  const video = (page: Page) =>
    page.locator('.banner__video').evaluate((v: HTMLVideoElement) => ({ paused: v.paused, source: v.currentSrc }));

  for (const path of ['/aboutme', '/pt/aboutme']) {
    it(`stands still under reduced motion: the first greeting whole, the first quote, the video's poster (${path}, 1280 px)`, async () => {
      const { page } = await session.open(1280, {
        reducedMotion: 'reduce',
        colorScheme: path === '/aboutme' ? 'light' : 'dark',
      });
      await page.clock.install();
      await page.goto(url(path));
      await hydrated(page);
      const greeting = await typed(page);
      const first = await quote(page);
      expect(greeting.length).toBeGreaterThan(3);
      await page.clock.runFor(30_000);
      expect(await typed(page)).toBe(greeting);
      expect(await quote(page)).toBe(first);
      expect(await video(page)).toEqual({ paused: true, source: '' });
      // Each has a control that plays it.
      await page.locator('.banner .motion-toggle').click();
      await page.clock.runFor(2000 + 100 * greeting.length + 1100 + 500);
      expect(await typed(page)).not.toBe(greeting);
      expect((await video(page)).source).not.toBe('');
      await page.locator('.quotes .motion-toggle').click();
      await page.clock.runFor(5000);
      expect(await quote(page)).not.toBe(first);
      await page.context().close();
    });
  }

  it('has a pause control for each moving part when motion is allowed (1280 px)', async () => {
    const { page } = await session.open(1280);
    await page.clock.install();
    await page.goto(url('/aboutme'));
    await hydrated(page);
    const banner = page.locator('.banner .motion-toggle');
    const quotes = page.locator('.quotes .motion-toggle');
    expect(await banner.innerText()).toContain('Pause');
    expect(await quotes.innerText()).toContain('Pause');
    const first = await quote(page);
    await quotes.click();
    await page.clock.runFor(20_000);
    expect(await quote(page)).toBe(first);
    expect(await quotes.innerText()).toContain('Play');
    await banner.click();
    expect((await video(page)).paused).toBe(true);
    const greeting = await typed(page);
    await page.clock.runFor(20_000);
    expect(await typed(page)).toBe(greeting);
    await page.context().close();
  });
});

describe('text at 200 %', () => {
  for (const width of [320, 375, 414, 768]) {
    it(`never scrolls sideways, keeps the flags and the menu on screen, and hides the skip link (${width} px)`, async () => {
      const { page } = await session.open(width, { height: 800, reducedMotion: 'reduce' });
      // The browser's own text size setting, as a reader who needs large text sets it: 32 px, twice the default.
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Page.setFontSizes', { fontSizes: { standard: 32 } });
      const overflowing: string[] = [];
      for (const path of ['/blog', '/pt/aboutme', '/professional', '/pt/blog/tech/Git', '/blog/culture/gulbenkian']) {
        await page.goto(url(path));
        await hydrated(page);
        const state = await page.evaluate(() => {
          const root = document.documentElement;
          const visible = (el: Element) =>
            getComputedStyle(el).display !== 'none' && el.getBoundingClientRect().width > 0;
          // The toolbar's own controls (the drawer, closed, waits off screen on purpose).
          const controls = [...document.querySelectorAll('.toolbar a, .toolbar button')].filter(
            (el) => visible(el) && !el.closest('#drawer'),
          );
          return {
            fontSize: getComputedStyle(root).fontSize,
            width: root.scrollWidth,
            offscreen: controls
              .filter((el) => el.getBoundingClientRect().right > innerWidth + 0.5)
              .map((el) => el.textContent?.trim() || el.className),
            skipLink: document.querySelector('.skip-link')!.getBoundingClientRect().bottom,
          };
        });
        expect(state.fontSize).toBe('32px');
        if (state.width > width || state.offscreen.length > 0 || state.skipLink > 0)
          overflowing.push(
            `${path}: ${state.width} px wide, off screen: ${state.offscreen.join(', ')}, skip link to ${state.skipLink}`,
          );
      }
      expect(overflowing).toEqual([]);
      await page.context().close();
    });
  }
});

describe('the phone toolbar at normal text size', () => {
  it('keeps one row at 375 px in both languages: the name wraps before the toolbar does', async () => {
    for (const path of ['/blog', '/pt/blog']) {
      const { page } = await session.open(375, { height: 740 });
      await page.goto(url(path));
      await hydrated(page);
      const [brand, menu] = await Promise.all([
        page.locator('.toolbar__brand').boundingBox(),
        page.locator('.menu-button').boundingBox(),
      ]);
      expect(menu!.y, path).toBeLessThan(brand!.y + brand!.height);
      expect(
        await page.locator('.toolbar').evaluate((t) => t.getBoundingClientRect().height),
        path,
      ).toBeLessThanOrEqual(64);
      await page.context().close();
    }
  });
});

describe('the focus ring', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`stands out 3:1 against the toolbar, the footer and the page (${colorScheme}, 1280 px)`, async () => {
      const { page } = await session.open(1280, { colorScheme, reducedMotion: 'reduce' });
      const ratios: Record<string, number> = {};
      for (const [name, path, selector, surface] of [
        ['toolbar', '/blog', '.toolbar__nav a', '.toolbar'],
        ['footer', '/blog', '.site-footer__nav a', '.site-footer'],
        ['Professional toolbar', '/pt/professional', '.toolbar__nav a', '.toolbar'],
        ['page', '/blog', '.categories a', 'body'],
      ] as const) {
        await page.goto(url(path));
        await hydrated(page);
        // Focus from the keyboard: the ring of :focus-visible.
        await page.locator(selector).first().focus();
        const [ring, background] = await page.evaluate(
          (under) => [
            getComputedStyle(document.activeElement!).outlineColor,
            getComputedStyle(document.querySelector(under)!).backgroundColor,
          ],
          surface,
        );
        ratios[name] = Math.round(contrast(rgb(ring!), rgb(background!)) * 100) / 100;
      }
      for (const [name, ratio] of Object.entries(ratios)) expect(ratio, name).toBeGreaterThanOrEqual(3);
      await page.context().close();
    });
  }
});

describe('the language warning', () => {
  for (const [path, flag, title] of [
    ['/blog/culture/gulbenkian', 'Read this page in English', 'Warning'],
    ['/blog/tech/orm', 'Ler esta página em português', 'Aviso'],
  ] as const) {
    it(`closes with Escape, gives focus back to its flag, and leaves the toolbar clear on a phone (${path}, 375 px)`, async () => {
      const { page } = await session.open(375, { height: 740 });
      await page.goto(url(path));
      await hydrated(page);
      const button = page.locator('.toolbar .lang-switch button');
      const warning = page.locator('.notification');
      await button.click();
      expect(await warning.locator('.notification__title').innerText()).toBe(title);
      const [note, toolbar] = await Promise.all([warning.boundingBox(), page.locator('.toolbar').boundingBox()]);
      expect(note!.y, 'the warning starts below the toolbar').toBeGreaterThanOrEqual(toolbar!.y + toolbar!.height);
      await page.keyboard.press('Escape');
      expect(await warning.count()).toBe(0);
      await button.click();
      await warning.locator('.notification__close').click();
      expect(await warning.count()).toBe(0);
      expect(await page.evaluate(() => document.activeElement?.getAttribute('title'))).toBe(flag);
      await page.context().close();
    });
  }
});

describe('smaller things', () => {
  it('shows each Atelier thumbnail whole, its badge and captions uncut (1280 px)', async () => {
    const { page } = await session.open(1280);
    await page.goto(url('/atelier'));
    const shapes = await page.locator('.hcard__img').evaluateAll((images) =>
      (images as HTMLImageElement[]).map((img) => {
        const box = img.getBoundingClientRect();
        return { box: box.width / box.height, image: img.naturalWidth / img.naturalHeight };
      }),
    );
    expect(shapes.length).toBe(4);
    // A box of the image's own shape: nothing cropped (cover) and nothing squeezed.
    for (const shape of shapes) expect(Math.abs(shape.box - shape.image)).toBeLessThan(0.02);
  });

  for (const [width, path] of [
    [1280, '/professional'],
    [375, '/pt/professional'],
  ] as const) {
    it(`keeps the Professional tagline on a dark ground, the lamp drawing dimmed behind it (${path}, ${width} px)`, async () => {
      const { page } = await session.open(width, { height: width < 700 ? 740 : 800 });
      await page.goto(url(path));
      const tagline = page.locator('.hero__tagline');
      // The ground behind the words: the words made transparent, the box photographed.
      await tagline.evaluate((el) => {
        el.style.color = 'transparent';
      });
      const png = await tagline.screenshot();
      const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      let lightest = [0, 0, 0];
      for (let i = 0; i < data.length; i += info.channels) {
        const pixel = [data[i]!, data[i + 1]!, data[i + 2]!];
        if (luminance(pixel) > luminance(lightest)) lightest = pixel;
      }
      expect(contrast([255, 255, 255], lightest), `lightest ground rgb(${lightest.join(', ')})`).toBeGreaterThanOrEqual(
        4.5,
      );
      await page.context().close();
    });
  }

  it('makes the open drawer a modal dialog (375 px)', async () => {
    const { page } = await session.open(375, { height: 740 });
    await page.goto(url('/pt/blog'));
    await page.locator('.menu-button').click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.className)).toBe('drawer__close');
    const drawer = page.locator('#drawer');
    expect(await drawer.getAttribute('role')).toBe('dialog');
    expect(await drawer.getAttribute('aria-modal')).toBe('true');
    expect(await drawer.getAttribute('aria-label')).toBe('Menu');
    await page.context().close();
  });

  it('tells a screen reader, and shows nothing, when Subscribe is pressed with the field empty (1280 px)', async () => {
    for (const [path, text] of [
      ['/blog', 'Enter your e-mail address to subscribe.'],
      ['/pt/blog', 'Escreve o teu endereço de e-mail para subscrever.'],
    ] as const) {
      const { page } = await session.open(1280);
      const requests: string[] = [];
      page.on('request', (r) => {
        if (r.url().endsWith('/api/newsletter')) requests.push(r.url());
      });
      await page.goto(url(path));
      await hydrated(page);
      await page.locator('.newsletter__form button').click();
      const status = page.locator('.newsletter__form [role="status"]');
      await expect.poll(() => status.textContent()).toBe(text);
      // Visually hidden: a 1 px clipped box.
      expect(
        await status.locator('.visually-hidden').evaluate((el) => el.getBoundingClientRect().width),
      ).toBeLessThanOrEqual(1);
      expect(requests).toEqual([]);
      await page.context().close();
    }
  });
});
