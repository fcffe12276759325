import { describe, expect, it } from 'vitest';
import type { GlyphAtlas, GlyphMask } from '../../../src/cards/atlas';
import { type Band, type PlacedGlyph, paintGlyphs } from '../../../src/cards/paint';
import { INK_LEVELS, paletteFrame } from '../../../src/cards/palette';
import { rowSums } from '../../../src/cards/png';

const PAPER = '#faf7f2';
const HEADING = '#0b2545';
const MUTED = '#5a6272';

/** An atlas whose glyph n is a mask one pixel tall, its coverage the given values. */
function atlasOf(masks: number[][]): GlyphAtlas {
  const drawn: GlyphMask[] = masks.map((coverage) => ({
    left: 0,
    top: 0,
    width: coverage.length,
    height: 1,
    coverage: Uint8Array.from(coverage),
  }));
  return { mask: ({ glyph }: { glyph: number }) => drawn[glyph] } as unknown as GlyphAtlas;
}

function glyph(n: number, x: number, fill: string): PlacedGlyph {
  return { key: { weight: 400, size: 30, glyph: n, stepX: 0, stepY: 0 }, x, y: 0, fill };
}

/** A blank band one row of 8 pixels tall, from column 2 of a 10-pixel row. */
function blankBand(): Band {
  return {
    rows: Buffer.alloc(11),
    rowBytes: 11,
    left: 2,
    width: 8,
    height: 1,
    inked: new Uint8Array(1),
    sums: new Float64Array(1),
    weighted: new Float64Array(1),
  };
}

describe('painting a card’s glyphs in its palette', () => {
  const { palette, inks } = paletteFrame(Buffer.from([250, 247, 242]), PAPER, [HEADING, MUTED]);
  const colourOf = (index: number) => [...palette.subarray(index * 3, index * 3 + 3)];

  it('gives each ink a ramp over the paper, and each pixel the level of its coverage', () => {
    expect(colourOf(0)).toEqual([250, 247, 242]);
    const heading = inks.indexOf[HEADING] as Uint8Array;
    // Full ink is the ink itself; a coverage too faint for the first level is the paper.
    expect(colourOf(heading[255] as number)).toEqual([11, 37, 69]);
    expect(heading[3]).toBe(0);
    expect(new Set(heading).size).toBe(INK_LEVELS);
    // Each coverage’s entry within 4.5 levels of each channel of the blend (half a step of 8.2 of
    // coverage, and the rounding of the entry).
    const [paper, ink] = [colourOf(0), colourOf(heading[255] as number)];
    for (let coverage = 0; coverage < 256; coverage++) {
      const blend = paper.map((under, c) => under + (((ink[c] as number) - under) * coverage) / 255);
      const entry = colourOf(heading[coverage] as number);
      for (const [c, value] of entry.entries())
        expect(Math.abs(value - (blend[c] as number)), `coverage ${coverage}`).toBeLessThanOrEqual(4.5);
    }
    // A colour written "#RGB" or in capitals is the same ink.
    expect(paletteFrame(Buffer.from([250, 247, 242]), PAPER, ['#FFF']).inks.indexOf['#ffffff']).toBeDefined();
  });

  it('sums the coverage of two glyphs of one ink on a pixel, and keeps the ink that covers more where two inks meet', () => {
    const band = blankBand();
    // Glyphs 0 and 1 overlap on columns 1 and 2 of the box; glyph 2, in another ink, on columns 2 and 3.
    const atlas = atlasOf([
      [255, 100, 100],
      [100, 100],
      [40, 200, 0, 90],
    ]);
    paintGlyphs([glyph(0, 0, HEADING), glyph(1, 1, HEADING), glyph(2, 2, MUTED)], atlas, band, inks);
    const heading = inks.indexOf[HEADING] as Uint8Array;
    const muted = inks.indexOf[MUTED] as Uint8Array;
    const pixels = [...band.rows.subarray(1 + band.left, 1 + band.left + band.width)];
    expect(pixels).toEqual([heading[255], heading[200], heading[200], muted[200], 0, muted[90], 0, 0]);
    // The row is marked as painted, and its sums are those of its bytes.
    expect(band.inked[0]).toBe(1);
    expect([band.sums[0], band.weighted[0]]).toEqual(Object.values(rowSums(band.rows)));
  });

  it('fails with the colour named for a glyph whose ink has no ramp in the palette', () => {
    expect(() => paintGlyphs([glyph(0, 0, '#ff0000')], atlasOf([[255]]), blankBand(), inks)).toThrow(/#ff0000/);
  });
});
