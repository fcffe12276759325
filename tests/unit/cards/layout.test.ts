import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { createElement } from 'react';
import satori from 'satori';
import { beforeAll, describe, expect, it } from 'vitest';
import { CardType, satoriFonts } from '../../../src/cards/fonts';
import { type Lines, layOutAcross, layOutDown, linesOf } from '../../../src/cards/layout';
import { type CardLook, readCardLook } from '../../../src/cards/look';
import { type LaidWord, laidWords } from '../../../src/cards/words';
import type { CardText } from '../../../src/shared/card';
import { CardWordsColumn, wordsBox } from '../../../templates/cards/ShareCard';
import { syntheticOutline } from '../../bench/synthetic';
import { PROJECT_ROOT } from '../../support/content';

const base = { siteName: 'Duarte Salgueiro', subtitle: 'Software Engineer', host: 'duartesalgueiro.pt' };
const dates = {
  en: [
    ['3 March 2024', '12 min read'],
    ['28 September 2019', '1 min read'],
  ],
  pt: [
    ['3 de março de 2024', '12 min de leitura'],
    ['28 de setembro de 2019', '104 min de leitura'],
  ],
} as const;

/**
 * Titles of every length and line count: the real ones, the bench's, and hard ones (accents, long
 * words, punctuation).
 */
async function titles(): Promise<{ lang: 'en' | 'pt'; title: string }[]> {
  const files = (await readdir(path.join(PROJECT_ROOT, 'content/blog'), { recursive: true })).filter((file) =>
    /\.(en|pt)\.md$/.test(file),
  );
  const real = await Promise.all(
    files.map(async (file) => ({
      lang: file.endsWith('.pt.md') ? ('pt' as const) : ('en' as const),
      title: (
        /^title:\s*(.*)$/m.exec(await readFile(path.join(PROJECT_ROOT, 'content/blog', file), 'utf8'))?.[1] ?? ''
      ).replace(/^"(.*)"$/, '$1'),
    })),
  );
  const synthetic = Array.from({ length: 300 }, (_, i) => {
    const lang = i % 2 ? ('pt' as const) : ('en' as const);
    return { lang, title: syntheticOutline(i * 7, lang).title };
  });
  const hard = [
    'Ações, exceções e a função do coração: ãõçéêíóú',
    'Git, from the first commit to GitHub Actions and a very long supercalifragilistic word here',
    'Infraestrutura-como-código: Terraform, Ansible & Kubernetes — o guia (quase) completo para 2024',
    'Why “well-known” APIs break: a post-mortem of 3 outages, 17 retries and 1 lesson… or two?',
    'Desenvolvimento orientado a testes em aplicações distribuídas de grande escala com microsserviços e filas de mensagens assíncronas',
    'Über naïve café résumés',
    'Sobre Mim',
    'A',
  ].flatMap((title) => [
    { lang: 'en' as const, title },
    { lang: 'pt' as const, title },
  ]);
  return [...real, ...synthetic, ...hard];
}

/** Satori's words of cards with the same kind of box, laid out in one drawing as the drawer does. */
async function satoriWords(
  texts: CardText[],
  look: CardLook,
  fonts: ReturnType<typeof satoriFonts>,
): Promise<(LaidWord[] | undefined)[]> {
  const box = wordsBox(Boolean(texts[0]?.article));
  const svg = await satori(createElement(CardWordsColumn, { texts, colours: look.colours }), {
    width: box.width,
    height: box.height * texts.length,
    fonts,
    embedFont: false,
  });
  return laidWords(svg, box.width, box.height, texts.length, look.colours.paper);
}

describe('a card’s words laid out without satori', () => {
  let look: CardLook;
  let type: CardType;
  const fonts = satoriFonts();

  beforeAll(async () => {
    look = await readCardLook(PROJECT_ROOT, '/media/owner/avatar.svg');
    type = await CardType.load();
  });

  it('puts every word where satori puts it, for titles of every size and count of lines, in both languages, on articles and other pages', async () => {
    const cards: CardText[] = (await titles()).flatMap(({ lang, title }, i) => {
      const [date, readingTime] = dates[lang][i % 2] as readonly [string, string];
      return [
        { ...base, lang, title, article: { category: '💻 Tech', date, readingTime } },
        { ...base, lang, title },
      ];
    });
    const shapes = new Map<string, Lines>();
    let compared = 0;
    for (const article of [true, false]) {
      const texts = cards.filter((text) => Boolean(text.article) === article);
      for (let at = 0; at < texts.length; at += 16) {
        const batch = texts.slice(at, at + 16);
        const drawn = await satoriWords(batch, look, fonts);
        for (const [i, text] of batch.entries()) {
          const laid = drawn[i];
          expect(laid, text.title).toBeDefined();
          const across = layOutAcross(text, look.colours, type);
          expect(across, text.title).toBeDefined();
          if (!across || !laid) continue;
          const lines = linesOf(across, laid);
          expect(lines, `${text.title}: each word across where satori put it`).toBeDefined();
          if (!lines) continue;
          // Every card of a shape has its lines where the first had them: the lines learnt from one serve all.
          const known = shapes.get(across.shape) ?? lines;
          shapes.set(across.shape, known);
          expect(layOutDown(across, known), text.title).toEqual(laid);
          compared++;
        }
      }
    }
    expect(compared).toBe(cards.length);
    // Titles of each size, on one line and on several.
    expect(shapes.size).toBeGreaterThan(10);
  }, 120_000);

  it.each([
    ['an emoji', 'Git 💻 from the first commit'],
    ['a letter Inter’s Latin file lacks', 'Łódź, a cidade'],
    ['a letter with a mark to combine', 'Cafe\u0301 com leite'],
    ['two spaces', 'Two  spaces'],
    ['a word wider than the box', 'A'.repeat(80)],
  ])('leaves to satori a title with %s', (_, title) => {
    expect(layOutAcross({ ...base, lang: 'en', title }, look.colours, type)).toBeUndefined();
  });
});
