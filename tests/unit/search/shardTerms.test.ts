import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { indexDocument, shardJson, TermTable } from '../../../src/search/shardIndex';
import { keptIndexed, ShardTerms } from '../../../src/search/shardTerms';
import type { Lang } from '../../../src/shared/lang';
import { type SearchDocument, searchOptions } from '../../../src/shared/search';

const TEXTS: Record<Lang, string[]> = {
  en: [
    'Roasting coffee at home',
    'The cache, the build and the index',
    "An owner's notes on running",
    'Caching builds: a second look',
  ],
  pt: [
    'Torrar café em casa',
    'A construção do índice e da cache',
    'Notas de uma maratona à noite',
    'Ações e funções: código de novo',
  ],
};

function documents(lang: Lang): SearchDocument[] {
  return TEXTS[lang].map((title, i) => {
    const id = `/${lang === 'pt' ? 'pt/' : ''}blog/tech/post${i}`;
    return {
      id,
      endpoint: id,
      title,
      category: 'Tech',
      text: `${TEXTS[lang].join('. ')} ${title.repeat(i + 1)}; “quoted” words, and more.`,
    };
  });
}

describe("the search shards' counted terms in the build cache", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'site-shards-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  for (const lang of ['en', 'pt'] as const) {
    it(`in ${lang}, give back documents that make the very shard counting their text makes`, () => {
      const options = searchOptions(lang);
      const docs = documents(lang);
      const store = new ShardTerms(dir);
      // Counted by an earlier build, into a table that numbered other terms first.
      const earlier = new TermTable();
      indexDocument(
        options,
        { id: '/x', endpoint: '/x', title: 'unrelated words first', category: 'Other', text: 'zebra yak xylophone' },
        earlier,
      );
      store.write(
        lang,
        4,
        1,
        docs.map((doc) => ({
          url: doc.id,
          inputs: `inputs of ${doc.id}`,
          document: indexDocument(options, doc, earlier),
        })),
      );
      const kept = store.read(lang, 4, 1);
      expect([...kept.keys()]).toEqual(docs.map((doc) => doc.id));
      const table = new TermTable();
      const fromFile = shardJson(
        options,
        docs.map((doc) => keptIndexed(kept.get(doc.id)!, table)),
      );
      const fresh = new TermTable();
      const counted = shardJson(
        options,
        docs.map((doc) => indexDocument(options, doc, fresh)),
      );
      expect(Buffer.from(fromFile).equals(Buffer.from(counted))).toBe(true);
      expect(kept.get(docs[0]!.id)?.inputs).toBe(`inputs of ${docs[0]!.id}`);
    });
  }

  it('reads nothing from a damaged file, and removes the files of another count of shards when it writes', async () => {
    const store = new ShardTerms(dir);
    await writeFile(path.join(dir, 'en-2-0.bin'), 'not a shard');
    await writeFile(path.join(dir, 'pt-2-0.bin'), 'another language');
    expect(store.read('en', 2, 0).size).toBe(0);
    const options = searchOptions('en');
    const [doc] = documents('en');
    store.write('en', 4, 3, [{ url: doc!.id, inputs: 'i', document: indexDocument(options, doc!, new TermTable()) }]);
    expect((await readdir(dir)).sort()).toEqual(['en-4-3.bin', 'pt-2-0.bin']);
  });
});
