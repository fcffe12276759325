import { mkdir, mkdtemp, readdir, rm, stat, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BodyContents, PackWriter } from '../../../src/build/bodyContents';
import { endedPid } from '../../support/processes';

let dir: string;
beforeEach(async () => {
  dir = path.join(await mkdtemp(path.join(os.tmpdir(), 'site-bodies-')), 'bodies');
});
afterEach(async () => {
  await rm(path.dirname(dir), { recursive: true, force: true });
});

const facts = (hash: string) => ({ hash, words: 0, headings: [], references: [], ids: [], register: [], problems: [] });
const content = (key: string) => ({ html: `<p>${key}</p>`, text: key });
const packs = async () => (await readdir(dir)).filter((name) => name.endsWith('.pack'));

describe('body contents kept apart from the markdown cache', () => {
  it('are read back by a later process, only when a body is asked for its HTML or text', async () => {
    const first = await BodyContents.open(dir, true);
    first.put('a', { html: '<p>Olá</p>', text: 'Olá' });
    first.put('b', content('b'));
    await first.flush();

    const later = await BodyContents.open(dir, true);
    expect(later.has('a')).toBe(true);
    expect(later.has('c')).toBe(false);
    const body = later.body(facts('a'));
    expect(body.html).toBe('<p>Olá</p>');
    expect(body.text).toBe('Olá');
    expect(body.hash).toBe('a');
    expect(later.body(facts('b')).text).toBe('b');
    // One pack for the thread that stored them, not a file per body.
    expect(await packs()).toHaveLength(1);
  });

  it('are read from the pack a worker thread appended them to, once the build recorded where', async () => {
    await mkdir(dir, { recursive: true });
    const worker = new PackWriter(dir);
    const places = ['a', 'b', 'c'].map((key) => [key, worker.append(content(key))] as const);
    const build = await BodyContents.open(dir, true);
    for (const [key, place] of places) build.adopt(key, place);
    expect(build.body(facts('b')).html).toBe('<p>b</p>');
    await build.flush();
    const later = await BodyContents.open(dir, true);
    expect(['a', 'b', 'c'].map((key) => later.body(facts(key)).text)).toEqual(['a', 'b', 'c']);
  });

  it('are kept in memory and never written when the cache may not be written (site check)', async () => {
    const contents = await BodyContents.open(dir, false);
    contents.put('a', content('a'));
    await contents.flush();
    expect(contents.body(facts('a')).html).toBe('<p>a</p>');
    await expect(readdir(dir)).rejects.toThrow();
  });

  it('say plainly when a pack went missing or was cut short, and count the body as gone so the next build compiles it again', async () => {
    const first = await BodyContents.open(dir, true);
    first.put('a', content('a'));
    first.put('b', content('b'));
    await first.flush();
    const later = await BodyContents.open(dir, true);
    const [pack] = await packs();
    await truncate(path.join(dir, pack as string), (await stat(path.join(dir, pack as string))).size - 3);
    expect(later.body(facts('a')).text).toBe('a');
    expect(() => later.body(facts('b')).html).toThrow(/cannot be read/);
    expect(later.has('b')).toBe(false);
    await rm(path.join(dir, pack as string));
    expect(() => later.body(facts('a')).html).toThrow(/cannot be read/);
    expect(later.has('a')).toBe(false);
  });

  it('move the used contents into a pack of their own once the unused ones outweigh them', async () => {
    const contents = await BodyContents.open(dir, true);
    for (const key of ['a', 'b', 'c', 'd']) contents.put(key, content(key));
    await contents.flush();
    const [before] = await packs();
    await contents.prune(() => new Set(['a', 'b']));
    expect(await packs()).toEqual([before]);
    await contents.prune(() => new Set(['a']));
    const [after, ...others] = await packs();
    expect(others).toEqual([]);
    expect(after).not.toBe(before);
    const later = await BodyContents.open(dir, true);
    expect(later.body(facts('a')).text).toBe('a');
    expect(['b', 'c', 'd'].filter((key) => later.has(key))).toEqual([]);
  });

  it('count the space of contents stored again elsewhere as spent, and reclaim it', async () => {
    const first = await BodyContents.open(dir, true);
    for (const key of ['a', 'b', 'c', 'd', 'e']) first.put(key, content(key));
    await first.flush();
    // A later build compiles a, b, c and d again (new code, the same HTML), and its worker stores them anew.
    const later = await BodyContents.open(dir, true);
    const worker = new PackWriter(dir);
    for (const key of ['a', 'b', 'c', 'd']) later.adopt(key, worker.append(content(key)));
    await later.flush();
    expect(await packs()).toHaveLength(2);
    await later.prune(() => new Set(['a', 'b', 'c', 'd']));
    expect(await packs()).toHaveLength(1);
    const reopened = await BodyContents.open(dir, true);
    expect(['a', 'b', 'c', 'd'].map((key) => reopened.body(facts(key)).text)).toEqual(['a', 'b', 'c', 'd']);
    expect(reopened.has('e')).toBe(false);
  });

  it('are found where another process moved them while this one ran (site dev beside a site build)', async () => {
    const first = await BodyContents.open(dir, true);
    for (const key of ['a', 'b', 'c', 'd']) first.put(key, content(key));
    await first.flush();
    const running = await BodyContents.open(dir, true);
    // Another build, which uses a alone, moves it into a pack of its own and removes the old one.
    const other = await BodyContents.open(dir, true);
    await other.prune(() => new Set(['a']));
    expect(running.body(facts('a')).text).toBe('a');
    expect(() => running.body(facts('b')).text).toThrow(/cannot be read/);
  });

  it('merge the small packs of many builds that each changed a body into one', async () => {
    for (let i = 0; i < 20; i++) {
      const build = await BodyContents.open(dir, true);
      build.put(`k${i}`, content(`k${i}`));
      await build.flush();
    }
    expect(await packs()).toHaveLength(20);
    const last = await BodyContents.open(dir, true);
    const keys = new Set(Array.from({ length: 20 }, (_, i) => `k${i}`));
    await last.prune(() => keys);
    expect(await packs()).toHaveLength(1);
    const later = await BodyContents.open(dir, true);
    expect([...keys].map((key) => later.body(facts(key)).text)).toEqual([...keys]);
  });

  it('remove the packs of builds that ended before recording them, and the files of the layout before packs', async () => {
    await mkdir(dir, { recursive: true });
    const ended = endedPid();
    await writeFile(path.join(dir, `${ended}-1-abc.pack`), 'never recorded');
    await writeFile(path.join(dir, `${process.pid}-9-abc.pack`), 'still being written');
    await writeFile(path.join(dir, 'QgWEmgS44j_AezR1P5UL03kSfug'), 'a body of the older layout');
    const contents = await BodyContents.open(dir, true);
    contents.put('a', content('a'));
    await contents.flush();
    await contents.prune(() => new Set(['a']));
    const left = (await readdir(dir)).sort();
    expect(left).toContain(`${process.pid}-9-abc.pack`);
    expect(left).toContain('index.log');
    expect(left.filter((name) => name.startsWith(`${ended}-`) || name.startsWith('QgWE'))).toEqual([]);
    expect((await BodyContents.open(dir, true)).body(facts('a')).text).toBe('a');
  });
});
