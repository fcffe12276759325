import { type GlyphAtlas, type GlyphKey, STEPS } from './atlas';
import type { CardType } from './fonts';
import { type BandInks, inkKey } from './palette';
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
const SEPARATORS = new Set(
  [0x20, 0xa0, 0x1361, 0x10100, 0x10101, 0x1039, 0x1091, 0x0a].map((point) => String.fromCodePoint(point)),
);

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
    if (Math.abs(shaped.advance * scale + shaped.clusters * word.letterSpacing - word.width) > WIDTH_TOLERANCE)
      return undefined;
  }
  const lines = new Map<string, Set<number>>();
  for (const word of words) lines.set(styleOf(word), (lines.get(styleOf(word)) ?? new Set()).add(word.y));
  const placed: PlacedGlyph[] = [];
  let run: { first: LaidWord; text: string } | undefined;
  for (const [i, word] of words.entries()) {
    run = { first: run?.first ?? word, text: (run?.text ?? '') + word.text };
    const next = words[i + 1];
    if (!SEPARATORS.has(word.text) && next && next.y === word.y && styleOf(next) === styleOf(word)) continue;
    const { first, text } = run;
    run = undefined;
    const shaped = type.shape(first.weight, text);
    if (!shaped) return undefined;
    const scale = first.size / type.unitsPerEm(first.weight);
    const left = (lines.get(styleOf(first))?.size ?? 0) > 1 ? Math.round(first.x) : first.x;
    for (const glyph of shaped.glyphs) {
      const stepsX = Math.round(
        (left + glyph.advance * scale + glyph.clusters * first.letterSpacing + glyph.dx * scale) * STEPS,
      );
      // Satori adds HarfBuzz's vertical offset as it comes (y up) to a y that points down; Inter's
      // Latin letters have none.
      const stepsY = Math.round((first.y + glyph.dy * scale) * STEPS);
      const x = Math.floor(stepsX / STEPS);
      const y = Math.floor(stepsY / STEPS);
      placed.push({
        key: {
          weight: first.weight,
          size: first.size,
          glyph: glyph.glyph,
          stepX: stepsX - x * STEPS,
          stepY: stepsY - y * STEPS,
        },
        x,
        y,
        fill: first.fill,
      });
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
 * a palette index per pixel, 0 the paper: a blank row is all zeros), the box within them, and, per
 * row, what the PNG's checksum needs of it (see png.ts), kept up to date as pixels change so that
 * no row is read again to sum it.
 */
export interface Band {
  rows: Buffer;
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

/**
 * Paints placed glyphs (their masks drawn) onto the band in the palette's ramps (`BandInks`),
 * straight from each mask: a pixel's entry says how much of which ink it has, and a glyph adds
 * its coverage to what its own ink has there (saturating), a pixel two glyphs of one colour share
 * taking the entry of the two coverages summed (each rounded to its level first: at most a level
 * apart from their exact sum). Where glyphs of two inks meet on a pixel (none did on the cards
 * tried: the title's, the date's and the bar's words stand apart, and a title of six lines still
 * ends above the date's row), it takes the ink that covers more of it, the first painted where
 * they cover as much: a palette has no entry for two inks blended.
 */
export function paintGlyphs(glyphs: readonly PlacedGlyph[], atlas: GlyphAtlas, band: Band, inks: BandInks): void {
  const { rows, rowBytes, inked, sums, weighted } = band;
  const { coverageOf, inkOf } = inks;
  // A byte's weight in `weighted`: the bytes from it to the end of its row.
  const weightAtLeft = rowBytes - 1 - band.left;
  let fill = '';
  let ramp: Uint8Array = new Uint8Array(0);
  for (const glyph of glyphs) {
    if (glyph.fill !== fill) {
      fill = glyph.fill;
      const found = inks.indexOf[inkKey(fill)];
      if (!found) throw new Error(`the card's palette has no entries for the colour ${fill} of its words`);
      ramp = found;
    }
    const ink = ramp[255] as number;
    const mask = atlas.mask(glyph.key);
    if (!mask) throw new Error(`no mask drawn for glyph ${glyph.key.glyph}`);
    const x0 = glyph.x + mask.left;
    const y0 = glyph.y + mask.top;
    const fromX = Math.max(0, -x0);
    const toX = Math.min(mask.width, band.width - x0);
    const fromY = Math.max(0, -y0);
    const toY = Math.min(mask.height, band.height - y0);
    const source = mask.coverage;
    for (let my = fromY; my < toY; my++) {
      const y = y0 + my;
      const start = y * rowBytes + 1 + band.left + x0;
      let sum = 0;
      let moment = 0;
      let painted = false;
      for (let mx = fromX; mx < toX; mx++) {
        const a = source[my * mask.width + mx] as number;
        if (a === 0) continue;
        const at = start + mx;
        const under = rows[at] as number;
        let entry: number;
        // Most pixels are painted on the paper (entry 0), no other glyph's coverage there.
        if (under === 0) entry = ramp[a] as number;
        else {
          const held = coverageOf[under] as number;
          if (inkOf[under] === ink) entry = ramp[Math.min(held + a, 255)] as number;
          else if (held >= a) continue;
          else entry = ramp[a] as number;
        }
        if (entry === under) continue;
        rows[at] = entry;
        painted = true;
        sum += entry - under;
        moment += (entry - under) * (weightAtLeft - x0 - mx);
      }
      if (painted) {
        inked[y] = 1;
        sums[y] = (sums[y] as number) + sum;
        weighted[y] = (weighted[y] as number) + moment;
      }
    }
  }
}
