import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createElement } from 'react';
import satori, { type SatoriOptions } from 'satori';
import sharp from 'sharp';
import { ShareCard } from '../../templates/cards/ShareCard';
import { CARD_HEIGHT, CARD_WIDTH, type ShareCardProps } from '../shared/card';

const require = createRequire(import.meta.url);

/**
 * The cards' typeface: Inter, from @fontsource/inter, in the two weights a card uses, each with
 * its Latin and Latin Extended files (satori picks, glyph by glyph, the first file that has it).
 * Satori reads TrueType, OpenType and WOFF, not WOFF2.
 */
const FONT_FILES = [400, 700].flatMap((weight) => ['latin', 'latin-ext'].map((subset) => ({ weight: weight as 400 | 700, file: `@fontsource/inter/files/inter-${subset}-${weight}-normal.woff` })));

/** The folder of Twemoji's SVG files (@twemoji/svg), one per emoji, named by its code points. */
const EMOJI_DIR = path.dirname(require.resolve('@twemoji/svg/package.json'));

/**
 * Draws share cards: the card component turned into SVG by satori, the SVG into a PNG by sharp.
 * The fonts are read once, when it is made, and each emoji's picture once, when first drawn.
 */
export class CardDrawer {
  private readonly options: SatoriOptions;
  private readonly emoji = new Map<string, string | undefined>();

  constructor() {
    const fonts = FONT_FILES.map(({ weight, file }) => ({ name: 'Inter', data: readFileSync(require.resolve(file)), weight, style: 'normal' as const }));
    this.options = {
      width: CARD_WIDTH,
      height: CARD_HEIGHT,
      fonts,
      // Inter has no emoji: satori asks for each as a picture.
      loadAdditionalAsset: async (code, segment) => (code === 'emoji' ? (this.emojiPicture(segment) ?? []) : []),
    };
  }

  /** A card as SVG. */
  svg(props: ShareCardProps): Promise<string> {
    return satori(createElement(ShareCard, props), this.options);
  }

  /**
   * A card as PNG bytes. Satori masks every image to its box, for overflow and rounded corners: a
   * card's images (the avatar, an emoji) lie within their boxes, square, so the mask hides nothing,
   * and librsvg draws each mask on an offscreen canvas the size of the card (9 of a card's 27 ms).
   * The card is opaque: written without an alpha channel, and without adaptive filtering, which
   * made the same size of file on these flat colours in three times the time.
   */
  async png(props: ShareCardProps): Promise<Buffer> {
    const svg = (await this.svg(props)).replace(/ mask="url\(#satori_om-[\w-]*\)"/g, '');
    return sharp(Buffer.from(svg)).removeAlpha().png({ adaptiveFiltering: false }).toBuffer();
  }

  /** An emoji's Twemoji picture as a data URL; undefined for one Twemoji does not draw. */
  private emojiPicture(segment: string): string | undefined {
    if (this.emoji.has(segment)) return this.emoji.get(segment);
    let picture: string | undefined;
    for (const name of twemojiNames(segment)) {
      try {
        picture = `data:image/svg+xml;base64,${readFileSync(path.join(EMOJI_DIR, `${name}.svg`)).toString('base64')}`;
        break;
      } catch {
        // Not under this name: the next.
      }
    }
    this.emoji.set(segment, picture);
    return picture;
  }
}

/**
 * The names Twemoji may file an emoji under: its code points in hexadecimal joined by "-", and,
 * for one that is not a sequence joined by U+200D, without the variation selector U+FE0F that
 * asks for the emoji presentation ("🏛️" is 1f3db-fe0f, filed as 1f3db).
 */
export function twemojiNames(segment: string): string[] {
  const points = [...segment].map((char) => (char.codePointAt(0) as number).toString(16));
  const bare = points.filter((point) => point !== 'fe0f').join('-');
  const full = points.join('-');
  return segment.includes('\u200d') ? [full, bare] : [bare, full];
}
