import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';
import type { HarfBuzz, HbFont } from 'harfbuzzjs';
import type { SatoriOptions } from 'satori';

const require = createRequire(import.meta.url);

/**
 * HarfBuzz as satori's own copy of it: the module's value is a promise, which some loaders'
 * ES-module wrappers of a CommonJS module cannot be awaited through (Vitest's), so it is required.
 */
const harfbuzz = require('harfbuzzjs') as Promise<HarfBuzz>;

/** The weights a card's letters are set in. */
export type CardWeight = 400 | 700;

/**
 * The cards' typeface: Inter, from @fontsource/inter, in the two weights a card uses, each with
 * its Latin and Latin Extended files. Satori reads TrueType, OpenType and WOFF, not WOFF2. All four
 * are one family to satori, which then sets every letter of a weight in the first file of that
 * weight, the Latin one (a letter only the Latin Extended file has comes out as the missing glyph).
 */
const FONT_FILES = ([400, 700] as const).flatMap((weight) =>
  ['latin', 'latin-ext'].map((subset) => ({
    weight,
    file: require.resolve(`@fontsource/inter/files/inter-${subset}-${weight}-normal.woff`),
  })),
);

/** The fonts as satori is given them, each file read once. */
export function satoriFonts(): SatoriOptions['fonts'] {
  return FONT_FILES.map(({ weight, file }) => ({
    name: 'Inter',
    data: readFileSync(file),
    weight,
    style: 'normal' as const,
  }));
}

/** A glyph of a shaped word, in the font's units (y up) and counted characters. */
export interface WordGlyph {
  glyph: number;
  /** The advances of the glyphs before it. */
  advance: number;
  /** How many characters (clusters) end before it: letter spacing is added after each. */
  clusters: number;
  /** HarfBuzz's offset of the glyph from its place. */
  dx: number;
  dy: number;
}

/** A word as HarfBuzz shapes it: its glyphs, its whole advance and how many characters it has. */
export interface ShapedWord {
  glyphs: WordGlyph[];
  advance: number;
  clusters: number;
}

/**
 * Words (runs of words) shaped and kept per weight, all let go past it: titles share most of their
 * words, and a long title's run costs some kilobytes of heap.
 */
const KEPT_WORDS = 5_000;

/**
 * Inter as satori sets a card's words: each weight's Latin file, shaped by HarfBuzz with its
 * default features, as satori shapes them (src/font.ts in satori), so that a word's glyphs and
 * their places are the ones satori measured and would draw.
 */
export class CardType {
  /** Per weight, each word shaped, or null for one with a letter the font lacks. */
  private readonly words = new Map<CardWeight, Map<string, ShapedWord | null>>();
  private readonly outlines = new Map<string, string>();

  private constructor(
    private readonly hb: HarfBuzz,
    private readonly faces: ReadonlyMap<CardWeight, { font: HbFont; unitsPerEm: number }>,
  ) {}

  /** Inter's Latin files read, and HarfBuzz started: once per thread. */
  static async load(): Promise<CardType> {
    const hb = await harfbuzz;
    const faces = new Map<CardWeight, { font: HbFont; unitsPerEm: number }>();
    for (const { weight, file } of FONT_FILES) {
      if (faces.has(weight)) continue;
      const sfnt = woffToSfnt(readFileSync(file));
      const blob = hb.createBlob(sfnt);
      const face = hb.createFace(blob, 0);
      const font = hb.createFont(face);
      const unitsPerEm = unitsPerEmOf(sfnt);
      font.setScale(unitsPerEm, unitsPerEm);
      face.destroy();
      blob.destroy();
      faces.set(weight, { font, unitsPerEm });
    }
    return new CardType(hb, faces);
  }

  unitsPerEm(weight: CardWeight): number {
    return this.face(weight).unitsPerEm;
  }

  /** A word's glyphs; undefined when the font lacks one of its letters (it would draw the missing glyph). */
  shape(weight: CardWeight, text: string): ShapedWord | undefined {
    const words = this.words.get(weight) ?? new Map<string, ShapedWord | null>();
    this.words.set(weight, words);
    let word = words.get(text);
    if (word === undefined) {
      word = this.shapeNow(weight, text);
      // Let go of all at once when full: a word found costs one lookup, not the reordering a
      // least-recently-used list would do on every one (words are looked up several times a card).
      if (words.size >= KEPT_WORDS) words.clear();
      words.set(text, word);
    }
    return word ?? undefined;
  }

  /** A glyph's outline as SVG path data in the font's units, y up. */
  outline(weight: CardWeight, glyph: number): string {
    const key = `${weight} ${glyph}`;
    let outline = this.outlines.get(key);
    if (outline === undefined) {
      outline = this.face(weight).font.glyphToPath(glyph);
      this.outlines.set(key, outline);
    }
    return outline;
  }

  private shapeNow(weight: CardWeight, text: string): ShapedWord | null {
    const buffer = this.hb.createBuffer();
    try {
      buffer.addText(text);
      buffer.guessSegmentProperties();
      this.hb.shape(this.face(weight).font, buffer);
      const infos = buffer.getGlyphInfos();
      const positions = buffer.getGlyphPositions();
      const glyphs: WordGlyph[] = [];
      let advance = 0;
      let clusters = 0;
      for (let i = 0; i < infos.length; i++) {
        const { codepoint: glyph, cluster } = infos[i] as (typeof infos)[number];
        const { x_advance, x_offset: dx, y_offset: dy } = positions[i] as (typeof positions)[number];
        if (glyph === 0) return null;
        glyphs.push({ glyph, advance, clusters, dx, dy });
        advance += x_advance;
        if (infos[i + 1]?.cluster !== cluster) clusters++;
      }
      return { glyphs, advance, clusters };
    } finally {
      buffer.destroy();
    }
  }

  private face(weight: CardWeight): { font: HbFont; unitsPerEm: number } {
    const face = this.faces.get(weight);
    if (!face) throw new Error(`the share cards have no Inter of weight ${weight}`);
    return face;
  }
}

/** A WOFF 1.0 file as the TrueType file it wraps (HarfBuzz reads no WOFF): its tables unpacked where compressed. */
export function woffToSfnt(woff: Buffer): Uint8Array {
  const tables = woff.readUInt16BE(12);
  const sfnt = Buffer.alloc(woff.readUInt32BE(16));
  sfnt.writeUInt32BE(woff.readUInt32BE(4), 0);
  sfnt.writeUInt16BE(tables, 4);
  const selector = Math.floor(Math.log2(tables));
  sfnt.writeUInt16BE((1 << selector) * 16, 6);
  sfnt.writeUInt16BE(selector, 8);
  sfnt.writeUInt16BE(tables * 16 - (1 << selector) * 16, 10);
  let at = 12 + tables * 16;
  for (let i = 0; i < tables; i++) {
    const entry = 44 + i * 20;
    const offset = woff.readUInt32BE(entry + 4);
    const packed = woff.readUInt32BE(entry + 8);
    const length = woff.readUInt32BE(entry + 12);
    const record = 12 + i * 16;
    sfnt.writeUInt32BE(woff.readUInt32BE(entry), record);
    sfnt.writeUInt32BE(woff.readUInt32BE(entry + 16), record + 4);
    sfnt.writeUInt32BE(at, record + 8);
    sfnt.writeUInt32BE(length, record + 12);
    const data = woff.subarray(offset, offset + packed);
    (packed < length ? inflateSync(data) : data).copy(sfnt, at);
    at += (length + 3) & ~3;
  }
  return sfnt;
}

/** The units per em of a TrueType file, from its `head` table. */
function unitsPerEmOf(sfnt: Uint8Array): number {
  const view = Buffer.from(sfnt.buffer, sfnt.byteOffset, sfnt.byteLength);
  const tables = view.readUInt16BE(4);
  for (let i = 0; i < tables; i++) {
    const record = 12 + i * 16;
    if (view.toString('latin1', record, record + 4) === 'head')
      return view.readUInt16BE(view.readUInt32BE(record + 8) + 18);
  }
  throw new Error('a font of the share cards has no head table');
}
