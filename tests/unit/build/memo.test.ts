import { mkdtemp, readFile, rm, stat, truncate } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type KeptFindings, keptFindings } from '../../../src/build/keptFindings';
import type { StoredBody } from '../../../src/build/markdown';
import { Memo } from '../../../src/build/memo';
import { packedFacts } from '../../../src/build/packedFacts';
import type { EditionFindings } from '../../../src/check/editions';
import type { Diagnostic } from '../../../src/diagnostics/diagnostic';
import { bodyLinkHrefs } from '../../../src/markdown/linkHrefs';

describe('a memo kept on disk as a log of records', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'site-memo-'));
    file = path.join(dir, 'markdown.bin');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const body = (i: number) => `<p>${'text '.repeat(200)}${i}</p>`;
  async function filled(count: number): Promise<Memo<string>> {
    const memo = await Memo.open<string>(file);
    for (let i = 0; i < count; i++) memo.set(`post${i}.md`, { text: `hash${i}` }, body(i));
    await memo.save();
    return memo;
  }

  it('finds each value again by its inputs in the next process, and misses on other inputs', async () => {
    await filled(20);
    const reopened = await Memo.open<string>(file);
    expect(reopened.get('post7.md', { text: 'hash7' })).toBe(body(7));
    expect(reopened.get('post7.md', { text: 'changed' })).toBeUndefined();
    expect(reopened.previous('post7.md')).toEqual({ text: 'hash7' });
  });

  it('appends one record for one output made again, without writing the others anew', async () => {
    await filled(50);
    const before = await stat(file);
    const memo = await Memo.open<string>(file);
    for (let i = 0; i < 50; i++) memo.get(`post${i}.md`, { text: `hash${i}` });
    memo.set('post3.md', { text: 'edited' }, 'new body');
    await memo.save();
    const after = await stat(file);
    expect(after.ino).toBe(before.ino);
    expect(after.size - before.size).toBeLessThan(before.size / 40);
    const reopened = await Memo.open<string>(file);
    expect(reopened.get('post3.md', { text: 'edited' })).toBe('new body');
    expect(reopened.get('post4.md', { text: 'hash4' })).toBe(body(4));
  });

  it('writes the file anew, smaller, once most of its records are no longer used', async () => {
    await filled(30);
    const before = (await stat(file)).size;
    const memo = await Memo.open<string>(file);
    for (let i = 0; i < 5; i++) memo.get(`post${i}.md`, { text: `hash${i}` });
    await memo.save();
    expect((await stat(file)).size).toBeLessThan(before / 4);
    const reopened = await Memo.open<string>(file);
    expect(reopened.get('post2.md', { text: 'hash2' })).toBe(body(2));
    expect(reopened.get('post20.md', { text: 'hash20' })).toBeUndefined();
  });

  it('writes the file anew when most of it is made again at once (a build after a change of code)', async () => {
    await filled(30);
    const before = (await stat(file)).size;
    const memo = await Memo.open<string>(file);
    for (let i = 0; i < 30; i++) memo.set(`post${i}.md`, { text: `hash${i}` }, `${body(i)}, again`);
    await memo.save();
    expect((await stat(file)).size).toBeLessThan(before * 1.5);
    expect((await Memo.open<string>(file)).get('post7.md', { text: 'hash7' })).toBe(`${body(7)}, again`);
  });

  it('keeps through a save the outputs the build kept without looking them up, and only those', async () => {
    await filled(30);
    const memo = await Memo.open<string>(file);
    for (let i = 0; i < 5; i++) memo.keep(`post${i}.md`);
    memo.keep('never-made.md');
    await memo.save();
    expect(memo.get('post3.md', { text: 'hash3' })).toBe(body(3));
    expect(memo.get('post20.md', { text: 'hash20' })).toBeUndefined();
    const reopened = await Memo.open<string>(file);
    expect(reopened.get('post4.md', { text: 'hash4' })).toBe(body(4));
    expect(reopened.get('post20.md', { text: 'hash20' })).toBeUndefined();
    expect(reopened.latest('never-made.md')).toBeUndefined();
  });

  it('keeps every whole record of a log cut short by a crash', async () => {
    await filled(10);
    const memo = await Memo.open<string>(file);
    for (let i = 0; i < 10; i++) memo.get(`post${i}.md`, { text: `hash${i}` });
    memo.set('post9.md', { text: 'appended' }, 'cut short');
    await memo.save();
    await truncate(file, (await readFile(file)).length - 5);
    const reopened = await Memo.open<string>(file);
    expect(reopened.get('post8.md', { text: 'hash8' })).toBe(body(8));
    expect(reopened.get('post9.md', { text: 'hash9' })).toBe(body(9));
    expect(reopened.get('post9.md', { text: 'appended' })).toBeUndefined();

    // The next save writes the log anew rather than appending after the broken record.
    for (let i = 0; i < 10; i++) reopened.get(`post${i}.md`, { text: `hash${i}` });
    reopened.set('post5.md', { text: 'after the crash' }, 'kept');
    await reopened.save();
    const again = await Memo.open<string>(file);
    expect(again.get('post5.md', { text: 'after the crash' })).toBe('kept');
    expect(again.get('post8.md', { text: 'hash8' })).toBe(body(8));
  });
});

describe("the markdown cache's records, their headings kept as text until read", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'site-memo-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const stored = (i: number): StoredBody => ({
    body: {
      words: 100 + i,
      hash: `hash${i}`,
      headings: [{ depth: 2, id: `part-${i}`, text: `Part ${i}`, line: 3, column: 1 }],
      references: [
        { kind: 'link', href: '/blog/tech/Git', text: 'Git', line: 5, column: 1 },
        { kind: 'image', href: '/media/blog/tech/branches.svg', alt: 'Branches', line: 7, column: 1 },
        { kind: 'link', href: `#part-${i}`, text: 'below', line: 9, column: 12 },
      ],
      ids: [`part-${i}`],
      register: [],
      problems: [],
    },
    found: ['link /blog/tech/Git', '/blog/tech/Git'],
  });

  // Every fact a stored body holds, read by name (the headings are a getter of the facts read back).
  const facts = (value: StoredBody | undefined) =>
    value && {
      body: {
        words: value.body.words,
        hash: value.body.hash,
        headings: value.body.headings,
        references: value.body.references,
        ids: value.body.ids,
        register: value.body.register,
        problems: value.body.problems,
      },
      found: value.found,
    };

  it('gives every fact back as it was made, through a record appended and through the log written anew', async () => {
    const file = path.join(dir, 'markdown.bin');
    const memo = await Memo.open<StoredBody>(file, packedFacts);
    for (let i = 0; i < 3; i++) memo.set(`post${i}.md`, { text: `t${i}` }, stored(i));
    await memo.save();
    const reopened = await Memo.open<StoredBody>(file, packedFacts);
    for (let i = 0; i < 3; i++) expect(facts(reopened.get(`post${i}.md`, { text: `t${i}` }))).toEqual(stored(i));
    // The hrefs of its links, which every check reads, kept apart from its references.
    expect(bodyLinkHrefs(reopened.get('post1.md', { text: 't1' })?.body ?? stored(0).body)).toEqual([
      '/blog/tech/Git',
      '#part-1',
    ]);
    // Facts read and never used are written back as they were read, when the log is written anew.
    for (let i = 0; i < 4; i++) reopened.set('post0.md', { text: `again${i}` }, stored(9));
    await reopened.save();
    const third = await Memo.open<StoredBody>(file, packedFacts);
    expect(facts(third.get('post1.md', { text: 't1' }))).toEqual(stored(1));
    expect(third.get('post0.md', { text: 'again3' })?.body.headings).toEqual(stored(9).body.headings);
    expect(facts(third.get('post2.md', { text: 't2' }))).toEqual(stored(2));
  });

  it('reads a record written when the headings alone were kept as text', async () => {
    const file = path.join(dir, 'markdown.bin');
    const headingsOnly = await Memo.open<StoredBody>(file, {
      write: ({ body, found }) => {
        const { headings, ...rest } = body;
        return { body: { ...rest, headingsJson: JSON.stringify(headings) }, found };
      },
      read: (stored) => stored as StoredBody,
    });
    headingsOnly.set('post1.md', { text: 't1' }, stored(1));
    await headingsOnly.save();
    const reopened = await Memo.open<StoredBody>(file, packedFacts);
    expect(facts(reopened.get('post1.md', { text: 't1' }))).toEqual(stored(1));
    expect(bodyLinkHrefs(reopened.get('post1.md', { text: 't1' })?.body ?? stored(0).body)).toEqual([
      '/blog/tech/Git',
      '#part-1',
    ]);
  });

  it('reads a record written before the headings were kept as text', async () => {
    const file = path.join(dir, 'markdown.bin');
    const plain = await Memo.open<StoredBody>(file);
    plain.set('post1.md', { text: 't1' }, stored(1));
    await plain.save();
    const reopened = await Memo.open<StoredBody>(file, packedFacts);
    expect(reopened.get('post1.md', { text: 't1' })).toEqual(stored(1));
  });
});

describe("the checks memo's records", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'site-checks-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const warning: Diagnostic = {
    code: 'LINK004',
    severity: 'warning',
    file: 'content/blog/tech/Git.en.md',
    line: 12,
    column: 5,
    message: 'the link text reads as another article’s title',
    hint: 'Name the article it links to.',
  };
  const findings = (links: Diagnostic[]): EditionFindings => ({
    links,
    ids: [],
    assets: [],
    headings: [],
    register: { title: [], description: [] },
  });

  it('give back what the rules found in each edition, and nothing for an edition where they found nothing', async () => {
    const file = path.join(dir, 'checks.bin');
    const memo = await Memo.open<KeptFindings>(file, keptFindings);
    memo.set('Git.en.md', { code: 'c' }, { fine: 'f1', findings: findings([warning]) });
    memo.set('Site.en.md', { code: 'c' }, { fine: 'f2', findings: findings([]) });
    await memo.save();
    const reopened = await Memo.open<KeptFindings>(file, keptFindings);
    expect(reopened.get('Git.en.md', { code: 'c' })).toEqual({ fine: 'f1', findings: findings([warning]) });
    expect(reopened.get('Site.en.md', { code: 'c' })).toEqual({ fine: 'f2', findings: findings([]) });
    expect(reopened.get('Site.en.md', { code: 'other' })).toBeUndefined();
  });
});
