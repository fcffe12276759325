// The part of harfbuzzjs (HarfBuzz compiled to WebAssembly, satori's own shaper) the share cards
// use: the package ships no types.
declare module 'harfbuzzjs' {
  /** A shaped glyph: its glyph id (`codepoint` after shaping) and cluster (the index of its first UTF-16 unit). */
  export interface HbGlyphInfo {
    codepoint: number;
    cluster: number;
  }
  /** Where a shaped glyph goes, in the font's units (y up). */
  export interface HbGlyphPosition {
    x_advance: number;
    y_advance: number;
    x_offset: number;
    y_offset: number;
  }
  export interface HbBlob {
    destroy(): void;
  }
  export interface HbFace {
    destroy(): void;
  }
  export interface HbFont {
    setScale(x: number, y: number): void;
    /** The glyph's outline as SVG path data in font units, y pointing up. */
    glyphToPath(glyph: number): string;
    destroy(): void;
  }
  export interface HbBuffer {
    addText(text: string): void;
    guessSegmentProperties(): void;
    getGlyphInfos(): HbGlyphInfo[];
    getGlyphPositions(): HbGlyphPosition[];
    destroy(): void;
  }
  export interface HarfBuzz {
    createBlob(bytes: Uint8Array): HbBlob;
    createFace(blob: HbBlob, index: number): HbFace;
    createFont(face: HbFace): HbFont;
    createBuffer(): HbBuffer;
    shape(font: HbFont, buffer: HbBuffer, features?: string): void;
  }
  const harfbuzz: Promise<HarfBuzz>;
  export default harfbuzz;
}
