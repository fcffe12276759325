import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { CardDrawer, twemojiNames } from '../../src/cards/draw';
import { type CardLook, readCardLook } from '../../src/cards/look';
import { CARD_HEIGHT, CARD_WIDTH, type CardText, type ShareCardProps } from '../../src/shared/card';
import { PROJECT_ROOT } from '../support/content';

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
 * The drawer draws each card's frame once and, per card, its words alone: the picture must be
 * the card component drawn whole, pixel for pixel.
 */
describe('the share-card drawer', () => {
  let look: CardLook;
  let drawer: CardDrawer;
  const props = (text: CardText): ShareCardProps => ({ text, colours: look.colours, ...(look.avatar && { avatar: look.avatar }) });

  beforeAll(async () => {
    look = await readCardLook(PROJECT_ROOT, '/media/owner/avatar.svg');
    drawer = new CardDrawer();
  });

  it.each([
    ['an article in English', english],
    ['an article in Portuguese, with accents', portuguese],
    ['another page', page],
  ])('draws %s as the whole component drawn at once, in a 1200×630 PNG', async (_, text) => {
    const png = await drawer.png(props(text));
    const { format, width, height, channels } = await sharp(png).metadata();
    expect([format, width, height, channels]).toEqual(['png', CARD_WIDTH, CARD_HEIGHT, 3]);
    // Satori's masks are left out as the drawer leaves them out (they hide nothing on a card).
    const whole = (await drawer.svg(props(text))).replace(/ mask="url\(#satori_om-[\w-]*\)"/g, '');
    expect((await pixels(png)).equals(await pixels(whole))).toBe(true);
  });

  it('draws each card on its own frame: cards drawn in turn, and at once, keep nothing of each other', async () => {
    const second = { ...english, title: 'A second title, much longer than the first one, over two lines' };
    // Each drawn by a drawer of its own, on a frame no other card was drawn on.
    const [first, other] = await Promise.all([english, second].map(async (text) => pixels(await new CardDrawer().png(props(text)))));
    expect((await pixels(await drawer.png(props(english)))).equals(first as Buffer)).toBe(true);
    expect((await pixels(await drawer.png(props(second)))).equals(other as Buffer)).toBe(true);
    const both = await Promise.all([drawer.png(props(second)), drawer.png(props(english))]);
    expect((await pixels(both[0])).equals(other as Buffer)).toBe(true);
    expect((await pixels(both[1])).equals(first as Buffer)).toBe(true);
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
