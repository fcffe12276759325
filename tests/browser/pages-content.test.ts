import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, hydrated, startBrowserSession } from '../support/browser';

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(async () => {
  await session?.close();
});

const WIDTHS = [1280, 375] as const;
const LANGS = [
  { lang: 'en', prefix: '' },
  { lang: 'pt', prefix: '/pt' },
] as const;

/** What a visitor sees on each page kind, in both languages and at both widths. */
describe.each(WIDTHS)('at %i px', (width) => {
  describe.each(LANGS)('in $lang', ({ lang, prefix }) => {
    it('About Me shows the greeting, bullets, portrait, four quotes, the sections linking on, and four media items', async () => {
      const { page, problems } = await session.open(width);
      await page.goto(`${session.origin}${prefix}/aboutme`);
      expect(await page.locator('.typewriter__text').innerText()).not.toBe('');
      expect(await page.locator('.intro__bullets li').count()).toBeGreaterThanOrEqual(3);
      expect(await page.locator('.intro__portrait img').getAttribute('alt')).toBeTruthy();
      expect(await page.locator('.quotes__slide').count()).toBe(4);
      const headingLinks = await page.locator('.story h2 a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      for (const target of ['/professional', '/blog', '/projects'])
        expect(headingLinks).toContain(`${prefix}${target}`);
      const media = page.locator('.media__item');
      expect(await media.count()).toBe(4);
      for (let i = 0; i < 4; i++) {
        expect(await media.nth(i).locator('.media__logo').getAttribute('alt')).toBeTruthy();
        expect(await media.nth(i).locator('a').getAttribute('target')).toBe('_blank');
      }
      expect(problems).toEqual([]);
      await page.context().close();
    });

    it('Professional shows the hero with Contact, five 300 px cards with 200 px images, three skill groups and three values', async () => {
      const { page } = await session.open(width);
      await page.goto(`${session.origin}${prefix}/professional`);
      expect(await page.locator('.hero .button').innerText()).toMatch(lang === 'en' ? /^Contact\b/ : /^Contacto\b/);
      const cards = page.locator('.experience__card');
      expect(await cards.count()).toBe(5);
      const box = await cards.first().boundingBox();
      expect(Math.round(box!.width)).toBe(300);
      const img = await cards.first().locator('img').boundingBox();
      expect(Math.round(img!.height)).toBe(200);
      expect(await page.locator('.skills__group').count()).toBe(3);
      expect(await page.locator('.values__item').count()).toBe(3);
      await page.context().close();
    });

    it('Projects and Atelier show their cards, the three playlists, the views note and the articles card', async () => {
      const { page } = await session.open(width);
      await page.goto(`${session.origin}${prefix}/projects`);
      expect(await page.locator('.card').count()).toBeGreaterThanOrEqual(4);
      expect(await page.locator(`.card a[href="${prefix}/atelier"]`).count()).toBe(1);
      await page.goto(`${session.origin}${prefix}/atelier`);
      expect(await page.locator('.hcards .hcard').count()).toBe(3);
      expect(await page.locator('.note').innerText()).toMatch(/40[.,\s ]?000/);
      expect(await page.locator('.hcard').count()).toBe(4);
      await page.context().close();
    });

    it('the Blog index shows the search box and the ten categories', async () => {
      const { page } = await session.open(width);
      await page.goto(`${session.origin}${prefix}/blog`);
      expect(await page.locator('#search-title').innerText()).toBe(lang === 'en' ? 'Search' : 'Pesquisa');
      expect(await page.locator('#search-input').getAttribute('placeholder')).toBe(
        lang === 'en' ? 'Search (Coming soon)' : 'Pesquisa (Coming soon)',
      );
      expect(await page.locator('.search__subtext').isVisible()).toBe(true);
      expect(await page.locator('.categories__item').count()).toBe(10);
      await page.context().close();
    });

    it('a category lists only the articles written in the page language, under Blog > category', async () => {
      const { page } = await session.open(width);
      await page.goto(`${session.origin}${prefix}/blog/culture`);
      expect(await page.locator('.breadcrumb li').count()).toBe(2);
      expect(await page.locator('.breadcrumb li').first().innerText()).toContain('Blog');
      const count = await page.locator('.article-list__item').count();
      // The five culture articles are Portuguese only.
      expect(count).toBe(lang === 'pt' ? 5 : 0);
      await page.goto(`${session.origin}${prefix}/blog/tech`);
      const links = await page
        .locator('.article-list__item a')
        .evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      expect(links.includes('/blog/tech/orm')).toBe(lang === 'en');
      expect(links.includes('/blog/tech/pages2static')).toBe(lang === 'pt');
      await page.context().close();
    });

    it('an article shows its breadcrumb trail, figures with captions, and opens external links in a new tab', async () => {
      const { page } = await session.open(width);
      await page.goto(`${session.origin}${prefix}/blog/tech/docker`);
      expect(await page.locator('.breadcrumb li').count()).toBe(3);
      expect(await page.locator('.prose figure figcaption').count()).toBeGreaterThanOrEqual(1);
      const external = page.locator('.prose a[href^="https://"]');
      expect(await external.count()).toBeGreaterThan(3);
      expect(await external.first().getAttribute('target')).toBe('_blank');
      await page.context().close();
    });

    it("an article colours its code in either scheme, names each block's language, and copies a block with its button", async () => {
      const grounds: Record<string, number> = {};
      for (const colorScheme of ['dark', 'light'] as const) {
        const opened = await session.open(width, { colorScheme });
        await opened.page.goto(`${session.origin}${prefix}/blog/tech/docker`);
        const colours = await opened.page
          .locator('.code-block')
          .first()
          .evaluate((element) => {
            const colour = (selector: string) => getComputedStyle(element.querySelector(selector) as Element).color;
            return {
              text: colour('code'),
              keyword: colour('.hljs-keyword'),
              number: colour('.hljs-number'),
              ground: getComputedStyle(element.querySelector('pre') as Element).backgroundColor,
              name: getComputedStyle(element.querySelector('.code-block__bar') as Element, '::before').content,
            };
          });
        expect(colours.name).toBe('"Dockerfile"');
        expect(new Set([colours.text, colours.keyword, colours.number]).size, colorScheme).toBe(3);
        // The sum of the block's red, green and blue: a light ground in the light scheme, a dark one in the dark.
        grounds[colorScheme] = (colours.ground.match(/\d+/g) ?? []).slice(0, 3).reduce((sum, c) => sum + Number(c), 0);
        expect(opened.problems).toEqual([]);
        await opened.page.context().close();
      }
      expect(grounds.light).toBeGreaterThan(600);
      expect(grounds.dark).toBeLessThan(150);
      const { page, problems } = await session.open(width, { colorScheme: 'light' });
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: session.origin });
      await page.goto(`${session.origin}${prefix}/blog/tech/docker`);
      const block = page.locator('.code-block').first();
      // Found by its place: its name changes as it is used.
      const button = block.locator('.code-block__bar button');
      expect(await block.getByRole('button', { name: lang === 'en' ? 'Copy' : 'Copiar' }).count()).toBe(1);
      await button.click();
      await expect.poll(() => button.innerText()).toBe(lang === 'en' ? 'Copied' : 'Copiado');
      expect(await block.getByRole('status').innerText()).toBe(lang === 'en' ? 'Copied' : 'Copiado');
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      expect(copied).toBe(await block.locator('pre').innerText());
      expect(copied).toMatch(/^FROM python:3\.11-slim\n/);
      await expect.poll(() => button.innerText(), { timeout: 4000 }).toBe(lang === 'en' ? 'Copy' : 'Copiar');
      expect(problems).toEqual([]);
      await page.context().close();
    });

    it.each(['light', 'dark'] as const)(
      'an article shows its reading time, each section heading as a link to itself, and the articles before and after it, in the %s scheme',
      async (colorScheme) => {
        const { page, problems } = await session.open(width, { colorScheme });
        await page.goto(`${session.origin}${prefix}/blog/tech/docker`);
        expect(await page.locator('.article__meta').innerText()).toMatch(
          lang === 'en' ? /· \d+ min read$/ : /· \d+ min de leitura$/,
        );
        // The heading is a link to itself, named by its words, and takes the reader to the section.
        const heading = page.locator('.prose h2').nth(1);
        const [id, title] = [await heading.getAttribute('id'), await heading.innerText()];
        const link = heading.getByRole('link', { name: title, exact: true });
        // Its words are the link's: the heading is named by them once.
        expect(await page.getByRole('heading', { name: title, exact: true }).count()).toBe(1);
        expect(await link.getAttribute('href')).toBe(`#${id}`);
        await heading.hover();
        await link.click();
        expect(new URL(page.url()).hash).toBe(`#${encodeURIComponent(id ?? '')}`);
        // Scrolled to (smoothly), below the sticky toolbar.
        await expect.poll(async () => (await heading.boundingBox())!.y).toBeLessThan(150);
        const around = page.getByRole('navigation', {
          name: lang === 'en' ? 'More in this category' : 'Mais nesta categoria',
        });
        const [previous, next] = [around.locator('a[rel="prev"]'), around.locator('a[rel="next"]')];
        expect(await previous.getAttribute('href')).toBe(`${prefix}/blog/tech/deploydockerflaskazure`);
        expect(await next.getAttribute('href')).toBe(`${prefix}/blog/tech/DynamicsCEWebAPIQueries`);
        expect(await previous.innerText()).toContain(lang === 'en' ? 'Previous article' : 'Artigo anterior');
        expect(await next.innerText()).toContain(lang === 'en' ? 'Next article' : 'Artigo seguinte');
        // Side by side on a desktop, one above the other on a phone.
        // Both measured at once: the page may still be scrolling.
        const [a, b] = await around
          .locator('a')
          .evaluateAll((links) => links.map((link) => link.getBoundingClientRect().toJSON() as DOMRect));
        if (!a || !b) throw new Error('the article has no previous and next links');
        if (width === 1280) expect(b.y).toBe(a.y);
        else expect(b.y).toBeGreaterThanOrEqual(a.y + a.height);
        await next.click();
        await page.waitForURL(`${session.origin}${prefix}/blog/tech/DynamicsCEWebAPIQueries`);
        await page.goto(`${session.origin}${prefix}/blog/tech`);
        expect(await page.locator('.article-list__meta').first().innerText()).toMatch(
          lang === 'en' ? /· \d+ min read$/ : /· \d+ min de leitura$/,
        );
        expect(problems).toEqual([]);
        await page.context().close();
      },
    );
  });
});

describe('language warning into Portuguese', () => {
  it('shows "Aviso" in Portuguese on an English-only page, and stays', async () => {
    const { page } = await session.open(375);
    await page.goto(`${session.origin}/blog/tech/orm`);
    await page.locator('.toolbar .lang-switch button[lang="pt"]').click();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.innerText()).toContain('Aviso');
    expect(await alert.innerText()).toContain('Esta página ainda não está disponível em português.');
    expect(page.url()).toBe(`${session.origin}/blog/tech/orm`);
    await page.context().close();
  });
});

describe('keyboard', () => {
  it('turns a rotating card with Enter on a small screen', async () => {
    const { page } = await session.open(375);
    await page.goto(`${session.origin}/aboutme`);
    const card = page.locator('#projects .flip');
    // The card is a toggle button in the served HTML already; Enter turns it once it is hydrated.
    await hydrated(page);
    expect(await card.getAttribute('role')).toBe('button');
    await card.focus();
    await page.keyboard.press('Enter');
    expect(await card.getAttribute('aria-pressed')).toBe('true');
    await page.context().close();
  });
});

describe('narrow screens', () => {
  it('never scroll sideways at 320 px, on any page kind in either language', async () => {
    const { page } = await session.open(320, { height: 700 });
    const urls = [
      '/aboutme',
      '/pt/professional',
      '/projects',
      '/pt/atelier',
      '/blog',
      '/pt/blog/tech',
      '/blog/gastronomy',
      '/pt/blog/photos',
      '/pt/blog/finances/etfs',
      '/blog/tech/DynamicsCEWebAPIQueries',
      '/pt/blog/books/DangerousLiaisons',
      '/blog/books/MozartLifeWork',
      '/pt/nada',
    ];
    for (const url of urls) {
      await page.goto(session.origin + url);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), url).toBeLessThanOrEqual(320);
    }
    await page.context().close();
  });
});
