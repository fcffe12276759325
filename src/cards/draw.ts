import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createElement, type ReactElement } from 'react';
import type { SatoriOptions } from 'satori';
import { CardFrame, CardWordsColumn, ShareCard, WORDS_INKS, wordsBox } from '../../templates/cards/ShareCard';
import { CARD_HEIGHT, CARD_WIDTH, type ShareCardProps } from '../shared/card';
import { GlyphAtlas, type GlyphMask } from './atlas';
import { CardType, satoriFonts } from './fonts';
import { type Lines, layOutAcross, layOutDown, linesOf } from './layout';
import { type Band, type PlacedGlyph, paintGlyphs, placeGlyphs } from './paint';
import { type BandInks, paletteFrame } from './palette';
import { cardPng, type PngFrame, pngFrame } from './png';
import { loadSharp } from './sharp';
import { laidWords } from './words';

const require = createRequire(import.meta.url);

/** The folder of Twemoji's SVG files (@twemoji/svg), one per emoji, named by its code points. */
const EMOJI_DIR = path.dirname(require.resolve('@twemoji/svg/package.json'));

/** Pixels of a raw picture: 8-bit RGB, row after row. */
interface Pixels {
  data: Buffer;
  width: number;
  height: number;
}

/**
 * A card's frame: the parts of its PNG that every card drawn on it shares, and the entries of its
 * palette its words are painted with. Its pixels are not kept (0.75 MB a frame in palette
 * indices, some twenty frames a thread): nothing but `pixels` needs them again. Plain data, sent
 * from one thread to another.
 */
export interface Frame {
  png: PngFrame;
  inks: BandInks;
}

/**
 * What a drawer has learnt that depends on nothing but the code that draws and what each part
 * shows: each frame (by `frameKey`, which names the colours and the avatar), the lines down of
 * each shape of words (layout.ts) and the masks of the glyphs drawn (atlas.ts). Plain data: a
 * drawing is the same bytes whatever was drawn before it, so a drawer that learns it draws as the
 * one that learnt it would, without satori or librsvg for what it holds.
 */
export interface DrawerKnowledge {
  frames: [string, Frame][];
  lines: [string, Lines][];
  masks: [string, GlyphMask][];
}

/** How a card's words were drawn: from the glyph atlas, or by librsvg from satori's outlines. */
export type DrawnBy = 'glyphs' | 'librsvg';

/**
 * A card's words, ready to be laid on its band: glyphs in their places (their masks drawn), or the
 * whole card drawn by librsvg.
 */
type Words = GlyphWords | { by: 'librsvg'; png: Buffer };
type GlyphWords = { by: 'glyphs'; glyphs: PlacedGlyph[]; atlas: GlyphAtlas };

/**
 * Satori, loaded when a drawer first needs it (a card of a shape of words not laid out before, a
 * frame not drawn before), as sharp is (sharp.ts).
 */
let satoriModule: Promise<typeof import('satori')['default']> | undefined;
const loadSatori = () => {
  satoriModule ??= import('satori').then((module) => module.default);
  return satoriModule;
};

/** Satori's mask of every element to its box (see `raster`). */
const MASKS = / mask="url\(#satori_om-[\w-]*\)"/g;

/**
 * Draws share cards from the card component (templates/cards/ShareCard.tsx). What repeats, a
 * card's frame (paper, colour bar, category, the navy foot with avatar and names), is drawn once
 * per language and category by satori and librsvg, put in a palette of 256 colours with ramps of
 * the words' inks (palette.ts), and the rows of its PNG above and below the box of words
 * compressed once (png.ts). A card's words (`CardWords`) are laid out here as satori would lay
 * them out (layout.ts), once satori has laid out one card of the same shape, whose lines down are
 * kept; satori lays out the words of the others (those of cards drawn together in one drawing,
 * without embedded fonts: one `<text>` per word). Its glyphs are painted in the ramps' entries
 * from masks drawn once per glyph, size and step of a pixel (atlas.ts, paint.ts) on the paper of
 * the box's rows; only the rows with words on them are compressed per card. A card whose words
 * the glyphs cannot draw (an emoji, a letter Inter's Latin file lacks) is drawn whole by librsvg
 * from satori's outlines (`wholeCard`). The fonts are read once, when it is made, and each emoji's
 * picture once, when first drawn.
 */
export class CardDrawer {
  /** The fonts as satori is given them, read when satori is first needed. */
  private fontsRead?: SatoriOptions['fonts'];
  private readonly emoji = new Map<string, string | undefined>();
  /** Each frame drawn, by what it shows (`frameKey`). */
  private readonly frames = new Map<string, Promise<Frame>>();
  /**
   * The rows of a box of words a card is painted on, per kind of box, kept blank between cards (the
   * paper is every palette's entry 0).
   */
  private readonly bands = new Map<boolean, Band>();
  private glyphs?: Promise<{ type: CardType; atlas: GlyphAtlas }>;
  /**
   * The lines down of each shape of a card's words (layout.ts), read from satori's drawing of the
   * first card of that shape.
   */
  private readonly lines = new Map<string, Lines>();

  /** What this drawer has learnt so far (frames that failed left out), for another to `learn`. */
  async knowledge(): Promise<DrawerKnowledge> {
    const frames = await Promise.allSettled(
      [...this.frames].map(async ([key, frame]): Promise<[string, Frame]> => [key, await frame]),
    );
    const masks = this.glyphs ? (await this.glyphs).atlas.drawn() : [];
    return {
      frames: frames.flatMap((frame) => (frame.status === 'fulfilled' ? [frame.value] : [])),
      lines: [...this.lines],
      masks,
    };
  }

  /** How many frames, shapes of words and glyphs this drawer knows: more after a drawing that learnt something. */
  async known(): Promise<number> {
    return this.frames.size + this.lines.size + (this.glyphs ? (await this.glyphs).atlas.size : 0);
  }

  /** Takes what another drawer learnt (`knowledge`): what it holds is not drawn nor laid out here again. */
  learn({ frames, lines, masks }: DrawerKnowledge): void {
    for (const [key, frame] of frames) if (!this.frames.has(key)) this.frames.set(key, Promise.resolve(frame));
    for (const [shape, each] of lines) if (!this.lines.has(shape)) this.lines.set(shape, each);
    this.glyphs = this.glyphSet().then((glyphs) => {
      glyphs.atlas.learn(masks);
      return glyphs;
    });
  }

  /** A whole card as SVG, frame and words in one drawing. */
  svg(props: ShareCardProps): Promise<string> {
    return this.satori(createElement(ShareCard, props), CARD_WIDTH, CARD_HEIGHT);
  }

  /** A card as PNG bytes. */
  async png(props: ShareCardProps): Promise<Buffer> {
    return (await this.draw(props)).png;
  }

  /** A card as PNG bytes, and how its words were drawn. */
  async draw(props: ShareCardProps): Promise<{ png: Buffer; by: DrawnBy }> {
    return (await this.drawAll([props]))[0] as { png: Buffer; by: DrawnBy };
  }

  /**
   * Cards as PNG bytes, and how the words of each were drawn: the same bytes as each drawn alone,
   * satori laying out the words of those with the same kind of box in one drawing, which costs
   * less than one each.
   */
  async drawAll(cards: readonly ShareCardProps[]): Promise<{ png: Buffer; by: DrawnBy }[]> {
    const [frames, words] = await Promise.all([
      Promise.all(cards.map((props) => this.frame(props))),
      this.words(cards),
    ]);
    return cards.map((props, i) => {
      const drawn = words[i] as Words;
      if (drawn.by === 'librsvg') return drawn;
      let png: Buffer = Buffer.alloc(0);
      this.onBand(props, frames[i] as Frame, drawn, (frame, band) => {
        png = cardPng(frame.png, band);
      });
      return { png, by: drawn.by };
    });
  }

  /**
   * A card's pixels (8-bit RGB) put together the plain way: what its PNG must decode to. For one
   * drawn from glyphs, its frame drawn again and put in palette indices, its box's rows laid over
   * them, each index then its palette's colour; for another, the whole card drawn by librsvg.
   */
  async pixels(props: ShareCardProps): Promise<Buffer> {
    const [frame, [words]] = await Promise.all([this.frame(props), this.words([props])]);
    if (words?.by !== 'glyphs') return (await raster(await this.svg(props))).data;
    const framePixels = await raster(await this.frameSvg(props));
    const { palette, indices } = paletteFrame(framePixels.data, props.colours.paper, bandInks(props));
    this.onBand(props, frame, words, (_, band) => {
      for (let y = 0; y < band.height; y++)
        band.rows.copy(indices, (frame.png.bandTop + y) * CARD_WIDTH, y * band.rowBytes + 1, (y + 1) * band.rowBytes);
    });
    const picture = Buffer.alloc(indices.length * 3);
    for (const [i, index] of indices.entries()) palette.copy(picture, i * 3, index * 3, index * 3 + 3);
    return picture;
  }

  /** A card's frame: drawn once for all the cards that share it. */
  async frame(props: ShareCardProps): Promise<Frame> {
    const key = frameKey(props);
    let frame = this.frames.get(key);
    if (!frame) {
      const box = wordsBox(Boolean(props.text.article));
      frame = this.frameSvg(props)
        .then(raster)
        .then((pixels) => {
          const { palette, indices, inks } = paletteFrame(pixels.data, props.colours.paper, bandInks(props));
          return {
            png: pngFrame({
              width: CARD_WIDTH,
              height: CARD_HEIGHT,
              palette,
              indices,
              bandTop: box.top,
              bandRows: box.height,
            }),
            inks,
          };
        });
      // A frame that failed is drawn again for the next card, which then reports it too.
      frame.catch(() => this.frames.delete(key));
      this.frames.set(key, frame);
    }
    return frame;
  }

  private frameSvg(props: ShareCardProps): Promise<string> {
    return this.satori(createElement(CardFrame, props), CARD_WIDTH, CARD_HEIGHT);
  }

  /**
   * Paints a card's glyphs on the blank rows of its box and hands them, with its frame, to `use`,
   * then blanks them again: at once, with no await, so that cards drawn at the same time share
   * the rows.
   */
  private onBand(
    props: ShareCardProps,
    frame: Frame,
    words: GlyphWords,
    use: (frame: Frame, band: Band) => void,
  ): void {
    const band = this.band(Boolean(props.text.article), frame.png.rowBytes);
    try {
      paintGlyphs(words.glyphs, words.atlas, band, frame.inks);
      use(frame, band);
    } finally {
      blankBand(band);
    }
  }

  /** The blank rows of a kind of box, made on first use: all zeros (filter 0, the paper), and so their sums. */
  private band(article: boolean, rowBytes: number): Band {
    let band = this.bands.get(article);
    if (!band) {
      const box = wordsBox(article);
      band = {
        rows: Buffer.alloc(rowBytes * box.height),
        rowBytes,
        left: box.left,
        width: box.width,
        height: box.height,
        inked: new Uint8Array(box.height),
        sums: new Float64Array(box.height),
        weighted: new Float64Array(box.height),
      };
      this.bands.set(article, band);
    }
    return band;
  }

  /**
   * Cards' own words: the glyphs of each placed and their masks drawn, or, where the glyphs cannot
   * draw them, the whole card drawn by librsvg (`wholeCard`). A card's words are laid out here, as satori would
   * (layout.ts), once satori has drawn a card of the same shape (kind of box, title size, count of
   * lines), whose lines down are kept; satori lays out the others, those with the same kind of box
   * and colours in one drawing, their boxes one under the other.
   */
  private async words(cards: readonly ShareCardProps[]): Promise<Words[]> {
    const { type, atlas } = await this.glyphSet();
    const placed: (PlacedGlyph[] | undefined)[] = [];
    const bySatori = new Map<string, number[]>();
    for (const [i, { text, colours }] of cards.entries()) {
      const across = layOutAcross(text, colours, type);
      const lines = across && this.lines.get(across.shape);
      const laid = across && lines && layOutDown(across, lines);
      const glyphs = laid && placeGlyphs(laid, type);
      if (glyphs) placed[i] = glyphs;
      else {
        const key = JSON.stringify([Boolean(text.article), colours]);
        bySatori.set(key, [...(bySatori.get(key) ?? []), i]);
      }
    }
    await Promise.all(
      [...bySatori.values()].map(async (members) => {
        const { colours, text } = cards[members[0] as number] as ShareCardProps;
        const box = wordsBox(Boolean(text.article));
        const column = createElement(CardWordsColumn, {
          texts: members.map((i) => (cards[i] as ShareCardProps).text),
          colours,
        });
        const height = box.height * members.length;
        const satori = await loadSatori();
        const svg = await satori(column, {
          width: box.width,
          height,
          fonts: this.fonts(),
          embedFont: false,
          loadAdditionalAsset: this.loadAsset,
        });
        for (const [k, laid] of laidWords(svg, box.width, box.height, members.length, colours.paper).entries()) {
          const i = members[k] as number;
          const props = cards[i] as ShareCardProps;
          const across = laid && layOutAcross(props.text, props.colours, type);
          const lines = across && linesOf(across, laid);
          if (across && lines) this.lines.set(across.shape, lines);
          placed[i] = laid && placeGlyphs(laid, type);
        }
      }),
    );
    await atlas.draw(placed.flatMap((glyphs) => glyphs ?? []).map((glyph) => glyph.key));
    return Promise.all(
      cards.map(async (props, i): Promise<Words> => {
        const glyphs = placed[i];
        return glyphs ? { by: 'glyphs', glyphs, atlas } : { by: 'librsvg', png: await this.wholeCard(props) };
      }),
    );
  }

  /**
   * A card whose words the glyphs cannot draw (an emoji, a letter Inter's Latin file lacks): drawn
   * whole by librsvg from satori's outlines, and written by sharp as 8-bit RGB, not in its frame's
   * palette, which has no entries for an emoji's colours. A category page's card is one.
   */
  private async wholeCard(props: ShareCardProps): Promise<Buffer> {
    const { data, width, height } = await raster(await this.svg(props));
    const sharp = await loadSharp();
    return sharp(data, { raw: { width, height, channels: 3 } })
      .png({ compressionLevel: 9 })
      .toBuffer();
  }

  /**
   * Satori with the fonts read once (satori keeps what it parsed of them while given the same
   * list). Letters are written as outlines (`embedFont`): librsvg needs no font of its own. Inter
   * has no emoji: satori asks for each as a picture, kept once read (`emojiPicture`); a card's
   * words rarely hold one, its frame's category does.
   */
  private async satori(element: ReactElement, width: number, height: number): Promise<string> {
    const satori = await loadSatori();
    return satori(element, {
      width,
      height,
      fonts: this.fonts(),
      embedFont: true,
      loadAdditionalAsset: this.loadAsset,
    });
  }

  private fonts(): SatoriOptions['fonts'] {
    this.fontsRead ??= satoriFonts();
    return this.fontsRead;
  }

  /** Inter for HarfBuzz and the glyph atlas, made on first use. */
  private glyphSet(): Promise<{ type: CardType; atlas: GlyphAtlas }> {
    this.glyphs ??= CardType.load().then((type) => ({ type, atlas: new GlyphAtlas(type) }));
    return this.glyphs;
  }

  private readonly loadAsset = async (code: string, segment: string) =>
    code === 'emoji' ? (this.emojiPicture(segment) ?? []) : [];

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
  return JSON.stringify([
    text.siteName,
    text.subtitle,
    text.host,
    text.article?.category ?? null,
    colours,
    avatar ?? null,
  ]);
}

/**
 * An SVG drawn into RGB pixels. Satori masks every element to its box, for overflow and rounded
 * corners: a card's images (the avatar, an emoji) lie within their boxes, square, so the masks
 * hide nothing, and librsvg draws each mask on an offscreen canvas the size of the picture. The
 * card is opaque: no alpha channel.
 */
async function raster(svg: string): Promise<Pixels> {
  const sharp = await loadSharp();
  const { data, info } = await sharp(Buffer.from(svg.replace(MASKS, '')))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** The rows painted on made blank again (zeros), with their sums. */
function blankBand(band: Band): void {
  for (let y = 0; y < band.height; y++) {
    if (!band.inked[y]) continue;
    band.rows.fill(0, y * band.rowBytes, (y + 1) * band.rowBytes);
    band.sums[y] = 0;
    band.weighted[y] = 0;
  }
  band.inked.fill(0);
}

/** The colours a card's words are painted in: each has a ramp in its frame's palette. */
function bandInks({ colours }: ShareCardProps): string[] {
  return WORDS_INKS.map((ink) => colours[ink]);
}
