import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Memo } from '../../../src/build/memo';
import { packedArticles, packedLock } from '../../../src/build/packedPrints';
import type { ParsedArticle } from '../../../src/load/articles';
import type { TranslationLock } from '../../../src/translations/lock';
import {
  type EditionPrint,
  editionPrint,
  PackedPrint,
  packPrint,
  printChanges,
  samePrint,
} from '../../../src/translations/print';

const body = '## Why\n\nBecause.\n\n## How\n\nLike this.\n';
const print = (title: string, text = body): EditionPrint => editionPrint(title, 'A description', text);
const plain = (p: EditionPrint) => JSON.parse(JSON.stringify(p)) as EditionPrint;

describe('a print kept as one text', () => {
  it('reads back every part, and is written to the lock as the print it was', () => {
    for (const original of [print('Git'), print('Empty', ''), { title: 'a', description: 'b', sections: [''] }]) {
      const packed = PackedPrint.read(packPrint(original) ?? '');
      expect([packed.title, packed.description, [...packed.sections]]).toEqual([
        original.title,
        original.description,
        [...original.sections],
      ]);
      expect(plain(packed)).toEqual(plain(original));
    }
  });

  it('compares as the print it stands for, packed or not', () => {
    const [a, b] = [print('Git'), print('Git', `${body}\n## More\n\nAnd more.\n`)];
    const [packedA, packedB] = [a, b].map((p) => PackedPrint.read(packPrint(p) ?? ''));
    expect(samePrint(packedA as EditionPrint, PackedPrint.read(packPrint(a) ?? ''))).toBe(true);
    expect(samePrint(packedA as EditionPrint, a)).toBe(true);
    expect(samePrint(packedA as EditionPrint, packedB as EditionPrint)).toBe(false);
    expect(printChanges(packedA as EditionPrint, packedB as EditionPrint)).toEqual(printChanges(a, b));
  });

  it('is not made of a print with a line break in a part (a lock edited by hand)', () => {
    expect(packPrint({ title: 'a\nb', description: 'c', sections: [] })).toBeUndefined();
  });
});

describe('the prints the build cache keeps', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'site-prints-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('gives a parsed article back with its print', async () => {
    const file = path.join(dir, 'articles.bin');
    const parsed: ParsedArticle = {
      frontMatter: { title: 'Git', description: 'A description', date: '2024-03-05' } as ParsedArticle['frontMatter'],
      frontMatterHash: 'h',
      bodyStart: 40,
      bodyLine: 5,
      print: print('Git'),
    };
    const memo = await Memo.open<ParsedArticle>(file, packedArticles);
    memo.set('content/blog/tech/Git.en.md', { text: 't' }, parsed);
    await memo.save();
    const read = (await Memo.open<ParsedArticle>(file, packedArticles)).get('content/blog/tech/Git.en.md', {
      text: 't',
    });
    expect(read?.print).toBeInstanceOf(PackedPrint);
    expect(read && { ...read, print: plain(read.print) }).toEqual({ ...parsed, print: plain(parsed.print) });
  });

  it('gives the translation lock back, each pair read out of its text, a hand-edited one as it was', async () => {
    const file = path.join(dir, 'lock.bin');
    const odd = { title: 'a\nb', description: 'c', sections: [] };
    const lock: TranslationLock = {
      articles: {
        '/blog/tech/Git': { en: print('Git'), pt: print('Git, em português') },
        '/blog/tech/Odd': { en: odd, pt: print('Estranho') },
      },
      texts: { 'content/strings.json': { '/title': 'aaa bbb' } },
    };
    const memo = await Memo.open<unknown>(file, packedLock);
    memo.set('content/translations.json', { text: 't' }, lock);
    memo.set('content/translations.json read at', { signature: 's' }, 't');
    await memo.save();
    const reopened = await Memo.open<unknown>(file, packedLock);
    const read = reopened.get('content/translations.json', { text: 't' }) as TranslationLock;
    expect(JSON.parse(JSON.stringify(read))).toEqual(JSON.parse(JSON.stringify(lock)));
    expect(read.articles['/blog/tech/Git']?.en).toBeInstanceOf(PackedPrint);
    expect(samePrint(read.articles['/blog/tech/Git']?.pt as EditionPrint, print('Git, em português'))).toBe(true);
    expect(read.articles['/blog/tech/Odd']?.en).toEqual(odd);
    expect(reopened.get('content/translations.json read at', { signature: 's' })).toBe('t');
    // Written back as it was read.
    reopened.set('content/translations.json', { text: 't2' }, read);
    await reopened.save();
    const again = (await Memo.open<unknown>(file, packedLock)).get('content/translations.json', { text: 't2' });
    expect(JSON.parse(JSON.stringify(again))).toEqual(JSON.parse(JSON.stringify(lock)));
  });
});
