import type { CardType, CardWeight } from './fonts';
import { loadSharp } from './sharp';

/** Steps of a pixel a glyph's place is rounded to, across and down: its masks are drawn at each. */
export const STEPS = 4;

/**
 * A glyph drawn at one size and sub-pixel place: its coverage (0 to 255), and where it lies from
 * the pixel of its place.
 */
export interface GlyphMask {
  left: number;
  top: number;
  width: number;
  height: number;
  coverage: Uint8Array;
}

/** A glyph to draw: which, in which weight and size, at which steps of a pixel (0 to STEPS - 1) right and down. */
export interface GlyphKey {
  weight: CardWeight;
  size: number;
  glyph: number;
  stepX: number;
  stepY: number;
}

/** How wide the sheet of glyphs drawn at once is; it is as tall as they need. */
const SHEET_WIDTH = 2048;

/**
 * The common letters drawn on one sheet (each at every step across): a few hundred pixels tall
 * at the largest size. A sheet of all of them was thousands of pixels tall, tens of megabytes to
 * draw, which the C allocator then kept (see sharp.ts).
 */
const SHEET_LETTERS = 24;

/**
 * The letters most titles, dates and reading times are made of (ASCII, the Latin-1 letters, the
 * usual quotes and dashes): drawn, at every step across, on sheets per weight, size and step down
 * (`SHEET_LETTERS` letters each, always the same), the first time a card needs one of them.
 */
const COMMON = [
  ...Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)),
  ...'ÀÁÂÃÄÇÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜàáâãäçèéêëìíîïñòóôõöùúûü‘’“”–—…€',
];

/**
 * The card's glyphs as coverage masks, each drawn by librsvg (through sharp) and kept for the life
 * of the thread: a few thousand small masks. librsvg draws a glyph with pixels that may differ by
 * one level with what else is on its sheet, so each mask is drawn on a sheet fixed by its own
 * key, whatever card asked for it first, and a card is the same bytes whatever was drawn before
 * it: the common letters of a weight, size and step down at every step across on a few sheets, each
 * of the same letters every time; any other glyph at every step across on a sheet of its own.
 */
export class GlyphAtlas {
  private readonly masks = new Map<string, GlyphMask>();
  /** The glyph ids of the common letters, per weight. */
  private readonly commonGlyphs = new Map<CardWeight, number[]>();

  constructor(private readonly type: CardType) {}

  /** How many masks it holds. */
  get size(): number {
    return this.masks.size;
  }

  /** Every mask drawn or learnt so far, by its key's name: for another atlas to `learn`. */
  drawn(): [string, GlyphMask][] {
    return [...this.masks];
  }

  /** Takes masks another atlas drew (`drawn`): the same glyphs are not drawn here again. */
  learn(masks: readonly [string, GlyphMask][]): void {
    for (const [name, mask] of masks) if (!this.masks.has(name)) this.masks.set(name, mask);
  }

  /** The mask of a glyph already drawn (see `draw`). */
  mask(key: GlyphKey): GlyphMask | undefined {
    return this.masks.get(keyName(key));
  }

  /** Draws the sheets of the glyphs of `keys` that have no mask yet. */
  async draw(keys: Iterable<GlyphKey>): Promise<void> {
    const sheets = new Map<string, GlyphKey[]>();
    for (const key of keys) {
      if (this.masks.has(keyName(key))) continue;
      const { weight, size, glyph, stepY } = key;
      const common = this.common(weight);
      const at = common.indexOf(glyph);
      const part = Math.floor(at / SHEET_LETTERS);
      const name = at >= 0 ? `${weight} ${size} ${stepY} common ${part}` : `${weight} ${size} ${stepY} ${glyph}`;
      if (sheets.has(name)) continue;
      const glyphs = at >= 0 ? common.slice(part * SHEET_LETTERS, (part + 1) * SHEET_LETTERS) : [glyph];
      sheets.set(
        name,
        glyphs.flatMap((each) =>
          Array.from({ length: STEPS }, (_, stepX) => ({ weight, size, glyph: each, stepX, stepY })),
        ),
      );
    }
    // One at a time: a sheet's drawing takes tens of megabytes (librsvg's canvas, libvips' copies),
    // which the allocator keeps once freed, so drawing them together would keep their sum.
    for (const sheet of sheets.values()) await this.drawSheet(sheet);
  }

  /** The glyphs of the common letters in a weight, in the order of their ids. */
  private common(weight: CardWeight): number[] {
    let glyphs = this.commonGlyphs.get(weight);
    if (!glyphs) {
      glyphs = [
        ...new Set(
          COMMON.flatMap((letter) => (this.type.shape(weight, letter)?.glyphs ?? []).map(({ glyph }) => glyph)),
        ),
      ].sort((a, b) => a - b);
      this.commonGlyphs.set(weight, glyphs);
    }
    return glyphs;
  }

  /**
   * Draws glyphs on one sheet, in rows, each on whole pixels of its own with a pixel of margin, and
   * keeps their masks.
   */
  private async drawSheet(keys: GlyphKey[]): Promise<void> {
    const cells: { name: string; box: GlyphMask; x: number; y: number; path: string }[] = [];
    let x = 0;
    let y = 0;
    let rowHeight = 0;
    for (const key of keys) {
      const outline = this.type.outline(key.weight, key.glyph);
      const scale = key.size / this.type.unitsPerEm(key.weight);
      const dx = key.stepX / STEPS;
      const dy = key.stepY / STEPS;
      const box = pixelBox(outline, scale, dx, dy);
      if (x + box.width > SHEET_WIDTH) {
        x = 0;
        y += rowHeight;
        rowHeight = 0;
      }
      cells.push({
        name: keyName(key),
        box,
        x,
        y,
        path: placedPath(outline, scale, dx, dy, x - box.left, y - box.top),
      });
      x += box.width;
      rowHeight = Math.max(rowHeight, box.height);
    }
    const height = y + rowHeight;
    const paths = cells.filter((cell) => cell.path).map((cell) => `<path d="${cell.path}"/>`);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${SHEET_WIDTH}" height="${height}" viewBox="0 0 ${SHEET_WIDTH} ${height}">${paths.join('')}</svg>`;
    const sharp = await loadSharp();
    const sheet = await sharp(Buffer.from(svg)).ensureAlpha().extractChannel(3).raw().toBuffer();
    for (const { name, box, x: left, y: top } of cells) {
      const coverage = new Uint8Array(box.width * box.height);
      for (let row = 0; row < box.height; row++)
        coverage.set(
          sheet.subarray((top + row) * SHEET_WIDTH + left, (top + row) * SHEET_WIDTH + left + box.width),
          row * box.width,
        );
      this.masks.set(name, { ...box, coverage });
    }
  }
}

/**
 * Places a point is rounded to, per pixel: a power of two, so that a place plus whole pixels is
 * exact, and librsvg's own (1/256) finer.
 */
const GRID = 64;

/**
 * A glyph's outline (font units, y up) as path data in pixels on the sheet: scaled, moved `dx`,
 * `dy` of a pixel from the whole pixel (`left`, `top`), y down. Each point is rounded to 1/64 of a
 * pixel before the whole pixels are added, so the glyph is drawn the same wherever the sheet
 * puts it.
 */
function placedPath(outline: string, scale: number, dx: number, dy: number, left: number, top: number): string {
  let index = 0;
  return outline.replace(/-?\d+(?:\.\d+)?(?:e-?\d+)?/g, (number) => {
    const across = index++ % 2 === 0;
    const offset = across
      ? Math.round((Number(number) * scale + dx) * GRID)
      : Math.round((dy - Number(number) * scale) * GRID);
    return String((across ? left : top) + offset / GRID);
  });
}

function keyName({ weight, size, glyph, stepX, stepY }: GlyphKey): string {
  return `${weight} ${size} ${glyph} ${stepX} ${stepY}`;
}

/**
 * The pixels a glyph's outline (font units, y up) covers, scaled and placed `dx`, `dy` of a pixel
 * right and down of a pixel's corner, with a pixel of margin: the control points of its curves
 * bound it.
 */
function pixelBox(outline: string, scale: number, dx: number, dy: number): GlyphMask {
  const numbers = outline.match(/-?\d+(?:\.\d+)?(?:e-?\d+)?/g)?.map(Number) ?? [];
  if (numbers.length < 2) return { left: 0, top: 0, width: 1, height: 1, coverage: new Uint8Array(1) };
  let minX = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (let i = 0; i + 1 < numbers.length; i += 2) {
    const px = numbers[i] as number;
    const py = numbers[i + 1] as number;
    minX = Math.min(minX, px);
    maxX = Math.max(maxX, px);
    minY = Math.min(minY, py);
    maxY = Math.max(maxY, py);
  }
  const left = Math.floor(dx + minX * scale) - 1;
  const top = Math.floor(dy - maxY * scale) - 1;
  const right = Math.ceil(dx + maxX * scale) + 1;
  const bottom = Math.ceil(dy - minY * scale) + 1;
  return { left, top, width: right - left, height: bottom - top, coverage: new Uint8Array(0) };
}
