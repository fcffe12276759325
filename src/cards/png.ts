import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * PNG files of cards that share all their rows but a band (the box of a card's words), written
 * without compressing those rows again for each card. A PNG's pixels are one zlib stream; here it
 * is made of raw deflate segments compressed apart, each ended by a full flush (byte-aligned, and
 * never referring to what came before), so that segments compressed once can be laid between
 * those of one card: the rows above the band, runs of blank rows within it, and the rows below it
 * (the last segment, finished). Each segment is an IDAT chunk of its own or part of one; the
 * stream's Adler-32 is combined from each segment's. Pixels are 8-bit palette indices (colour
 * type 3, palette.ts), each row with filter 0.
 */

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A zlib header: deflate, 32 KiB window, no dictionary (checked: 0x7801 is a multiple of 31). */
const ZLIB_HEADER = Buffer.from([0x78, 0x01]);
const IEND = chunk('IEND', Buffer.alloc(0));
/** The compression of what is compressed once (a frame, blank rows). */
const ONCE = 9;
/**
 * The compression of a card's own rows: runs of one byte only (zlib's Z_RLE), which a row of
 * palette indices mostly is (the paper, a letter's full ink): on cards' inked rows it takes less
 * time than level 1's default strategy, for slightly fewer bytes. The rows keep filter 0: filter 1
 * (Sub) made more bytes, at level 1 and more so with Z_RLE, besides the pass to filter them.
 */
const EACH = { level: 1, strategy: constants.Z_RLE, finishFlush: constants.Z_FULL_FLUSH };

/** Uncompressed bytes, compressed apart: their raw deflate segment, their Adler-32 and length. */
interface Segment {
  data: Buffer;
  adler: number;
  length: number;
}

/** What every card drawn on a frame shares: its head (up to the band's rows) and its tail, compressed once. */
export interface PngFrame {
  /** Signature, IHDR, PLTE and the first IDAT: the zlib header and the rows above the band. */
  head: Buffer;
  headRows: Segment;
  /** The rows below the band, the stream's last segment; the CRC of the IDAT chunk up to its Adler-32. */
  tail: Segment;
  tailCrc: number;
  /** The band: its first row and how many, the width of a row in bytes with its filter byte. */
  bandTop: number;
  bandRows: number;
  rowBytes: number;
  /** Runs of 2^i blank rows of the band (every pixel index 0), compressed once. */
  blank: Segment[];
}

/** A frame's picture in palette indices, and where on it the band lies. */
export interface FramePicture {
  width: number;
  height: number;
  /** The palette: 8-bit RGB, at most 256 entries; entry 0 is a blank band's pixel (the paper). */
  palette: Uint8Array;
  /** Each pixel's index in the palette, row after row: 0 throughout the band. */
  indices: Uint8Array;
  /** The band (rows `bandTop` to `bandTop + bandRows - 1`): what differs from card to card. */
  bandTop: number;
  bandRows: number;
}

/** The parts of a frame's PNG. */
export function pngFrame({ width, height, palette, indices, bandTop, bandRows }: FramePicture): PngFrame {
  if (indices.subarray(bandTop * width, (bandTop + bandRows) * width).some((index) => index !== 0))
    throw new Error('the band of a frame must be blank, palette entry 0 throughout');
  const rowBytes = width + 1;
  const rows = (from: number, to: number) => {
    const data = Buffer.alloc((to - from) * rowBytes);
    for (let y = from; y < to; y++) data.set(indices.subarray(y * width, (y + 1) * width), (y - from) * rowBytes + 1);
    return data;
  };
  const headRows = segment(rows(0, bandTop), ONCE, false);
  const tail = segment(rows(bandTop + bandRows, height), ONCE, true);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  // Bit depth 8, colour type 3 (palette), deflate, filter method 0, no interlace.
  ihdr.set([8, 3, 0, 0, 0], 8);
  const head = Buffer.concat([
    SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('PLTE', Buffer.from(palette)),
    chunk('IDAT', Buffer.concat([ZLIB_HEADER, headRows.data])),
  ]);
  const line = Buffer.alloc(rowBytes);
  const blank: Segment[] = [];
  for (let run = 1; run <= bandRows; run *= 2)
    blank.push(segment(Buffer.concat(Array.from({ length: run }, () => line)), ONCE, false));
  return { head, headRows, tail, tailCrc: crc32(tail.data, crc32('IDAT')), bandTop, bandRows, rowBytes, blank };
}

/** A card's band as `cardPng` reads it: its rows, which of them differ from a blank row, and each row's `rowSums`. */
export interface BandRows {
  rows: Buffer;
  inked: Uint8Array;
  sums: Float64Array;
  weighted: Float64Array;
}

/**
 * A card's PNG: the frame's head and tail around its band. Blank rows are the frame's runs; each
 * run of inked rows is compressed here, its Adler-32 worked out from its rows' sums rather than
 * from its bytes.
 */
export function cardPng(frame: PngFrame, band: BandRows): Buffer {
  const parts: Segment[] = [];
  const { rowBytes, bandRows } = frame;
  let y = 0;
  while (y < bandRows) {
    const from = y;
    const ink = band.inked[y] as number;
    while (y < bandRows && band.inked[y] === ink) y++;
    if (!ink) blankRuns(frame.blank, y - from, parts);
    else {
      const data = band.rows.subarray(from * rowBytes, y * rowBytes);
      parts.push({ data: deflateRawSync(data, EACH), adler: rowsAdler(band, from, y, rowBytes), length: data.length });
    }
  }
  let adler = frame.headRows.adler;
  for (const part of parts) adler = adler32Combine(adler, part.adler, part.length);
  adler = adler32Combine(adler, frame.tail.adler, frame.tail.length);
  const trailer = Buffer.alloc(4);
  trailer.writeUInt32BE(adler, 0);
  const tail = Buffer.alloc(16 + frame.tail.data.length);
  tail.writeUInt32BE(frame.tail.data.length + 4, 0);
  tail.write('IDAT', 4, 'latin1');
  frame.tail.data.copy(tail, 8);
  trailer.copy(tail, 8 + frame.tail.data.length);
  tail.writeUInt32BE(crc32(trailer, frame.tailCrc), 8 + frame.tail.data.length + 4);
  return Buffer.concat([frame.head, chunk('IDAT', Buffer.concat(parts.map((part) => part.data))), tail, IEND]);
}

/**
 * What the Adler-32 of rows needs of each: the sum of its bytes, and the sum of each byte times
 * the count of bytes from it to the row's end (the byte itself included).
 */
export function rowSums(row: Uint8Array): { sum: number; weighted: number } {
  let sum = 0;
  let weighted = 0;
  for (let i = 0; i < row.length; i++) {
    sum += row[i] as number;
    weighted += (row[i] as number) * (row.length - i);
  }
  return { sum, weighted };
}

/**
 * The Adler-32 of rows `from` to `to` − 1 from their sums: over n bytes, A is 1 plus their sum, and
 * B is n plus the sum of each byte times the bytes from it to the end (row r's bytes lie
 * (to − 1 − r) whole rows before the end). Exact in doubles: under 2^53 for a card's rows.
 */
function rowsAdler(band: BandRows, from: number, to: number, rowBytes: number): number {
  let a = 1;
  let b = (to - from) * rowBytes;
  for (let r = from; r < to; r++) {
    const sum = band.sums[r] as number;
    a += sum;
    b += (to - 1 - r) * rowBytes * sum + (band.weighted[r] as number);
  }
  return (((b % BASE) << 16) | (a % BASE)) >>> 0;
}

/** `count` blank rows as the frame's runs of 2^i rows, largest first. */
function blankRuns(blank: Segment[], count: number, parts: Segment[]): void {
  for (let i = blank.length - 1; i >= 0 && count > 0; i--) {
    const run = 1 << i;
    while (count >= run) {
      parts.push(blank[i] as Segment);
      count -= run;
    }
  }
}

/** Bytes as a raw deflate segment: the stream's last (finished), or one ended by a full flush. */
function segment(data: Buffer, level: number, last: boolean): Segment {
  const compressed = deflateRawSync(data, { level, ...(last ? {} : { finishFlush: constants.Z_FULL_FLUSH }) });
  return { data: compressed, adler: adler32(data), length: data.length };
}

/** A PNG chunk: length, type, data and the CRC of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(data, crc32(type)), 8 + data.length);
  return out;
}

const BASE = 65521;
/** Bytes summed before the sums must be reduced to stay exact (zlib's NMAX). */
const NMAX = 5552;

/** The Adler-32 of bytes, as zlib computes it. */
export function adler32(data: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (let at = 0; at < data.length; ) {
    const end = Math.min(at + NMAX, data.length);
    for (; at < end; at++) {
      a += data[at] as number;
      b += a;
    }
    a %= BASE;
    b %= BASE;
  }
  return ((b << 16) | a) >>> 0;
}

/**
 * The Adler-32 of two byte strings one after the other, from each one's and the second's length
 * (zlib's adler32_combine).
 */
export function adler32Combine(first: number, second: number, secondLength: number): number {
  const rem = secondLength % BASE;
  let sum1 = first & 0xffff;
  let sum2 = (rem * sum1) % BASE;
  sum1 += (second & 0xffff) + BASE - 1;
  sum2 += ((first >>> 16) & 0xffff) + ((second >>> 16) & 0xffff) + BASE - rem;
  if (sum1 >= BASE) sum1 -= BASE;
  if (sum1 >= BASE) sum1 -= BASE;
  if (sum2 >= BASE * 2) sum2 -= BASE * 2;
  if (sum2 >= BASE) sum2 -= BASE;
  return ((sum2 << 16) | sum1) >>> 0;
}
