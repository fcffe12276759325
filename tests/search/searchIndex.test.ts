import { describe, expect, it } from 'vitest';
import { SearchIndex } from '../../src/search/searchIndex';
import type { Lang } from '../../src/shared/lang';
import { buildSearchIndex, loadSearchIndex, type SearchDocument, searchIn } from '../../src/shared/search';

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
    'e-mail',
    'café',
    'a',
    'of',
  ],
  pt: [
    'construção',
    'construir',
    'música',
    'Música',
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

/** Documents like the blog's, with repeated words, accents and punctuation, given in id order. */
function documents(lang: Lang, count: number, seed = 1): SearchDocument[] {
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state;
  };
  const words = (n: number) => Array.from({ length: n }, () => WORDS[lang][next() % WORDS[lang].length]).join(next() % 7 === 0 ? ', ' : ' ');
  return Array.from({ length: count }, (_, i) => {
    const id = `/${lang === 'pt' ? 'pt/' : ''}blog/tech/post${String(i).padStart(3, '0')}`;
    return { id, endpoint: id, title: words(2 + (next() % 5)), category: lang === 'pt' ? 'Tecnologia' : 'Tech', text: `${words(5 + (next() % 40))}. ${words(next() % 30)}!` };
  });
}

const QUERIES = ['build', 'musica', 'cafe', 'run', 'espresso roast', 'typescript node', 'construç', 'acoes', 'água noite', 'maraton', 'codigo funcao', 'owner'];

describe('the search index kept as data', () => {
  for (const lang of ['en', 'pt'] as const) {
    it(`answers every query as MiniSearch built from the same documents does (${lang})`, () => {
      const docs = documents(lang, 60);
      const ours = loadSearchIndex(lang, new SearchIndex(lang).update(docs));
      const reference = buildSearchIndex(lang, docs);
      for (const query of QUERIES) expect(searchIn(ours, query), query).toEqual(searchIn(reference, query));
      for (const query of QUERIES) {
        const scores = (index: typeof ours) => index.search(query).map((r) => [r.id, r.score.toFixed(9)]);
        expect(scores(ours), query).toEqual(scores(reference));
      }
    });
  }

  it('gives the same bytes as a fresh index after edits, additions, removals and a retitle', () => {
    const index = new SearchIndex('pt');
    let docs = documents('pt', 40);
    index.update(docs);
    const steps: [string, (d: SearchDocument[]) => SearchDocument[]][] = [
      ['a body edit', (d) => d.map((doc, i) => (i === 5 ? { ...doc, text: `${doc.text} zebra travessia` } : doc))],
      ['a body edit that drops words', (d) => d.map((doc, i) => (i === 6 ? { ...doc, text: 'água' } : doc))],
      ['a retitle', (d) => d.map((doc, i) => (i === 7 ? { ...doc, title: 'Um título novo' } : doc))],
      ['a new category title', (d) => d.map((doc) => ({ ...doc, category: 'Técnica' }))],
      ['a new article', (d) => [...d, { id: '/pt/blog/tech/post0205', endpoint: '/pt/blog/tech/post0205', title: 'Novo', category: 'Técnica', text: 'café novo' }]],
      ['a removed article', (d) => d.filter((_, i) => i !== 0)],
      ['every article gone', () => []],
      ['articles back', () => documents('pt', 10, 7)],
    ];
    for (const [step, change] of steps) {
      docs = change(docs);
      const json = index.update(docs);
      expect(json, step).toBe(new SearchIndex('pt').update(docs));
      expect(JSON.parse(json).documentCount, step).toBe(docs.length);
    }
  });

  it('finds a word added by an edit, and no longer finds a word the edit removed', () => {
    const index = new SearchIndex('en');
    const docs = documents('en', 20);
    index.update(docs);
    const edited = docs.map((doc, i) => (i === 3 ? { ...doc, text: 'zeppelin' } : doc));
    const after = loadSearchIndex('en', index.update(edited));
    expect(searchIn(after, 'zeppelin').map((r) => r.id)).toEqual([docs[3]?.id]);
    const before = new Set(searchIn(loadSearchIndex('en', new SearchIndex('en').update(docs)), 'marathon').map((r) => r.id));
    const now = new Set(searchIn(after, 'marathon').map((r) => r.id));
    expect(now.has(docs[3]?.id as string)).toBe(false);
    expect([...before].filter((id) => id !== docs[3]?.id).every((id) => now.has(id))).toBe(true);
  });
});
