import { describe, expect, it } from 'vitest';
import { loadSite } from '../../../src/build/pipeline';
import { searchDocuments } from '../../../src/search/documents';
import { buildSearchIndex, type SearchDocument, searchIn, searchIndexFromShards } from '../../../src/shared/search';
import { PROJECT_ROOT } from '../../support/content';

const doc = (id: string, title: string, text: string): SearchDocument => ({
  id,
  title,
  category: 'Test',
  endpoint: id,
  text,
});

/** A fixture corpus: what each query must find is known by construction. */
const PT = [
  doc('/musica', 'Música de câmara em Lisboa', 'Um concerto de quartetos de cordas num domingo à tarde.'),
  doc('/corrida', 'A minha primeira corrida', 'Treino, ténis e a meia maratona de Lisboa.'),
  doc('/museu', 'Um museu no Porto', 'A coleção de pintura e a igreja ao lado; fala-se de música só de passagem.'),
  doc('/financas', 'Fundos de índice', 'Investir todos os meses com custos baixos.'),
  doc('/publicacao', 'A publicação do site', 'Como as páginas chegam ao servidor.'),
];
const EN = [
  doc('/containers', 'Shipping a container to the cloud', 'Images, registries and a web app.'),
  doc('/running', 'Running shoes', 'Cushioning, drop and how often to replace them.'),
  doc('/cinema', 'A night at the cinema', 'Containers of popcorn and a long film about a river.'),
];

describe('search ranking on a fixture corpus', () => {
  const pt = buildSearchIndex('pt', PT);
  const en = buildSearchIndex('en', EN);
  const first = (index: typeof pt, term: string) => searchIn(index, term)[0]?.endpoint;

  it('finds accented words from unaccented queries and the reverse, ignoring case', () => {
    expect(first(pt, 'musica')).toBe('/musica');
    expect(first(pt, 'MÚSICA')).toBe('/musica');
    expect(first(pt, 'colecao')).toBe('/museu');
    // The stemmer treats "-ção" and "-cao" differently: words are folded before they are stemmed.
    expect(first(pt, 'publicacao')).toBe('/publicacao');
    expect(first(pt, 'publicações')).toBe('/publicacao');
  });

  it('ranks a title match above a mention in the text', () => {
    expect(searchIn(pt, 'música').map((r) => r.endpoint)).toEqual(['/musica', '/museu']);
    expect(searchIn(en, 'containers').map((r) => r.endpoint)).toEqual(['/containers', '/cinema']);
  });

  it('stems each language: correr finds corrida, containers finds container', () => {
    expect(first(pt, 'correr')).toBe('/corrida');
    expect(first(en, 'containers')).toBe('/containers');
    expect(first(en, 'runs')).toBe('/running');
  });

  it('matches the last word as a prefix, and forgives a small typo', () => {
    expect(first(pt, 'fundos ind')).toBe('/financas');
    expect(first(en, 'cushi')).toBe('/running');
    expect(first(en, 'contaner')).toBe('/containers');
    expect(first(pt, 'maratna')).toBe('/corrida');
  });

  it('ranks the same after the index is written and loaded again', () => {
    const loaded = searchIndexFromShards('pt', [JSON.parse(JSON.stringify(pt))]);
    for (const term of ['musica', 'correr', 'fundos ind']) expect(searchIn(loaded, term)).toEqual(searchIn(pt, term));
  });
});

describe('the real indexes', () => {
  it('never put a Portuguese-only article in the English index', async () => {
    const { site } = await loadSite(PROJECT_ROOT);
    const english = new Set(searchDocuments(site!, 'en').map((d) => d.endpoint));
    for (const article of site!.articles) {
      if (!article.editions.en) expect(english.has(article.route.path), article.route.path).toBe(false);
    }
    expect(english.size).toBe(site!.articles.filter((a) => a.editions.en).length);
  });
});
