import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  articleTitleMatch,
  postingsOf,
  significantWords,
  type TitleMatch,
  titleIndex,
  titleMatcher,
} from '../../../src/check/linkText';
import type { Article, Site } from '../../../src/model/site';
import type { Lang } from '../../../src/shared/lang';
import type { Route } from '../../../src/shared/route';

/**
 * LINK004 as it was first written, kept as the reference: for each link, every article's cover of
 * the text's words, worked out anew. The indexed `titleMatcher` must answer as it does.
 */
function referenceMatch(site: Site, text: string, target: Route, lang: Lang): TitleMatch {
  const titleWords = (article: Article) =>
    new Set(Object.values(article.editions).flatMap((e) => [...significantWords(e.source.frontMatter.title)]));
  const coverage = (article: Article, words: ReadonlySet<string>) => {
    const titles = titleWords(article);
    const slug = article.slug.toLowerCase();
    return new Set([...words].filter((w) => titles.has(w) || slug.includes(w)));
  };
  if (target.component !== 'article') return undefined;
  const words = significantWords(text);
  if (words.size < 2) return undefined;
  const targetArticle = site.articleByPath.get(target.path);
  if (!targetArticle) return undefined;
  const targetCover = coverage(targetArticle, words);
  const missing = [...words].filter((w) => !targetCover.has(w));
  if (missing.length === 0) return undefined;
  let best: { article: Article; size: number } | undefined;
  for (const article of site.articles) {
    if (article === targetArticle) continue;
    const cover = coverage(article, words);
    if (
      cover.size >= 2 &&
      cover.size > targetCover.size &&
      missing.every((w) => cover.has(w)) &&
      (!best || cover.size > best.size)
    ) {
      best = { article, size: cover.size };
    }
  }
  if (!best) return undefined;
  const edition = best.article.editions[lang] ?? Object.values(best.article.editions)[0];
  return { title: edition?.source.frontMatter.title ?? best.article.slug, path: best.article.route.path };
}

interface ArticleSpec {
  slug: string;
  titles: { en?: string; pt?: string };
}

/** An article as much as LINK004 reads of it: its route, slug and the titles of its editions. */
function article(spec: ArticleSpec, at: number): Article {
  const path = `/blog/c${at % 3}/${spec.slug}`;
  const editions = Object.fromEntries(
    Object.entries(spec.titles).map(([lang, title]) => [lang, { lang, source: { frontMatter: { title } } }]),
  );
  return {
    route: { path, component: 'article' },
    category: `c${at % 3}`,
    slug: spec.slug,
    editions,
  } as unknown as Article;
}

function site(specs: readonly ArticleSpec[]): Site {
  const articles = specs.map(article);
  // Two slugs may be equal across categories; the path keeps them apart.
  return { articles, articleByPath: new Map(articles.map((a) => [a.route.path, a])) } as unknown as Site;
}

/**
 * Few words, so that titles, slugs and link texts share many: accents, capitals, stopwords,
 * numbers, words inside others ("dock" in "docker") and words too short to count.
 */
const WORD = fc.constantFrom(
  'docker',
  'Docker',
  'dock',
  'volumes',
  'volume',
  'música',
  'musica',
  'git',
  'the',
  'about',
  'on',
  '2023',
  '023',
  'flask',
  'azure',
  'café',
  'KAFE',
  'compose',
  'notes',
  'a',
);
const phrase = (min: number, max: number) =>
  fc
    .tuple(fc.array(WORD, { minLength: min, maxLength: max }), fc.constantFrom(' ', ', ', ': ', '-'))
    .map(([words, between]) => words.join(between));
const SLUG = fc
  .array(
    fc.constantFrom('docker', 'dock', 'git', 'flask', 'azure', 'vol', 'umes', 'musica', '2023', 'X', 'Kafe', 'é'),
    { minLength: 1, maxLength: 4 },
  )
  .map((parts) => parts.join(''));
const TITLES = fc.oneof(
  fc.record({ en: phrase(1, 5), pt: phrase(1, 5) }),
  fc.record({ pt: phrase(1, 5) }),
  fc.record({ en: phrase(1, 5) }),
);
const SPEC: fc.Arbitrary<ArticleSpec> = fc.record({ slug: SLUG, titles: TITLES });
const LINK = fc.record({
  text: phrase(0, 6),
  target: fc.nat(),
  lang: fc.constantFrom<Lang>('en', 'pt'),
  page: fc.boolean(),
});

describe('LINK004: the article a link text names (titleMatcher)', () => {
  it('answers as the scan over every article did, on random small sites and texts', () => {
    fc.assert(
      fc.property(
        fc.array(SPEC, { minLength: 1, maxLength: 12 }),
        fc.array(LINK, { minLength: 1, maxLength: 10 }),
        (specs, links) => {
          const s = site(specs);
          const match = titleMatcher(s);
          for (const link of links) {
            const target = link.page
              ? ({ path: '/projects', component: 'projects' } as unknown as Route)
              : (s.articles[link.target % s.articles.length] as Article).route;
            expect(match(link.text, target, link.lang)).toEqual(referenceMatch(s, link.text, target, link.lang));
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('answers the same from the index of the site before some of its articles were retitled, carried over', () => {
    fc.assert(
      fc.property(
        fc.array(SPEC, { minLength: 1, maxLength: 12 }),
        fc.array(fc.record({ at: fc.nat(), titles: TITLES }), { minLength: 1, maxLength: 4 }),
        fc.array(LINK, { minLength: 1, maxLength: 10 }),
        (specs, retitlings, links) => {
          const retitled = [...specs];
          for (const { at, titles } of retitlings)
            retitled[at % specs.length] = { slug: (specs[at % specs.length] as ArticleSpec).slug, titles };
          const after = site(retitled);
          const carried = titleIndex(after, titleIndex(site(specs)));
          const fresh = titleIndex(after);
          expect(carried.titled).toEqual(fresh.titled);
          for (const link of links)
            for (const word of significantWords(link.text))
              expect(postingsOf(carried, word)).toEqual(postingsOf(fresh, word));
          for (const link of links) {
            const target = (after.articles[link.target % after.articles.length] as Article).route;
            expect(articleTitleMatch(carried, link.text, target, link.lang)).toEqual(
              referenceMatch(after, link.text, target, link.lang),
            );
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('names the article that covers the words its target lacks, the first of equals', () => {
    const s = site([
      { slug: 'docker', titles: { en: 'Docker in practice' } },
      { slug: 'deploydockerflaskazure', titles: { en: 'Deploy a Flask app on Azure', pt: 'Publicar Flask no Azure' } },
      { slug: 'flaskazure', titles: { en: 'Flask on Azure' } },
    ]);
    const match = titleMatcher(s);
    const docker = (s.articles[0] as Article).route;
    // "docker" is in the second one's slug, "flask" and "azure" in its titles: three words to the target's one.
    expect(match('Flask with Docker on Azure', docker, 'pt')).toEqual({
      title: 'Publicar Flask no Azure',
      path: '/blog/c1/deploydockerflaskazure',
    });
    expect(match('Flask on Azure', docker, 'en')).toEqual({
      title: 'Deploy a Flask app on Azure',
      path: '/blog/c1/deploydockerflaskazure',
    });
    expect(match('Docker in practice', docker, 'en')).toBeUndefined();
    expect(match('here', docker, 'en')).toBeUndefined();
  });
});
