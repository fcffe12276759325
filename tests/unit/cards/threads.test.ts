import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readCardLook } from '../../../src/cards/look';
import { CardThreads } from '../../../src/cards/threads';
import type { CardText } from '../../../src/shared/card';
import { PROJECT_ROOT } from '../../support/content';

const base = { siteName: 'Duarte Salgueiro', host: 'duartesalgueiro.pt', subtitle: 'Software Engineer' };
const cards: { hash: string; text: CardText }[] = [
  {
    hash: 'a1',
    text: {
      ...base,
      lang: 'en',
      title: 'Git, from the first commit to GitHub Actions',
      article: { category: '💻 Tech', date: '3 March 2024', readingTime: '12 min read' },
    },
  },
  {
    hash: 'b2',
    text: {
      ...base,
      lang: 'pt',
      subtitle: 'Engenheiro de Software',
      title: 'Ações e exceções do coração',
      article: { category: '📚 Livros', date: '3 de março de 2024', readingTime: '4 min de leitura' },
    },
  },
  { hash: 'c3', text: { ...base, lang: 'en', title: 'About Me' } },
];

const folders: string[] = [];
afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

/** The cards drawn by `threads` into a new folder: each file's bytes, by name, and the facts the drawing reported. */
async function drawnBy(threads: CardThreads) {
  const into = await mkdtemp(path.join(os.tmpdir(), 'site-cards-test-'));
  folders.push(into);
  const look = await readCardLook(PROJECT_ROOT, '/media/owner/avatar.svg');
  try {
    const facts = await threads.draw(
      cards,
      { colours: look.colours, ...(look.avatar && { avatar: look.avatar }) },
      into,
    );
    const files = Object.fromEntries(
      await Promise.all(
        (await readdir(into)).map(async (name) => [name, await readFile(path.join(into, name))] as const),
      ),
    );
    return { facts, files };
  } finally {
    await threads.close();
  }
}

describe('a build with a few cards to draw', () => {
  it('draws on its own thread (site build) exactly the files a drawing thread (site dev) draws', async () => {
    const own = await drawnBy(new CardThreads(true));
    const thread = await drawnBy(new CardThreads(false));
    expect(Object.keys(own.files).sort()).toEqual(['a1.png', 'b2.png', 'c3.png']);
    expect(own.files).toEqual(thread.files);
    expect(own.facts).toEqual(thread.facts);
  });
});
