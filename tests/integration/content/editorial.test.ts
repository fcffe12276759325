import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { loadSite } from '../../../src/build/pipeline';
import { proseOf, registerMarks } from '../../../src/markdown/register';
import type { ArticleEdition } from '../../../src/model/site';
import type { Lang } from '../../../src/shared/lang';
import { PROJECT_ROOT } from '../../support/content';

/**
 * What a careful reader and editor would catch (issue 16): one Portuguese voice, one spelling and
 * one number format per language, articles that show only what existed on their date, captions
 * that say what the drawings show, and the facts of docs/product.md.
 */

// SITE_TEST_ROOT tries the suite on another site folder, as the global build does.
const { site } = await loadSite(process.env.SITE_TEST_ROOT ?? PROJECT_ROOT);
if (!site) throw new Error('the real content does not load');
const distDir = inject('distDir');
const page = (url: string) => readFile(path.join(distDir, `${url.slice(1)}.html`), 'utf8');

interface Text {
  where: string;
  lang: Lang;
  text: string;
}

/** Every text of the JSON content, in each language it is written in. */
function jsonTexts(): Text[] {
  const texts: Text[] = [];
  const walk = (value: unknown, where: string) => {
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) walk(item, `${where}[${i}]`);
    } else if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        if ((key === 'en' || key === 'pt') && (typeof child === 'string' || Array.isArray(child))) {
          for (const text of [child].flat())
            if (typeof text === 'string') texts.push({ where: `${where}.${key}`, lang: key, text });
        } else walk(child, `${where}.${key}`);
      }
    }
  };
  const { content } = site!;
  walk(content.strings, 'strings.json');
  walk(content.navigation, 'navigation.json');
  walk(content.owner, 'owner.json');
  for (const [name, data] of Object.entries(content.pages)) walk(data, `pages/${name}.json`);
  for (const category of site!.categories.values()) walk(category.data, `categories/${category.key}.json`);
  return texts;
}

const editions: ArticleEdition[] = site.articles.flatMap((a) => Object.values(a.editions));

/** Every article edition's own words: title, description and body, code and quotations left out. */
function articleTexts(): Text[] {
  return editions.flatMap((e) => [
    { where: `${e.url} (title)`, lang: e.lang, text: e.source.frontMatter.title },
    ...(e.source.frontMatter.description
      ? [{ where: `${e.url} (description)`, lang: e.lang, text: e.source.frontMatter.description }]
      : []),
    { where: e.url, lang: e.lang, text: proseOf(e.source.body) },
  ]);
}

const allTexts = [...jsonTexts(), ...articleTexts()];
const found = (texts: Text[], re: RegExp) =>
  texts.flatMap((t) => [...t.text.matchAll(re)].map((m) => `${t.where}: ${m[0]}`));

/** The fenced code blocks of an edition, with their language. */
const codeBlocks = (e: ArticleEdition) =>
  [...e.source.body.matchAll(/^```(\w*)\n([\s\S]*?)^```/gm)].map((m) => ({ lang: m[1]!, code: m[2]! }));

describe('one Portuguese voice', () => {
  it('speaks to the reader as tu (or in neutral infinitives) in every Portuguese text, never as você', () => {
    const voce = allTexts
      .filter((t) => t.lang === 'pt')
      .flatMap((t) =>
        registerMarks(t.text)
          .filter((m) => m.register === 'você')
          .map((m) => `${t.where}: ${m.words}`),
      );
    expect(voce).toEqual([]);
  });

  it('offers the Portuguese edition in Portuguese words that fit the same voice', () => {
    // The link to the other edition is shown on English pages, written in Portuguese.
    expect(
      registerMarks(site.content.strings['article.otherLanguage'].en ?? '').filter((m) => m.register === 'você'),
    ).toEqual([]);
  });
});

describe('one spelling and one number format per language', () => {
  it('writes GitHub, except the original\'s section title "Github Actions" and the links that open that section', () => {
    const withoutCode = (body: string) => body.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
    const bodies = editions.map((e) => ({
      where: e.url,
      lang: e.lang,
      text: withoutCode(e.source.body)
        .replace(/^## Github Actions$/gm, '')
        .replaceAll('[Github Actions](/blog/tech/Git#github-actions)', ''),
    }));
    expect(
      found([...jsonTexts(), ...bodies, ...articleTexts().filter((t) => t.where.endsWith(')'))], /Github/g),
    ).toEqual([]);
  });

  it('writes the Portuguese headings of the pages in sentence case', () => {
    const { professional, atelier, aboutme } = site.content.pages;
    const headings = [
      professional.experienceTitle,
      professional.skillsTitle,
      professional.valuesTitle,
      ...professional.experiences.map((x) => x.title),
      ...professional.skills.map((s) => s.title),
      ...professional.values.map((v) => v.title),
      atelier.videosTitle,
      atelier.articlesTitle,
      ...atelier.playlists.map((p) => p.title),
      aboutme.intro.title,
      aboutme.mediaTitle,
      aboutme.hobbies.title,
      ...aboutme.sections.map((s) => s.heading),
    ].map((h) => h.pt ?? '');
    // Names keep their capitals: products, acronyms, and the menu's own "Sobre Mim" (docs/product.md).
    const NAMES = new Set(['Mim', 'Power', 'Platform', 'Dynamics', 'Azure', 'PLN', 'MS', 'Medium']);
    const titleCase = headings.filter((h) =>
      h
        .split(/\s+/)
        .slice(1)
        .some((w) => /^\p{Lu}\p{Ll}/u.test(w) && !NAMES.has(w.replace(/\W+$/u, ''))),
    );
    expect(titleCase).toEqual([]);
  });

  it('writes "blog" in Portuguese, never "blogue"', () => {
    expect(
      found(
        allTexts.filter((t) => t.lang === 'pt'),
        /\bblogues?\b/gi,
      ),
    ).toEqual([]);
  });

  it('names products as their makers do and technical terms as Portuguese readers know them', () => {
    /** A name or word, the languages it is wrong in, and what is written instead. */
    const MISNAMED: [RegExp, Lang[], string][] = [
      [/App Service for Containers/g, ['en', 'pt'], 'Web App for Containers, Azure’s name'],
      [/\banfitri(?:ão|ões)\b/gi, ['pt'], 'servidor (host): anfitrião renders an Internet host word for word'],
    ];
    const misnamed = MISNAMED.flatMap(([re, langs, instead]) =>
      found(
        allTexts.filter((t) => langs.includes(t.lang)),
        re,
      ).map((where) => `${where} (write ${instead})`),
    );
    expect(misnamed).toEqual([]);
  });

  it('groups thousands with a comma in English and a space in Portuguese, and never leaves a long number ungrouped', () => {
    expect(
      found(
        allTexts.filter((t) => t.lang === 'en'),
        /(?<![\d.,])\d{1,3}(?:[ .\u00a0\u202f]\d{3})+(?![\d.,])/g,
      ),
    ).toEqual([]);
    expect(
      found(
        allTexts.filter((t) => t.lang === 'pt'),
        /(?<![\d.,])\d{1,3}(?:\.\d{3})+(?![\d.,])/g,
      ),
    ).toEqual([]);
    expect(found(allTexts, /(?<![\d.,:/-])\d{5,}(?![\d.,:/-])/g)).toEqual([]);
  });
});

describe('articles that show what existed on their date', () => {
  /** Tools and names in the tech articles, and the day each first existed. */
  const FIRST_RELEASED: [RegExp, string, string][] = [
    [/actions\/checkout@v4\b/, '2023-09-04', 'actions/checkout v4'],
    [/actions\/setup-node@v4\b/, '2023-09-04', 'actions/setup-node v4 (after checkout v4)'],
    [/node-version: ['"]?20\b/, '2023-04-18', 'Node.js 20'],
    [/node-version: ['"]?22\b/, '2024-04-24', 'Node.js 22'],
    [/python:3\.12\b/, '2023-10-02', 'Python 3.12'],
    [/python:3\.13\b/, '2024-10-07', 'Python 3.13'],
    [/postgres:16\b/, '2023-09-14', 'PostgreSQL 16'],
    [/postgres:17\b/, '2024-09-26', 'PostgreSQL 17'],
    [/\.NET 8\b|net8\.0|DOTNETCORE:8\.0/, '2023-11-14', '.NET 8'],
    [/\.NET 9\b|net9\.0|DOTNETCORE:9\.0/, '2024-11-12', '.NET 9'],
    [/Microsoft Entra ID/, '2023-07-11', 'the name Microsoft Entra ID (Azure AD until then)'],
  ];

  it('names no tool, version or product name before it was released', () => {
    const early = editions.flatMap((e) =>
      FIRST_RELEASED.filter(([re, released]) => re.test(e.source.body) && e.source.frontMatter.date < released).map(
        ([, released, name]) => `${e.url} (${e.source.frontMatter.date}) shows ${name}, released ${released}`,
      ),
    );
    expect(early).toEqual([]);
  });

  /**
   * Documentation pages that moved to a new address, and the day the new address is known to exist:
   * the date of the pull request that moved the page or, where that is not known, the first sign of
   * the new address. An article dated before links the page where it was then.
   */
  const DOCS_MOVED: { at: RegExp; since: string; before: string; source: string }[] = [
    {
      at: /^docs\.docker\.com\/reference\/dockerfile\//,
      since: '2024-04-05',
      before: 'docs.docker.com/engine/reference/builder/',
      source: 'docker/docs#19746 redirects the old address',
    },
    {
      at: /^docs\.docker\.com\/build\/building\/best-practices\//,
      since: '2024-06-05',
      before: 'docs.docker.com/develop/develop-images/dockerfile_best-practices/',
      source: 'docker/docs#20150',
    },
    {
      at: /^docs\.docker\.com\/engine\/storage\//,
      since: '2024-08-11',
      before: 'docs.docker.com/storage/',
      source: 'docker/docs#20573',
    },
    {
      at: /^docs\.docker\.com\/reference\/compose-file\//,
      since: '2024-08-19',
      before: 'docs.docker.com/compose/compose-file/',
      source: 'docker/docs#20641',
    },
    {
      at: /^developer\.mozilla\.org\/[^/]+\/docs\/Web\/HTTP\/Guides\//,
      since: '2025-03-14',
      before: 'developer.mozilla.org/…/docs/Web/HTTP/',
      source: 'mdn/content#38555, live by mdn/rari#155',
    },
    {
      at: /^developer\.mozilla\.org\/[^/]+\/docs\/Web\/HTTP\/Reference\//,
      since: '2025-03-14',
      before: 'developer.mozilla.org/…/docs/Web/HTTP/',
      source: 'mdn/content#38555, live by mdn/rari#155',
    },
  ];

  it('links each documentation page at the address it had on the article’s date', () => {
    const early = editions.flatMap((e) =>
      e.body.references
        .filter((r) => r.kind === 'link' && /^https?:\/\//.test(r.href))
        .flatMap((r) => {
          const url = new URL(r.href);
          const address = `${url.host}${url.pathname}`;
          return DOCS_MOVED.filter(({ at, since }) => at.test(address) && e.source.frontMatter.date < since).map(
            ({ since, before, source }) =>
              `${e.url} (${e.source.frontMatter.date}) links ${address}, an address since ${since} (${source}); the page was under ${before} then`,
          );
        }),
    );
    expect(early).toEqual([]);
  });

  it('links to no article published after it', () => {
    const dateOf = new Map(
      site.articles.map((a) => [a.route.path, a.editions[a.route.meta.availableLangs[0]!]!.source.frontMatter.date]),
    );
    const later = editions.flatMap((e) =>
      e.body.references
        .filter((r) => r.kind === 'link')
        .map((r) => r.href.split('#')[0]!)
        .filter((target) => (dateOf.get(target) ?? '') > e.source.frontMatter.date)
        .map((target) => `${e.url} (${e.source.frontMatter.date}) -> ${target} (${dateOf.get(target)})`),
    );
    expect(later).toEqual([]);
  });

  it("shows the same code in both editions of a tech article, comments and the example front matter's words aside", () => {
    const normal = (code: string) =>
      code
        .replace(/(^|\s)(#|\/\/).*$/gm, '$1')
        .replace(/^(title|description): .*$/gm, '$1:')
        .trimEnd();
    for (const article of site.articles.filter((a) => a.category === 'tech' && a.editions.en && a.editions.pt)) {
      const en = codeBlocks(article.editions.en!).map((b) => normal(b.code));
      const pt = codeBlocks(article.editions.pt!).map((b) => normal(b.code));
      expect(pt, article.route.path).toEqual(en);
    }
  });

  it('never starts a PostgreSQL container without the password its image requires', () => {
    const missing = editions.flatMap((e) =>
      codeBlocks(e).flatMap(({ lang, code }) => {
        if (lang === 'bash') {
          const commands = code.replace(/\\\n/g, ' ').split('\n');
          return commands
            .filter(
              (c) => /docker run\b.*\bpostgres:/.test(c) && !/POSTGRES_PASSWORD=|POSTGRES_HOST_AUTH_METHOD=/.test(c),
            )
            .map((c) => `${e.url}: ${c.trim()}`);
        }
        if (
          lang === 'yaml' &&
          /image: postgres/.test(code) &&
          !/POSTGRES_PASSWORD|POSTGRES_HOST_AUTH_METHOD/.test(code)
        )
          return [`${e.url}: a compose service on the postgres image`];
        return [];
      }),
    );
    expect(missing).toEqual([]);
  });
});

describe('captions that say what is shown', () => {
  const PHOTO_CLAIM =
    /\b(my copy|meu exemplar|my camera|minha câmara|photograph(ed)?|fotografad[ao]|fotografia minha)\b|^(Me|Eu) /i;

  it("describe the drawings of the articles as drawings, not as photographs or the author's copy", () => {
    const claims = editions.flatMap((e) =>
      [...e.source.body.matchAll(/^::figure\[([^\]]*)\]\{[^}]*src="([^"]+)"[^}]*alt="([^"]*)"/gm)]
        .filter((m) => m[2]!.endsWith('.svg'))
        .flatMap((m) => [m[1]!, m[3]!])
        .filter((text) => PHOTO_CLAIM.test(text))
        .map((text) => `${e.url}: ${text}`),
    );
    expect(claims).toEqual([]);
  });

  it('describe the illustrated portrait and the photo gallery without claiming a camera', () => {
    const { portrait } = site.content.pages.aboutme.intro;
    const texts = [
      portrait.description.en,
      portrait.description.pt,
      site.categories.get('photos')!.data.description.en,
      site.categories.get('photos')!.data.description.pt,
    ];
    expect(texts.filter((t) => PHOTO_CLAIM.test(t))).toEqual([]);
  });
});

describe('the facts of docs/product.md and real sources', () => {
  it("gives each experience the period of docs/product.md's table, and no text ends the Microsoft one", () => {
    const periods = Object.fromEntries(site.content.pages.professional.experiences.map((x) => [x.name, x.period?.en]));
    expect(periods).toEqual({
      Siemens: 'Since August 2023',
      Microsoft: 'Since October 2021',
      Trash4Goods: 'October 2019 to September 2021',
      Syone: 'July to August 2019',
      JUNITEC: 'September 2018 to December 2020',
    });
    expect(found(allTexts, /July 2023|julho de 2023|two years at Microsoft|dois anos na Microsoft/g)).toEqual([]);
  });

  it('shows four quotes in the carousel, none of them a popular misattribution', () => {
    const { quotes, sections } = site.content.pages.aboutme;
    expect(quotes).toHaveLength(4);
    const MISATTRIBUTED = [
      /Learning never exhausts the mind/i,
      /Pleasure in the job puts perfection in the work/i,
      /Nothing is particularly hard if you divide it into small jobs/i,
    ];
    const shown = [...quotes.map((q) => q.text.en), ...sections.map((s) => s.card.quote?.en ?? '')];
    expect(shown.filter((q) => MISATTRIBUTED.some((re) => re.test(q)))).toEqual([]);
  });

  it('lists the ORM page, an empty page with only its heading, without a description and not first', async () => {
    const orm = site.articleByPath.get('/blog/tech/orm')!;
    expect(orm.editions.en!.source.frontMatter.description).toBeUndefined();
    const listing = await page('/blog/tech');
    const entries = [...listing.matchAll(/<li[^>]*>([\s\S]*?)<\/li>/g)]
      .map((m) => m[1]!)
      .filter((li) => li.includes('href="/blog/tech/'));
    expect(entries[0]).not.toContain('href="/blog/tech/orm"');
    expect(entries.find((li) => li.includes('href="/blog/tech/orm"'))).not.toContain('article-list__description');
  });

  it('reviews a real, findable Mozart biography, named with its author, publisher, year and edition', () => {
    for (const lang of ['en', 'pt'] as const) {
      const body = site.articleByPath.get('/blog/books/MozartLifeWork')!.editions[lang]!.source.body;
      for (const fact of ['*Mozart: A Life*', 'Maynard Solomon', 'HarperCollins', '1995'])
        expect(body, `${lang} ${fact}`).toContain(fact);
      expect(body, lang).toMatch(/first edition|primeira edição/);
    }
  });

  it('reports the Easter concert without a made-up name for its performers', () => {
    const body = site.articleByPath.get('/blog/culture/easterconcert2023')!.editions.pt!.source.body;
    expect(body).not.toMatch(/a que chamarei|Aurora Barroca/);
  });

  it('gets the small facts right: Mateo Zoryon, and the taxa especial on foreign dividends', () => {
    for (const lang of ['en', 'pt'] as const)
      expect(site.articleByPath.get('/blog/cinema/Fablemans')!.editions[lang]!.source.body, lang).toContain(
        'Mateo Zoryon Francis-DeFord',
      );
    const etfs = site.articleByPath.get('/blog/finances/etfs')!.editions.pt!.source.body;
    expect(etfs).toContain('taxa especial de 28 %');
    expect(etfs).not.toContain('taxa autónoma');
  });
});
