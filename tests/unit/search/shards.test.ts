import MiniSearch, { type AsPlainObject, type Options } from 'minisearch';
import { describe, expect, it } from 'vitest';
import { indexDocument, shardJson, TermTable } from '../../../src/search/shardIndex';
import { SHARD_SIZE, shardCount, shardOf } from '../../../src/search/shards';
import type { Lang } from '../../../src/shared/lang';
import {
  buildSearchIndex,
  loadSearchIndex,
  type SearchDocument,
  searchIn,
  searchIndexFromShards,
  searchOptions,
} from '../../../src/shared/search';

const WORDS: Record<Lang, string[]> = {
  en: [
    'build',
    'builds',
    'building',
    'cache',
    'search',
    'index',
    'Música',
    'coffee',
    'roasting',
    'espresso',
    'runner',
    'running',
    'marathon',
    'TypeScript',
    'node',
    "owner's",
    'café',
    'a',
    'of',
  ],
  pt: [
    'construção',
    'construir',
    'música',
    'café',
    'torra',
    'corrida',
    'maratona',
    'índice',
    'busca',
    'pesquisa',
    'código',
    'função',
    'coração',
    'ação',
    'ações',
    'à',
    'de',
    'noite',
    'água',
  ],
};

/** Documents like the blog's: repeated words, accents, punctuation, titles of a few words. */
function documents(lang: Lang, count: number): SearchDocument[] {
  let state = 7;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state;
  };
  const words = (n: number) =>
    Array.from({ length: n }, () => WORDS[lang][next() % WORDS[lang].length]).join(next() % 7 === 0 ? ', ' : ' ');
  return Array.from({ length: count }, (_, i) => {
    const id = `/${lang === 'pt' ? 'pt/' : ''}blog/tech/post${i}`;
    return {
      id,
      endpoint: id,
      title: words(2 + (next() % 5)),
      category: 'Tech',
      text: `${words(5 + (next() % 40))}. ${words(next() % 30)}!`,
    };
  });
}

const QUERIES = [
  'build',
  'musica',
  'cafe',
  'run',
  'espresso roast',
  'typescript node',
  'construç',
  'acoes',
  'água noite',
  'maraton',
  'codigo funcao',
  'owner',
];

/** Every match with its score, best first; equal scores by id (a tie's order is the index's own). */
function ranked(index: ReturnType<typeof buildSearchIndex>, query: string): [string, string][] {
  return index
    .search(query)
    .map((r): [string, string] => [String(r.id), r.score.toFixed(9)])
    .sort((a, b) => Number(b[1]) - Number(a[1]) || (a[0] < b[0] ? -1 : 1));
}

/** The documents split into `count` shards, each written as the build writes it and read back as the reader does. */
function inShards(lang: Lang, docs: SearchDocument[], count: number): AsPlainObject[] {
  const options = searchOptions(lang);
  const table = new TermTable();
  return Array.from({ length: count }, (_, shard) => {
    const held = docs.filter((d) => shardOf(d.id, count) === shard);
    return JSON.parse(
      shardJson(
        options,
        held.map((d) => indexDocument(options, d, table)),
      ).toString(),
    ) as AsPlainObject;
  });
}

/** An index as MiniSearch serializes it, its terms sorted (their order is the index tree's own). */
function canonical(index: AsPlainObject): AsPlainObject {
  return { ...index, index: [...index.index].sort((a, b) => (a[0] < b[0] ? -1 : 1)) };
}

describe('a search index in shards', () => {
  for (const lang of ['en', 'pt'] as const) {
    it(`in ${lang}, joined again, finds and scores every match as one index of all the articles does`, () => {
      const docs = documents(lang, 300);
      const whole = buildSearchIndex(lang, docs);
      const joined = searchIndexFromShards(lang, inShards(lang, docs, 4));
      expect(joined.documentCount).toBe(300);
      for (const query of QUERIES) {
        const expected = ranked(whole, query);
        expect(ranked(joined, query), query).toEqual(expected);
        expect(
          searchIn(joined, query)
            .map((r) => r.id)
            .sort(),
          query,
        ).toEqual(
          searchIn(whole, query)
            .map((r) => r.id)
            .sort(),
        );
      }
      expect(QUERIES.some((query) => ranked(whole, query).length > 10)).toBe(true);
    });
  }

  for (const lang of ['en', 'pt'] as const) {
    it(`in ${lang}, is written as MiniSearch would serialize an index of the same articles`, () => {
      const docs = [
        ...documents(lang, 150),
        {
          id: '/blog/x/edge',
          endpoint: '/blog/x/edge',
          title: '“Quoted” — title',
          category: 'Tech',
          text: ', leading punctuation; "quotes" and \\ backslashes',
        },
      ];
      const [written] = inShards(lang, docs, 1);
      const byMiniSearch = JSON.parse(
        JSON.stringify(
          buildSearchIndex(
            lang,
            [...docs].sort((a, b) => (a.id < b.id ? -1 : 1)),
          ),
        ),
      ) as AsPlainObject;
      expect(canonical(written as AsPlainObject)).toEqual(canonical(byMiniSearch));
    });
  }

  it('counts terms as MiniSearch does when a word stands for several terms or none, the same table counting shard after shard', () => {
    // Words of four letters stand for two terms, shorter ones for none: every path of the counting.
    const options: Options<SearchDocument> = {
      fields: ['title', 'text'],
      storeFields: ['title'],
      processTerm: (term) => {
        const lower = term.toLowerCase();
        if (lower.length < 3) return null;
        return lower.length === 4 ? [lower, [...lower].reverse().join('')] : lower;
      },
    };
    const docs = [
      ...documents('en', 60),
      {
        id: '/blog/x/edge',
        endpoint: '/blog/x/edge',
        title: 'Node node NODE',
        category: 'Tech',
        text: ', a an Node, edon.',
      },
    ];
    const table = new TermTable();
    for (const shard of [docs.slice(0, 30), docs.slice(30)]) {
      const written = JSON.parse(
        shardJson(
          options,
          shard.map((d) => indexDocument(options, d, table)),
        ).toString(),
      ) as AsPlainObject;
      const byMiniSearch = new MiniSearch<SearchDocument>(options);
      byMiniSearch.addAll([...shard].sort((a, b) => (a.id < b.id ? -1 : 1)));
      expect(canonical(written)).toEqual(canonical(JSON.parse(JSON.stringify(byMiniSearch)) as AsPlainObject));
    }
  });

  it("reads MiniSearch's default tokens straight from a text: the terms, counts and lengths its tokenizer's split gives", () => {
    const split = MiniSearch.getDefault('tokenize') as (text: string, field?: string) => string[];
    const keep: Options<SearchDocument> = { fields: ['title', 'text'], processTerm: (term) => term.toLowerCase() };
    const byTokenizer: Options<SearchDocument> = { ...keep, tokenize: split };
    // Letters, accents, digits, spaces and punctuation of every kind, line breaks, a combining
    // mark, characters outside the basic plane (a separator among them), and halves of pairs alone.
    const pieces = [
      ...'abcXYZéÉçãÕß019 ,.;:!?-_#@/\\\'"()[]{}“”‘’«»—–…·¿¡\n\r\t\u00a0\u2028\u2029\u3000、。中文\u0301\u200b',
      'Node',
      'node',
      '\u{1F600}',
      '\u{10100}',
      '\ud800',
      '\udc00',
    ];
    let state = 11;
    const next = () => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state;
    };
    const text = () => Array.from({ length: next() % 14 }, () => pieces[next() % pieces.length]).join('');
    const [direct, split2] = [new TermTable(), new TermTable()];
    for (let i = 0; i < 3000; i++) {
      const document = { id: `/d${i}`, endpoint: '', category: '', title: text(), text: text() };
      const a = indexDocument(keep, document, direct);
      const b = indexDocument(byTokenizer, document, split2);
      expect([a.lengths, a.terms.map(String), a.counts.map(String)], JSON.stringify(document)).toEqual([
        b.lengths,
        b.terms.map(String),
        b.counts.map(String),
      ]);
    }
    expect(direct.size).toBe(split2.size);
    expect(Array.from({ length: direct.size }, (_, id) => direct.term(id))).toEqual(
      Array.from({ length: split2.size }, (_, id) => split2.term(id)),
    );
  });

  it('is read from its list of shards by URL, as the server and the browser read it', async () => {
    const docs = documents('en', 120);
    const shards = inShards('en', docs, 2);
    const files: Record<string, string> = {
      '/search/en.json': JSON.stringify({ shards: ['/search/en/0.json', '/search/en/1.json'] }),
      '/search/en/0.json': JSON.stringify(shards[0]),
      '/search/en/1.json': JSON.stringify(shards[1]),
    };
    const index = await loadSearchIndex('en', async (url) => files[url] ?? Promise.reject(new Error(`no ${url}`)));
    expect(index.documentCount).toBe(120);
    expect(ranked(index, 'marathon')).toEqual(ranked(buildSearchIndex('en', docs), 'marathon'));
  });

  it('has one shard for a blog the size of the owner’s, and one more power of two each time the articles outgrow them', () => {
    expect(shardCount(0)).toBe(1);
    expect(shardCount(SHARD_SIZE)).toBe(1);
    expect(shardCount(SHARD_SIZE + 1)).toBe(2);
    expect(shardCount(4000)).toBe(32);
  });

  it('keeps an article in the shard its URL names, and spreads articles evenly', () => {
    const urls = Array.from({ length: 4000 }, (_, i) => `/blog/tech/post${i}`);
    expect(urls.map((url) => shardOf(url, 16))).toEqual(urls.map((url) => shardOf(url, 16)));
    const sizes = Array.from({ length: 16 }, (_, shard) => urls.filter((url) => shardOf(url, 16) === shard).length);
    expect(Math.min(...sizes)).toBeGreaterThan(4000 / 16 / 2);
    expect(Math.max(...sizes)).toBeLessThan((4000 / 16) * 1.5);
    // When the count doubles, a shard splits in two: no article moves to a shard it was not beside.
    for (const url of urls) expect(shardOf(url, 32) % 16).toBe(shardOf(url, 16));
  });
});
