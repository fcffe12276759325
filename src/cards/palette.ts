/**
 * A card's palette (its PNG is 8-bit indexed, one byte a pixel): the paper at index 0; for each
 * ink the band's words are set in, a ramp of `INK_LEVELS` − 1 levels of coverage of it over the
 * paper, which the glyphs are painted with (paint.ts); and the frame's own colours in the rest.
 */

/**
 * Levels of each ink over the paper, none (the paper itself) and full ink included: a level is
 * 255/31 of coverage apart from the next, so an entry is at most 4.5 levels of a channel from the
 * blend of a coverage it stands for.
 */
export const INK_LEVELS = 32;

/** Entries a PNG's palette holds at most. */
const ENTRIES = 256;

/**
 * How a band's glyphs are painted in palette entries: per ink, the entry of each coverage of it
 * over the paper; per entry, the coverage it stands for. Plain data, sent from one thread to another.
 */
export interface BandInks {
  /**
   * Per ink (`inkKey`), the palette index of each coverage 0 to 255: the paper's, 0, for one too
   * faint for the first level.
   */
  indexOf: Record<string, Uint8Array>;
  /** Per palette index, the coverage of ink it stands for (0 to 255): 0 for the paper and the frame's own colours. */
  coverageOf: Uint8Array;
  /**
   * Per palette index, the ink it is a level of, named by its full ink's index
   * (`indexOf[ink][255]`): 0 for the paper and the frame's own colours.
   */
  inkOf: Uint8Array;
}

/**
 * A frame in palette indices: the palette (8-bit RGB, at most 256 entries), each pixel's index, and
 * how its band is painted.
 */
export interface PaletteFrame {
  palette: Buffer;
  indices: Buffer;
  inks: BandInks;
}

/**
 * A frame's pixels (8-bit RGB) as palette indices. The paper and the inks' ramps come first, at
 * fixed places; a pixel of exactly one of their colours takes its entry. Of the frame's other
 * colours, the ones with most pixels fill the entries left, exactly: a frame is flat colours
 * (paper, bars, the navy foot, the avatar's and the emoji's shapes) whose edges blend them, and
 * what is left over is a few thousand pixels of those edges, each given its nearest entry.
 */
export function paletteFrame(pixels: Uint8Array, paper: string, inks: readonly string[]): PaletteFrame {
  const entries: number[] = [colourKey(rgbOf(paper))];
  const inkEntries: [string, number][] = [];
  for (const ink of inks) {
    inkEntries.push([inkKey(ink), entries.length]);
    for (let level = 1; level < INK_LEVELS; level++) entries.push(colourKey(inkLevel(paper, ink, level)));
  }
  const fixed = entries.length;
  if (fixed >= ENTRIES) throw new Error(`a card's palette cannot hold the ramps of ${inks.length} inks`);
  const indexOf = new Map<number, number>();
  for (const [index, key] of entries.entries()) if (!indexOf.has(key)) indexOf.set(key, index);
  // A frame is mostly runs of one colour: each run is counted at its end, with one lookup.
  const counts = new Map<number, number>();
  const count = (key: number, run: number) => {
    if (run > 0 && !indexOf.has(key)) counts.set(key, (counts.get(key) ?? 0) + run);
  };
  let last = -1;
  let run = 0;
  for (let at = 0; at < pixels.length; at += 3) {
    const key = ((pixels[at] as number) << 16) | ((pixels[at + 1] as number) << 8) | (pixels[at + 2] as number);
    if (key === last) run++;
    else {
      count(last, run);
      last = key;
      run = 1;
    }
  }
  count(last, run);
  // Most pixels first, then by colour: the same pixels always give the same palette.
  const others = [...counts].sort(([a, m], [b, n]) => n - m || a - b).map(([key]) => key);
  for (const key of others.slice(0, ENTRIES - fixed)) {
    indexOf.set(key, entries.length);
    entries.push(key);
  }
  for (const key of others.slice(ENTRIES - fixed)) indexOf.set(key, nearest(key, entries));
  const indices = Buffer.alloc(pixels.length / 3);
  let lastKey = -1;
  let lastIndex = 0;
  for (let at = 0, i = 0; at < pixels.length; at += 3, i++) {
    const key = ((pixels[at] as number) << 16) | ((pixels[at + 1] as number) << 8) | (pixels[at + 2] as number);
    if (key !== lastKey) {
      lastKey = key;
      lastIndex = indexOf.get(key) as number;
    }
    indices[i] = lastIndex;
  }
  const palette = Buffer.alloc(entries.length * 3);
  for (const [index, key] of entries.entries()) palette.set([key >> 16, (key >> 8) & 255, key & 255], index * 3);
  return { palette, indices, inks: bandInks(inkEntries, entries.length) };
}

/** The entries of each ink's ramp by coverage, and the coverage each entry stands for, from where each ramp starts. */
function bandInks(ramps: readonly [string, number][], entries: number): BandInks {
  const indexOf: Record<string, Uint8Array> = {};
  const coverageOf = new Uint8Array(entries);
  const inkOf = new Uint8Array(entries);
  for (const [ink, first] of ramps) {
    const ramp = new Uint8Array(256);
    for (let coverage = 0; coverage < 256; coverage++) {
      const level = Math.round((coverage * (INK_LEVELS - 1)) / 255);
      ramp[coverage] = level === 0 ? 0 : first + level - 1;
    }
    const full = first + INK_LEVELS - 2;
    for (let level = 1; level < INK_LEVELS; level++) {
      coverageOf[first + level - 1] = Math.round((level * 255) / (INK_LEVELS - 1));
      inkOf[first + level - 1] = full;
    }
    indexOf[ink] = ramp;
  }
  return { indexOf, coverageOf, inkOf };
}

/** An ink `level` levels of `INK_LEVELS` − 1 over the paper: each channel blended, rounded. */
function inkLevel(paper: string, ink: string, level: number): [number, number, number] {
  const under = rgbOf(paper);
  const over = rgbOf(ink);
  return under.map((channel, i) =>
    Math.round(channel + (((over[i] as number) - channel) * level) / (INK_LEVELS - 1)),
  ) as [number, number, number];
}

/** The index of the entry nearest a colour (squared distance in RGB; the first of equals). */
function nearest(key: number, entries: readonly number[]): number {
  let best = 0;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const [index, entry] of entries.entries()) {
    const distance =
      ((key >> 16) - (entry >> 16)) ** 2 +
      (((key >> 8) & 255) - ((entry >> 8) & 255)) ** 2 +
      ((key & 255) - (entry & 255)) ** 2;
    if (distance < bestDistance) {
      best = index;
      bestDistance = distance;
    }
  }
  return best;
}

function colourKey([red, green, blue]: readonly number[]): number {
  return ((red as number) << 16) | ((green as number) << 8) | (blue as number);
}

/** A colour ("#rgb", "#rrggbb", their alpha ignored) as 8-bit RGB. */
export function rgbOf(colour: string): [number, number, number] {
  const digits = colour.slice(1);
  const hex = digits.length <= 4 ? [...digits.slice(0, 3)].map((digit) => digit + digit).join('') : digits.slice(0, 6);
  return [0, 2, 4].map((at) => Number.parseInt(hex.slice(at, at + 2), 16)) as [number, number, number];
}

/** An ink's name in `BandInks`: "#rrggbb", lower case, whichever way the colour was written. */
export function inkKey(colour: string): string {
  return `#${rgbOf(colour)
    .map((channel) => channel.toString(16).padStart(2, '0'))
    .join('')}`;
}
