import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { loadSite } from '../../../src/build/pipeline';
import { PROJECT_ROOT } from '../../support/content';

const { site } = await loadSite(PROJECT_ROOT);
if (!site) throw new Error('the real content does not load');
const distDir = inject('distDir');
const page = (url: string) => readFile(path.join(distDir, `${url.slice(1)}.html`), 'utf8');

/** docs/product.md, Pages ("Articles"), with the case of each path exactly as written there. */
const ARTICLES: Record<string, string[]> = {
  '/blog/culture/casafernandopessoa': ['pt'],
  '/blog/culture/gulbenkian': ['pt'],
  '/blog/culture/easterconcert2023': ['pt'],
  '/blog/culture/mmipo': ['pt'],
  '/blog/culture/impressivemonetbrilliantklimt': ['pt'],
  '/blog/finances/etfs': ['pt'],
  '/blog/finances/euribortantaegspreads': ['pt'],
  '/blog/fitness/runningshoes': ['pt'],
  '/blog/cinema/Fassbinder': ['en', 'pt'],
  '/blog/cinema/FemmeMariee': ['en', 'pt'],
  '/blog/cinema/ApocalypseNow': ['en', 'pt'],
  '/blog/cinema/Fablemans': ['en', 'pt'],
  '/blog/tech/Site': ['en', 'pt'],
  '/blog/tech/DynamicsCEWebAPIQueries': ['en', 'pt'],
  '/blog/tech/dotnetWebAPIAzure': ['en', 'pt'],
  '/blog/tech/deploydockerflaskazure': ['en', 'pt'],
  '/blog/tech/docker': ['en', 'pt'],
  '/blog/tech/cookies': ['en', 'pt'],
  '/blog/tech/Git': ['en', 'pt'],
  '/blog/tech/pages2static': ['pt'],
  '/blog/tech/orm': ['en'],
  '/blog/books/DangerousLiaisons': ['en', 'pt'],
  '/blog/books/MozartLifeWork': ['en', 'pt'],
};

const edition = (routePath: string, lang: 'en' | 'pt') =>
  site.articles.find((a) => a.route.path === routePath)?.editions[lang];

describe('the articles of docs/product.md', () => {
  it('exist at their exact paths in exactly the languages docs/product.md gives each', () => {
    for (const [routePath, langs] of Object.entries(ARTICLES)) {
      expect(site.routeByPath.get(routePath)?.meta.availableLangs, routePath).toEqual(langs);
    }
  });

  it('include at least two opinions in English and Portuguese', () => {
    const opinions = site.articles.filter((a) => a.category === 'opinions');
    expect(opinions.length).toBeGreaterThanOrEqual(2);
    for (const article of opinions) expect(article.route.meta.availableLangs).toEqual(['en', 'pt']);
  });

  it('are each listed on their category page in each of their languages', async () => {
    for (const article of site.articles) {
      for (const ed of Object.values(article.editions)) {
        // Category pages are bilingual: the Portuguese listing is always under /pt.
        const listing = await page(ed.lang === 'pt' ? `/pt/blog/${article.category}` : `/blog/${article.category}`);
        expect(listing, ed.url).toContain(`href="${ed.url}"`);
      }
    }
  });

  it('have a figure with a caption in each edition, except the ORM page', () => {
    for (const article of site.articles) {
      if (article.route.path === '/blog/tech/orm') continue;
      for (const ed of Object.values(article.editions))
        expect(ed.body.html, ed.url).toMatch(
          /<figure class="figure"[^>]*><img [^>]*alt="[^"]+"[^>]*><figcaption>[^<]+/,
        );
    }
  });
});

describe('countable facts', () => {
  it('DangerousLiaisons has 19 numbered quotes and a glossary of 22 words in both editions', () => {
    for (const lang of ['en', 'pt'] as const) {
      const html = edition('/blog/books/DangerousLiaisons', lang)!.body.html;
      const lists = [...html.matchAll(/<ol>([\s\S]*?)<\/ol>/g)].map((m) => (m[1]!.match(/<li>/g) ?? []).length);
      expect(lists, lang).toContain(19);
      const glossary = html.slice(html.search(/<h2 id="gloss[^"]*">/));
      const rows = (/<tbody>([\s\S]*?)<\/tbody>/.exec(glossary)?.[1]?.match(/<tr>/g) ?? []).length;
      expect(rows, lang).toBe(22);
    }
  });

  it('gives ETFs, Git, Docker-Flask-Azure, the Dynamics queries and Pages-to-Azure an index whose entries all reach a section', async () => {
    const withIndex = [
      '/blog/finances/etfs',
      '/blog/tech/Git',
      '/pt/blog/tech/Git',
      '/blog/tech/deploydockerflaskazure',
      '/pt/blog/tech/deploydockerflaskazure',
      '/blog/tech/DynamicsCEWebAPIQueries',
      '/pt/blog/tech/DynamicsCEWebAPIQueries',
      '/blog/tech/pages2static',
    ];
    for (const url of withIndex) {
      const html = await page(url);
      const nav = /<nav class="article__index"[\s\S]*?<\/nav>/.exec(html)?.[0] ?? '';
      const targets = [...nav.matchAll(/href="#([^"]+)"/g)].map((m) => m[1]!);
      expect(targets.length, url).toBeGreaterThanOrEqual(3);
      for (const id of targets) expect(html, `${url}#${id}`).toContain(`id="${id}"`);
    }
  });

  it('points the Docker page at the Flask-on-Azure article, in each language', async () => {
    expect(await page('/blog/tech/docker')).toContain('href="/blog/tech/deploydockerflaskazure"');
    expect(await page('/pt/blog/tech/docker')).toContain('href="/pt/blog/tech/deploydockerflaskazure"');
    for (const url of ['/blog/tech/docker', '/pt/blog/tech/docker'])
      expect(await page(url)).not.toMatch(/href="(\/pt)?\/blog\/tech\/dotnetWebAPIAzure"/);
  });

  it("links the Pages-to-Azure article to the Git article's Github Actions section, which exists", async () => {
    expect(await page('/blog/tech/pages2static')).toContain('href="/pt/blog/tech/Git#github-actions"');
    expect(await page('/pt/blog/tech/Git')).toContain('id="github-actions"');
  });

  it('shows the ORM page as its lone heading', async () => {
    const html = await page('/blog/tech/orm');
    expect(html).toContain('<h1>ORM</h1>');
    expect(html).toContain('<div class="prose"></div>');
  });

  it('documents the four Dynamics Web API queries as text, with every field docs/product.md names', () => {
    for (const lang of ['en', 'pt'] as const) {
      const html = edition('/blog/tech/DynamicsCEWebAPIQueries', lang)!.body.html;
      for (const field of [
        'solutioncomponents',
        'AddSolutionComponent',
        'ComponentId',
        'ComponentType',
        'SolutionUniqueName',
        'AddRequiredComponents',
        'DoNotIncludeSubcomponents',
        'IncludedComponentSettingsValues',
        'RemoveSolutionComponent',
        'SolutionComponent',
        'solutioncomponentid',
      ]) {
        expect(html, `${lang} ${field}`).toContain(field);
      }
    }
  });
});
