import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BodyContents } from '../../../src/build/bodyContents';

let dir: string;
beforeEach(async () => {
  dir = path.join(await mkdtemp(path.join(os.tmpdir(), 'site-bodies-')), 'bodies');
});
afterEach(async () => {
  await rm(path.dirname(dir), { recursive: true, force: true });
});

const facts = (hash: string) => ({ hash, words: 0, headings: [], references: [], ids: [], register: [], problems: [] });

describe('body contents kept apart from the markdown cache', () => {
  it('are read back by a later process, only when a body is asked for its HTML or text', async () => {
    const first = new BodyContents(dir, true);
    first.put('a', { html: '<p>Olá</p>', text: 'Olá' });
    await first.flush();

    const later = new BodyContents(dir, true);
    expect(later.has('a')).toBe(true);
    expect(later.has('b')).toBe(false);
    const body = later.body(facts('a'));
    expect(body.html).toBe('<p>Olá</p>');
    expect(body.text).toBe('Olá');
    expect({ ...body }).toMatchObject({ hash: 'a', html: '<p>Olá</p>', text: 'Olá' });
  });

  it('are kept in memory and never written when the cache may not be written (site check)', async () => {
    const contents = new BodyContents(dir, false);
    contents.put('a', { html: '<p>a</p>', text: 'a' });
    await contents.flush();
    expect(contents.body(facts('a')).html).toBe('<p>a</p>');
    await expect(readdir(dir)).rejects.toThrow();
  });

  it('say plainly when a file went missing, and count it as gone so the next build compiles the body again', async () => {
    const first = new BodyContents(dir, true);
    first.put('a', { html: '<p>a</p>', text: 'a' });
    await first.flush();
    const later = new BodyContents(dir, true);
    await rm(path.join(dir, 'a'));
    expect(() => later.body(facts('a')).html).toThrow(/cannot be read/);
    expect(later.has('a')).toBe(false);
  });

  it('remove the files no body uses once they outnumber the used ones', async () => {
    const contents = new BodyContents(dir, true);
    for (const key of ['a', 'b', 'c', 'd']) contents.put(key, { html: key, text: key });
    await contents.flush();
    const used = (keys: string[]) => [keys.length, () => new Set(keys)] as const;
    contents.prune(...used(['a', 'b']));
    expect((await readdir(dir)).sort()).toEqual(['a', 'b', 'c', 'd']);
    contents.prune(...used(['a']));
    expect(await readdir(dir)).toEqual(['a']);
  });
});
