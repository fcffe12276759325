import { type GlyphAtlas, type GlyphKey, STEPS } from './atlas';
import type { CardType } from './fonts';
import type { LaidWord } from './words';

/** A glyph in its place: its mask's key, the pixel its place was rounded into, its colour. */
export interface PlacedGlyph {
  key: GlyphKey;
  x: number;
  y: number;
  fill: string;
}

/** How far a word's width may be from satori's before the glyphs are not trusted to be satori's. */
const WIDTH_TOLERANCE = 0.01;

/** Satori's word separators (`wordSeparators` in its utils.ts): a run of words it draws together ends after one. */
const SEPARATORS = new Set([0x20, 0xa0, 0x1361, 0x10100, 0x10101, 0x1039, 0x1091, 0x0a].map((point) => String.fromCodePoint(point)));

/**
 * Each glyph of satori's words in its place, as satori itself would draw them with embedded
 * fonts (its text/index.ts and font.ts): the words of a line are shaped together up to and with
 * each separator (so that kerning between a word and its comma is kept), each such run from the
 * place of its first word (rounded to a whole pixel in a paragraph of several lines), the pen
 * moving by each glyph's advance and by the letter spacing after each character. Places are
 * rounded to a step of a pixel. Undefined when a word has a letter Inter's Latin file lacks, or is
 * not as wide, shaped here, as satori measured it.
 */
export function placeGlyphs(words: readonly LaidWord[], type: CardType): PlacedGlyph[] | undefined {
  for (const word of words) {
    const shaped = type.shape(word.weight, word.text);
    if (!shaped) return undefined;
    const scale = word.size / type.unitsPerEm(word.weight);
    if (Math.abs(shaped.advance * scale + shaped.clusters * word.letterSpacing - word.width) > WIDTH_TOLERANCE) return undefined;
  }
  const lines = new Map<string, Set<number>>();
  for (const word of words) lines.set(styleOf(word), (lines.get(styleOf(word)) ?? new Set()).add(word.y));
  const placed: PlacedGlyph[] = [];
  let run: { first: LaidWord; text: string } | undefined;
  for (const [i, word] of words.entries()) {
    run = run ? { ...run, text: run.text + word.text } : { first: word, text: word.text };
    const next = words[i + 1];
    if (!SEPARATORS.has(word.text) && next && next.y === word.y && styleOf(next) === styleOf(word)) continue;
    const { first, text } = run;
    run = undefined;
    const shaped = type.shape(first.weight, text);
    if (!shaped) return undefined;
    const scale = first.size / type.unitsPerEm(first.weight);
    const left = (lines.get(styleOf(first))?.size ?? 0) > 1 ? Math.round(first.x) : first.x;
    for (const glyph of shaped.glyphs) {
      const stepsX = Math.round((left + glyph.advance * scale + glyph.clusters * first.letterSpacing + glyph.dx * scale) * STEPS);
      // Satori adds HarfBuzz's vertical offset as it comes (y up) to a y that points down; Inter's Latin letters have none.
      const stepsY = Math.round((first.y + glyph.dy * scale) * STEPS);
      const x = Math.floor(stepsX / STEPS);
      const y = Math.floor(stepsY / STEPS);
      placed.push({ key: { weight: first.weight, size: first.size, glyph: glyph.glyph, stepX: stepsX - x * STEPS, stepY: stepsY - y * STEPS }, x, y, fill: first.fill });
    }
  }
  return placed;
}

/** What the words of one paragraph share. */
function styleOf(word: LaidWord): string {
  return `${word.size} ${word.weight} ${word.fill} ${word.letterSpacing}`;
}

/**
 * Where a card's words are painted: the rows of its box as a PNG holds them (a filter byte 0, then
 * RGB), the box within them, and, per row, what the PNG's checksum needs of it (see png.ts), kept
 * up to date as pixels change so that no row is read again to sum it.
 */
export interface Band {
  rows: Buffer;
  /** A blank row: its filter byte and the paper. */
  blank: Buffer;
  rowBytes: number;
  /** The box of the words: its left column in the band's rows, its size. */
  left: number;
  width: number;
  height: number;
  /** Marked 1 for each row painted on. */
  inked: Uint8Array;
  /** Each row's `rowSums` (png.ts): the sum of its bytes, and of each byte times the bytes from it to the row's end. */
  sums: Float64Array;
  weighted: Float64Array;
}

/** A rectangle of the box, right and bottom excluded. */
interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * Paints placed glyphs (their masks drawn) onto the band: each colour's glyphs add their coverage
 * into one mask of the box (saturating), then the colour is laid over the band's pixels by it,
 * within each glyph's rectangle (a pixel two glyphs share is laid once: its coverage is cleared).
 */
export function paintGlyphs(glyphs: readonly PlacedGlyph[], atlas: GlyphAtlas, band: Band, coverage: Uint8Array): void {
  const fills = [...new Set(glyphs.map((glyph) => glyph.fill))];
  for (const fill of fills) {
    const rects: Rect[] = [];
    for (const glyph of glyphs) {
      if (glyph.fill !== fill) continue;
      const mask = atlas.mask(glyph.key);
      if (!mask) throw new Error(`no mask drawn for glyph ${glyph.key.glyph}`);
      const x0 = glyph.x + mask.left;
      const y0 = glyph.y + mask.top;
      const fromX = Math.max(0, -x0);
      const toX = Math.min(mask.width, band.width - x0);
      const fromY = Math.max(0, -y0);
      const toY = Math.min(mask.height, band.height - y0);
      if (fromX >= toX || fromY >= toY) continue;
      rects.push({ left: x0 + fromX, top: y0 + fromY, right: x0 + toX, bottom: y0 + toY });
      const source = mask.coverage;
      for (let my = fromY; my < toY; my++) {
        let at = (y0 + my) * band.width + x0 + fromX;
        const end = my * mask.width + toX;
        for (let from = my * mask.width + fromX; from < end; from++, at++) {
          const sum = (coverage[at] as number) + (source[from] as number);
          coverage[at] = Math.min(sum, 255);
        }
      }
    }
    const ink = [1, 3, 5].map((at) => Number.parseInt(fill.slice(at, at + 2), 16)) as [number, number, number];
    for (const rect of rects) blend(ink, band, coverage, rect);
  }
}

/**
 * Lays the colour `ink` over the band where `coverage` (the box's size) says, within a rectangle,
 * and clears it there: a pixel becomes (under × (255 − a) + ink × a) / 255, rounded, each channel.
 */
function blend([red, green, blue]: [number, number, number], band: Band, coverage: Uint8Array, { left, top, right, bottom }: Rect): void {
  const { rows, rowBytes, width } = band;
  // A byte's weight in `weighted`: the bytes from it to the end of its row.
  const weightAtLeft = rowBytes - 1 - band.left * 3;
  for (let y = top; y < bottom; y++) {
    const line = y * width;
    const start = y * rowBytes + 1 + band.left * 3;
    let sum = 0;
    let weighted = 0;
    let inked = false;
    for (let x = left; x < right; x++) {
      const a = coverage[line + x] as number;
      if (a === 0) continue;
      coverage[line + x] = 0;
      inked = true;
      const rest = 255 - a;
      const at = start + x * 3;
      const weight = weightAtLeft - x * 3;
      const r0 = rows[at] as number;
      const g0 = rows[at + 1] as number;
      const b0 = rows[at + 2] as number;
      // v / 255 for v < 65535, rounded down, without a division.
      let v = r0 * rest + red * a + 127;
      const r1 = (v + 1 + (v >> 8)) >> 8;
      v = g0 * rest + green * a + 127;
      const g1 = (v + 1 + (v >> 8)) >> 8;
      v = b0 * rest + blue * a + 127;
      const b1 = (v + 1 + (v >> 8)) >> 8;
      rows[at] = r1;
      rows[at + 1] = g1;
      rows[at + 2] = b1;
      sum += r1 - r0 + g1 - g0 + b1 - b0;
      weighted += (r1 - r0) * weight + (g1 - g0) * (weight - 1) + (b1 - b0) * (weight - 2);
    }
    if (inked) {
      band.inked[y] = 1;
      band.sums[y] = (band.sums[y] as number) + sum;
      band.weighted[y] = (band.weighted[y] as number) + weighted;
    }
  }
}
