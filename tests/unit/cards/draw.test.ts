import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { CardDrawer, type DrawerKnowledge, twemojiNames } from '../../../src/cards/draw';
import { type CardLook, readCardLook } from '../../../src/cards/look';
import { CARD_HEIGHT, CARD_WIDTH, type CardText, type ShareCardProps } from '../../../src/shared/card';
import { type CardBox, wordsBox } from '../../../templates/cards/ShareCard';
import { PROJECT_ROOT } from '../../support/content';
import { readPng } from '../../support/png';

const base = { siteName: 'Duarte Salgueiro', host: 'duartesalgueiro.pt' };
const english: CardText = {
  ...base,
  lang: 'en',
  subtitle: 'Software Engineer',
  title: 'Git, from the first commit to GitHub Actions',
  article: { category: '💻 Tech', date: '3 March 2024', readingTime: '12 min read' },
};
const portuguese: CardText = {
  ...base,
  lang: 'pt',
  subtitle: 'Engenheiro de Software',
  title: 'Ações, exceções e a função do coração: ãõçéêíóú',
  article: { category: '📚 Livros', date: '3 de março de 2024', readingTime: '12 min de leitura' },
};
const page: CardText = { ...base, lang: 'pt', subtitle: 'Engenheiro de Software', title: 'Sobre Mim' };

/** A picture's raw RGB pixels. */
async function pixels(picture: Buffer | string): Promise<Buffer> {
  return sharp(typeof picture === 'string' ? Buffer.from(picture) : picture)
    .removeAlpha()
    .raw()
    .toBuffer();
}

/**
 * The titles of the real articles, both languages: their words hold most of what titles are made
 * of, accents included.
 */
async function realTitles(): Promise<{ lang: 'en' | 'pt'; title: string }[]> {
  const files = (await readdir(path.join(PROJECT_ROOT, 'content/blog'), { recursive: true })).filter((file) =>
    /\.(en|pt)\.md$/.test(file),
  );
  return Promise.all(
    files.map(async (file) => {
      const text = await readFile(path.join(PROJECT_ROOT, 'content/blog', file), 'utf8');
      const title = /^title:\s*(.*)$/m.exec(text)?.[1]?.replace(/^"(.*)"$/, '$1') ?? '';
      return { lang: file.endsWith('.pt.md') ? ('pt' as const) : ('en' as const), title };
    }),
  );
}

/** How far each channel of two pictures is apart: the largest difference and the mean, inside and outside a box. */
function difference(
  a: Buffer,
  b: Buffer,
  box: CardBox,
): { inside: { max: number; mean: number }; outside: { max: number; mean: number } } {
  const inside = { max: 0, sum: 0 };
  const outside = { max: 0, sum: 0 };
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs((a[i] as number) - (b[i] as number));
    const pixel = Math.floor(i / 3);
    const [x, y] = [pixel % CARD_WIDTH, Math.floor(pixel / CARD_WIDTH)];
    const part =
      x >= box.left && x < box.left + box.width && y >= box.top && y < box.top + box.height ? inside : outside;
    part.max = Math.max(part.max, d);
    part.sum += d;
  }
  const boxBytes = box.width * box.height * 3;
  return {
    inside: { max: inside.max, mean: inside.sum / boxBytes },
    outside: { max: outside.max, mean: outside.sum / (a.length - boxBytes) },
  };
}

/**
 * A PNG's pixels as zlib inflates them (its CRCs and Adler-32 checked), each row's filter checked
 * to be 0, each index read through its palette.
 */
function throughPalette(png: Buffer): Buffer {
  const read = readPng(png);
  const palette = read.chunks.PLTE as Buffer;
  const rowBytes = CARD_WIDTH + 1;
  const picture = Buffer.alloc(CARD_WIDTH * CARD_HEIGHT * 3);
  for (let y = 0; y < CARD_HEIGHT; y++) {
    expect(read.pixels[y * rowBytes], `the filter of row ${y}`).toBe(0);
    for (let x = 0; x < CARD_WIDTH; x++) {
      const index = read.pixels[y * rowBytes + 1 + x] as number;
      palette.copy(picture, (y * CARD_WIDTH + x) * 3, index * 3, index * 3 + 3);
    }
  }
  return picture;
}

/**
 * The drawer draws each card's frame once and, per card, its words alone, from a glyph atlas, in
 * a palette (or, for words the atlas cannot draw, the whole card by librsvg): the PNG must be a
 * well-formed file that decodes to the card put together the plain way, and look like the card
 * component drawn whole by librsvg.
 */
describe('the share-card drawer', () => {
  let look: CardLook;
  let drawer: CardDrawer;
  const props = (text: CardText): ShareCardProps => ({
    text,
    colours: look.colours,
    ...(look.avatar && { avatar: look.avatar }),
  });
  /**
   * The whole card component, drawn by librsvg in one piece; satori's masks left out as the drawer
   * leaves them out (they hide nothing on a card).
   */
  const whole = async (text: CardText) =>
    pixels((await drawer.svg(props(text))).replace(/ mask="url\(#satori_om-[\w-]*\)"/g, ''));

  beforeAll(async () => {
    look = await readCardLook(PROJECT_ROOT, '/media/owner/avatar.svg');
    drawer = new CardDrawer();
  });

  it.each([
    ['an article in English', english],
    ['an article in Portuguese, with accents', portuguese],
    ['another page', page],
  ])(
    'draws %s from the glyph atlas, into a well-formed 1200×630 palette PNG that looks like the component drawn whole',
    async (_, text) => {
      const { png, by } = await drawer.draw(props(text));
      expect(by).toBe('glyphs');
      const { format, width, height, channels, isPalette } = await sharp(png).metadata();
      expect([format, width, height, channels, isPalette]).toEqual(['png', CARD_WIDTH, CARD_HEIGHT, 3, true]);
      // Every chunk's CRC and the stream's Adler-32 hold, and two decoders (zlib's raw rows through
      // the palette, sharp's) read the card put together the plain way.
      const plain = await drawer.pixels(props(text));
      expect(throughPalette(png).equals(plain)).toBe(true);
      expect((await pixels(png)).equals(plain)).toBe(true);
      // Against librsvg's drawing of the whole component: out of the box of words, its frame with
      // the few pixels of colours the palette has no room for (edges of the avatar, the emoji, the
      // letters of the frame) given the nearest entry; in it, the same letters in the same places
      // (edges a few levels apart, and a level of the ink's ramp at most 4 from the blend).
      const apart = difference(plain, await whole(text), wordsBox(Boolean(text.article)));
      expect(apart.outside.max).toBeLessThan(64);
      expect(apart.outside.mean).toBeLessThan(0.05);
      expect(apart.inside.max).toBeLessThan(64);
      expect(apart.inside.mean).toBeLessThan(0.25);
    },
  );

  it('writes a card in 8-bit indexed colour whose letters keep their antialiased edges: many levels between the paper and each ink', async () => {
    const png = await drawer.png(props(portuguese));
    // IHDR's bit depth and colour type (3: indexed).
    expect([png[24], png[25]]).toEqual([8, 3]);
    const card = await pixels(png);
    const box = wordsBox(true);
    const rgb = (colour: string) => [1, 3, 5].map((at) => Number.parseInt(colour.slice(at, at + 2), 16));
    const paper = rgb(look.colours.paper);
    for (const ink of [look.colours.heading, look.colours.muted]) {
      const over = rgb(ink);
      // The channel paper and ink differ most in tells how much ink a pixel has; the others must agree with it.
      const channel = [0, 1, 2].reduce((best, c) =>
        Math.abs((over[c] as number) - (paper[c] as number)) >
        Math.abs((over[best] as number) - (paper[best] as number))
          ? c
          : best,
      );
      const levels = new Set<string>();
      for (let y = box.top; y < box.top + box.height; y++) {
        for (let x = box.left; x < box.left + box.width; x++) {
          const pixel = [...card.subarray((y * CARD_WIDTH + x) * 3, (y * CARD_WIDTH + x) * 3 + 3)];
          const t =
            ((pixel[channel] as number) - (paper[channel] as number)) /
            ((over[channel] as number) - (paper[channel] as number));
          const between =
            t > 0.02 &&
            t < 0.98 &&
            pixel.every(
              (value, c) =>
                Math.abs(value - ((paper[c] as number) + t * ((over[c] as number) - (paper[c] as number)))) <= 2,
            );
          if (between) levels.add(pixel.join());
        }
      }
      expect(levels.size, ink).toBeGreaterThanOrEqual(16);
    }
  });

  it('draws every real article’s title from the glyph atlas: each word as wide as satori measured it', async () => {
    const titles = await realTitles();
    expect(titles.length).toBeGreaterThan(30);
    const drawnBy = await Promise.all(
      titles.map(async ({ lang, title }) => [
        title,
        (await drawer.draw(props({ ...(lang === 'en' ? english : portuguese), title }))).by,
      ]),
    );
    expect(drawnBy.filter(([, by]) => by !== 'glyphs')).toEqual([]);
  });

  it.each([
    ['an emoji in the title', { ...english, title: 'Git 💻 from the first commit' }],
    ['a letter Inter’s Latin file lacks', { ...portuguese, title: 'Łódź, a cidade' }],
  ])('falls back to librsvg for %s: the card is the component drawn whole', async (_, text) => {
    const { png, by } = await drawer.draw(props(text));
    expect(by).toBe('librsvg');
    readPng(png);
    expect((await pixels(png)).equals(await whole(text))).toBe(true);
  });

  it('draws the same bytes for the same card, whatever was drawn before it or at the same time, on any drawer', async () => {
    const second = { ...english, title: 'A second title, much longer than the first one, over two lines' };
    // Each drawn by a drawer of its own, on a frame and an atlas nothing else was drawn with.
    const [first, other] = await Promise.all([english, second].map(async (text) => new CardDrawer().png(props(text))));
    expect((await drawer.png(props(english))).equals(first as Buffer)).toBe(true);
    expect((await drawer.png(props(second))).equals(other as Buffer)).toBe(true);
    const both = await Promise.all([
      drawer.png(props(second)),
      drawer.png(props(english)),
      drawer.png(props(portuguese)),
    ]);
    expect(both[0].equals(other as Buffer)).toBe(true);
    expect(both[1].equals(first as Buffer)).toBe(true);
  });

  it('draws cards together (satori laying out their words in one drawing) as the same bytes as each alone', async () => {
    const texts = [
      english,
      page,
      { ...english, title: 'Git 💻 from the first commit' },
      portuguese,
      { ...page, lang: 'en' as const, title: 'About Me' },
    ];
    const together = await drawer.drawAll(texts.map(props));
    expect(together.map(({ by }) => by)).toEqual(['glyphs', 'glyphs', 'librsvg', 'glyphs', 'glyphs']);
    for (const [i, text] of texts.entries())
      expect(together[i]?.png.equals(await new CardDrawer().png(props(text))), text.title).toBe(true);
  });

  it('draws the same bytes for a card whose words it lays out itself as for one whose words satori laid out', async () => {
    // The first card of each shape (kind of box, title size, count of lines) is laid out by satori;
    // the next ones are not.
    const titles = [
      'Um título em duas linhas, com acentos: ação e coração, até ao fim',
      'Another title over two lines, longer than sixty letters in all',
    ];
    const learnt = new CardDrawer();
    await learnt.drawAll([english, portuguese, page].map(props));
    for (const title of titles) {
      for (const text of [
        { ...english, title },
        { ...portuguese, title },
        { ...page, title },
      ]) {
        const [own, bySatori] = await Promise.all([learnt.png(props(text)), new CardDrawer().png(props(text))]);
        expect(own.equals(bySatori), `${text.lang} ${title}`).toBe(true);
      }
    }
  });

  it('draws a card’s bytes whatever it drew before: a build’s thousands of cards drawn by one drawer are each as drawn alone', async () => {
    const texts = [
      english,
      portuguese,
      page,
      { ...english, title: 'Another title' },
      { ...portuguese, title: 'Outro título, com acentos' },
    ];
    const busy = new CardDrawer();
    // Frames, shapes of words and glyphs learnt from other cards first, then these together.
    await busy.drawAll(
      [
        { ...english, title: 'A first card, of another shape of words than the rest, drawn before them' },
        { ...portuguese, title: 'Ações' },
      ].map(props),
    );
    const drawn = await busy.drawAll(texts.map(props));
    for (const [i, text] of texts.entries())
      expect(drawn[i]?.png.equals(await new CardDrawer().png(props(text))), text.title).toBe(true);
  });

  it('draws from another drawer’s knowledge, kept as bytes (frames, shapes of words, glyphs), the same cards, and draws none of what it holds again', async () => {
    const texts = [
      english,
      portuguese,
      page,
      { ...english, title: 'Another title' },
      { ...portuguese, title: 'Outro título, com acentos' },
    ];
    const teacher = new CardDrawer();
    const taught = await teacher.drawAll(texts.map(props));
    // As the build cache keeps it between builds.
    const kept = deserialize(serialize(await teacher.knowledge())) as DrawerKnowledge;
    expect(kept.frames.length).toBe(3);
    const pupil = new CardDrawer();
    pupil.learn(kept);
    const drawn = await pupil.drawAll(texts.map(props));
    for (const [i, text] of texts.entries())
      expect(drawn[i]?.png.equals(taught[i]?.png as Buffer), text.title).toBe(true);
    // Not a frame, a shape or a glyph more than it was taught.
    const known = await pupil.knowledge();
    expect([known.frames.length, known.lines.length, known.masks.length]).toEqual([
      kept.frames.length,
      kept.lines.length,
      kept.masks.length,
    ]);
  });

  it('compresses a frame’s rows once: the cards of a frame share its head and tail', async () => {
    const second = { ...english, title: 'Another title' };
    const [a, b] = [await drawer.png(props(english)), await drawer.png(props(second))];
    const frame = await drawer.frame(props(english));
    expect(await drawer.frame(props(second))).toBe(frame);
    for (const png of [a, b]) {
      expect(png.subarray(0, frame.png.head.length).equals(frame.png.head)).toBe(true);
      expect(readPng(png).idat.at(-1)?.subarray(0, frame.png.tail.data.length).equals(frame.png.tail.data)).toBe(true);
    }
    expect(a.equals(b)).toBe(false);
  });

  it('draws a category’s emoji as Twemoji’s picture', async () => {
    // 💻 is a grey laptop with a blue screen, left of the category's name at the top of the card.
    const card = await pixels(await drawer.png(props(english)));
    let blue = 0;
    for (let y = 66; y < 106; y++) {
      for (let x = 72; x < 106; x++) {
        const [r, , b] = card.subarray((y * CARD_WIDTH + x) * 3, (y * CARD_WIDTH + x) * 3 + 3);
        if ((b as number) - (r as number) > 60) blue++;
      }
    }
    expect(blue).toBeGreaterThan(100);
    expect(twemojiNames('🏛️')).toEqual(['1f3db', '1f3db-fe0f']);
  });
});
