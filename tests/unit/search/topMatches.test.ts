import type MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { loadSite } from '../../../src/build/pipeline';
import { searchDocuments } from '../../../src/search/documents';
import { shardOf } from '../../../src/search/shards';
import type { Lang } from '../../../src/shared/lang';
import { buildSearchIndex, MAX_RESULTS, type SearchDocument, searchIndexFromShards } from '../../../src/shared/search';
import { topMatches } from '../../../src/shared/topMatches';
import { QUERIES } from '../../bench/search';
import { syntheticMarkdown } from '../../bench/synthetic';
import { PROJECT_ROOT } from '../../support/content';

/** What MiniSearch's own `search` ranks first, and how many articles it finds. */
function reference(index: MiniSearch<SearchDocument>, query: string, fuzzy: boolean): { ids: string[]; total: number } {
  const all = index.search(query, fuzzy ? {} : { fuzzy: false });
  return { ids: all.slice(0, MAX_RESULTS).map((r) => String(r.id)), total: all.length };
}

function ours(index: MiniSearch<SearchDocument>, query: string, fuzzy: boolean): { ids: string[]; total: number } {
  const { matches, total } = topMatches(index, query, MAX_RESULTS, fuzzy ? {} : { fuzzy: false });
  return { ids: matches.map((m) => String(m.id)), total };
}

/** Words of a text, as a reader would type them: whole, cut short, misspelt, and in pairs. */
function queriesFrom(texts: string[], count: number): string[] {
  const words = [
    ...new Set(
      texts
        .join(' ')
        .split(/[^\p{L}\p{N}]+/u)
        .filter((w) => w.length > 3),
    ),
  ];
  const picked = words.filter((_, i) => i % Math.max(1, Math.floor(words.length / count)) === 0).slice(0, count);
  return picked.flatMap((word, i) => {
    const next = picked[(i + 1) % picked.length] as string;
    return [
      word,
      word.slice(0, 4),
      `${word.slice(0, 2)}${word.slice(3)}`,
      word.toUpperCase(),
      `${word} ${next}`,
      `${next} ${word.slice(0, 5)}`,
    ];
  });
}

function expectSameRanking(index: MiniSearch<SearchDocument>, queries: string[]): void {
  let found = 0;
  for (const query of queries) {
    for (const fuzzy of [false, true]) {
      const expected = reference(index, query, fuzzy);
      expect(ours(index, query, fuzzy), `${query}${fuzzy ? ' (fuzzy)' : ''}`).toEqual(expected);
      found += expected.total;
    }
  }
  // The queries find something, or the comparison proves nothing.
  expect(found).toBeGreaterThan(queries.length);
}

/** Synthetic articles: a few hundred, with many equal scores among them (MiniSearch's tie order). */
function syntheticIndex(lang: Lang, count: number): MiniSearch<SearchDocument> {
  const documents = Array.from({ length: count }, (_, i) => {
    const [, front = '', body = ''] = syntheticMarkdown(i, lang).split('---');
    const title = /title: (.*)/.exec(front)?.[1] ?? '';
    return { id: `/blog/post${i}`, title, category: 'Test', endpoint: `/blog/post${i}`, text: body };
  });
  return buildSearchIndex(lang, documents);
}

describe('topMatches ranks as MiniSearch#search does', () => {
  for (const lang of ['en', 'pt'] as const) {
    it(`on ${lang} synthetic articles, for whole words, prefixes, typos and pairs`, () => {
      const index = syntheticIndex(lang, 400);
      expectSameRanking(index, [...QUERIES[lang], ...queriesFrom(QUERIES[lang], 10)]);
      const titles = Array.from(
        { length: 40 },
        (_, i) => /title: (.*)/.exec(syntheticMarkdown(i * 7, lang))?.[1] ?? '',
      );
      expectSameRanking(index, queriesFrom(titles, 40));
    });
  }

  it('on the real blog, in both languages, after the index is written in shards and joined again', async () => {
    const { site } = await loadSite(PROJECT_ROOT);
    for (const lang of ['en', 'pt'] as const) {
      const documents = searchDocuments(site!, lang);
      const shards = [0, 1, 2].map((shard) => documents.filter((d) => shardOf(d.id, 3) === shard));
      const index = searchIndexFromShards(
        lang,
        shards.map((held) => JSON.parse(JSON.stringify(buildSearchIndex(lang, held)))),
      );
      expectSameRanking(
        index,
        queriesFrom(
          documents.map((d) => `${d.title} ${d.text}`),
          60,
        ),
      );
    }
  });

  it('follows documents added and removed after its first query', () => {
    const index = syntheticIndex('en', 50);
    const before = ours(index, 'container', true);
    index.add({
      id: '/added',
      title: 'Container container container',
      category: 'Test',
      endpoint: '/added',
      text: 'container',
    });
    expect(ours(index, 'container', true).ids[0]).toBe('/added');
    index.discard('/added');
    expect(ours(index, 'container', true)).toEqual(before);
    expect(ours(index, 'container', true)).toEqual(reference(index, 'container', true));
  });

  it('finds nothing for a query with no words', () => {
    const index = syntheticIndex('pt', 20);
    expect(ours(index, ' ,. ', true)).toEqual({ ids: [], total: 0 });
  });
});
