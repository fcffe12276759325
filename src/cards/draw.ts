import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createElement, type ReactElement } from 'react';
import satori, { type SatoriOptions } from 'satori';
import sharp from 'sharp';
import { CardFrame, CardWords, ShareCard, wordsBox } from '../../templates/cards/ShareCard';
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

/** Pixels of a raw picture: 8-bit RGB, row after row. */
interface Pixels {
  data: Buffer;
  width: number;
  height: number;
}

/**
 * A card's frame as pixels, and those of them free to draw a card's words on: its pixels
 * themselves, and copies made for cards drawn at the same time. Outside the box of words they are
 * the frame's; inside it, the last card's words.
 */
interface Frame {
  pixels: Pixels;
  free: Buffer[];
}

/** Satori's mask of every element to its box (see `CardDrawer.raster`). */
const MASKS = / mask="url\(#satori_om-[\w-]*\)"/g;

/**
 * Draws share cards from the card component (templates/cards/ShareCard.tsx): satori turns it into
 * SVG, sharp (librsvg) into pixels, and sharp writes the PNG. What repeats, a card's frame (paper,
 * colour bar, category, the navy foot with avatar and names), is drawn once per language and
 * category and kept as raw pixels; each card draws only its words, in their box, and lays them on
 * a copy of its frame. The fonts are read once, when it is made, and each emoji's picture once,
 * when first drawn.
 */
export class CardDrawer {
  private readonly fonts: SatoriOptions['fonts'];
  private readonly emoji = new Map<string, string | undefined>();
  /** Each frame drawn, by what it shows (`frameKey`). */
  private readonly frames = new Map<string, Promise<Frame>>();

  constructor() {
    this.fonts = FONT_FILES.map(({ weight, file }) => ({ name: 'Inter', data: readFileSync(require.resolve(file)), weight, style: 'normal' as const }));
  }

  /** A whole card as SVG, frame and words in one drawing. */
  svg(props: ShareCardProps): Promise<string> {
    return this.satori(createElement(ShareCard, props), CARD_WIDTH, CARD_HEIGHT);
  }

  /**
   * A card as PNG bytes: its words drawn over the box of words on its frame. The words cover their
   * box whole, so a frame's pixels are drawn on in place, card after card (a copy of them for a card
   * drawn while another of the same frame is).
   */
  async png(props: ShareCardProps): Promise<Buffer> {
    const [frame, words] = await Promise.all([this.frame(props), this.words(props)]);
    const box = wordsBox(Boolean(props.text.article));
    const canvas = frame.free.pop() ?? Buffer.from(frame.pixels.data);
    try {
      const row = box.width * 3;
      for (let y = 0; y < box.height; y++) words.data.copy(canvas, ((box.top + y) * CARD_WIDTH + box.left) * 3, y * row, (y + 1) * row);
      return await encodePng({ data: canvas, width: CARD_WIDTH, height: CARD_HEIGHT });
    } finally {
      frame.free.push(canvas);
    }
  }

  /** A card's frame: drawn once for all the cards that share it. */
  async frame(props: ShareCardProps): Promise<Frame> {
    const key = frameKey(props);
    let frame = this.frames.get(key);
    if (!frame) {
      frame = this.satori(createElement(CardFrame, props), CARD_WIDTH, CARD_HEIGHT)
        .then(raster)
        .then((pixels) => ({ pixels, free: [pixels.data] }));
      // A frame that failed is drawn again for the next card, which then reports it too.
      frame.catch(() => this.frames.delete(key));
      this.frames.set(key, frame);
    }
    return frame;
  }

  /** A card's own words as pixels, the size of their box (`wordsBox`). */
  async words({ text, colours }: ShareCardProps): Promise<Pixels> {
    const box = wordsBox(Boolean(text.article));
    return raster(await this.satori(createElement(CardWords, { text, colours }), box.width, box.height));
  }

  /**
   * Satori with the fonts read once (satori keeps what it parsed of them while given the same
   * list). Letters are written as outlines (`embedFont`): librsvg needs no font of its own. Inter
   * has no emoji: satori asks for each as a picture, kept once read (`emojiPicture`); a card's
   * words rarely hold one, its frame's category does.
   */
  private satori(element: ReactElement, width: number, height: number): Promise<string> {
    return satori(element, { width, height, fonts: this.fonts, embedFont: true, loadAdditionalAsset: this.loadAsset });
  }

  private readonly loadAsset = async (code: string, segment: string) => (code === 'emoji' ? (this.emojiPicture(segment) ?? []) : []);

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

/** What a card's frame shows: every card with the same is drawn on the same frame. */
function frameKey({ text, colours, avatar }: ShareCardProps): string {
  return JSON.stringify([text.siteName, text.subtitle, text.host, text.article?.category ?? null, colours, avatar ?? null]);
}

/**
 * An SVG drawn into RGB pixels. Satori masks every element to its box, for overflow and rounded
 * corners: a card's images (the avatar, an emoji) lie within their boxes, square, so the masks
 * hide nothing, and librsvg draws each mask on an offscreen canvas the size of the picture. The
 * card is opaque: no alpha channel.
 */
async function raster(svg: string): Promise<Pixels> {
  const { data, info } = await sharp(Buffer.from(svg.replace(MASKS, '')))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/**
 * Raw RGB pixels as a PNG, compressed fast: zlib's level 1, no filters. On a card's flat colours
 * that takes half the time of the default level 6 for a third more bytes (2.2 ms and 80 KiB
 * against 4.4 ms and 61 KiB); adaptive filtering takes nine times as long for a larger file, a
 * palette of 256 colours forty (libimagequant) for a third of the size.
 */
function encodePng({ data, width, height }: Pixels): Promise<Buffer> {
  return sharp(data, { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 1, adaptiveFiltering: false })
    .toBuffer();
}
