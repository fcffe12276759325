import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { adler32, adler32Combine, cardPng, pngFrame, rowSums } from '../../../src/cards/png';
import { readPng } from '../../support/png';

/** The Adler-32 zlib writes at the end of a stream of `data`. */
function zlibAdler(data: Buffer): number {
  const stream = deflateSync(data, { level: 0 });
  return stream.readUInt32BE(stream.length - 4);
}

describe('the share cards’ PNG writer', () => {
  it('sums Adler-32 as zlib does, whole and combined from parts', () => {
    const data = randomBytes(70_001);
    expect(adler32(data)).toBe(zlibAdler(data));
    expect(adler32(Buffer.alloc(0))).toBe(1);
    for (const cut of [0, 1, 5552, 40_000, 70_001]) {
      expect(adler32Combine(adler32(data.subarray(0, cut)), adler32(data.subarray(cut)), data.length - cut)).toBe(
        zlibAdler(data),
      );
    }
  });

  it('writes a frame’s rows once and a card’s inked rows alone, into a palette PNG any decoder reads as the whole picture', async () => {
    const width = 40;
    const height = 30;
    const palette = randomBytes(256 * 3);
    // A frame of noise in palette indices; its band (rows 8 to 21) blank (index 0) but for rows 10, 11 and 17.
    const indices = randomBytes(width * height);
    indices.fill(0, 8 * width, 22 * width);
    const frame = pngFrame({ width, height, palette, indices, bandTop: 8, bandRows: 14 });
    const rowBytes = width + 1;
    const rows = Buffer.alloc(14 * rowBytes);
    const inked = new Uint8Array(14);
    for (const y of [2, 3, 9]) {
      randomBytes(width).copy(rows, y * rowBytes + 1);
      inked[y] = 1;
      rows.copy(indices, (8 + y) * width, y * rowBytes + 1, (y + 1) * rowBytes);
    }
    const sums = Float64Array.from(
      { length: 14 },
      (_, y) => rowSums(rows.subarray(y * rowBytes, (y + 1) * rowBytes)).sum,
    );
    const weighted = Float64Array.from(
      { length: 14 },
      (_, y) => rowSums(rows.subarray(y * rowBytes, (y + 1) * rowBytes)).weighted,
    );
    const png = cardPng(frame, { rows, inked, sums, weighted });

    const read = readPng(png);
    expect(read.types).toEqual(['IHDR', 'PLTE', 'IDAT', 'IDAT', 'IDAT', 'IEND']);
    // 8 bits a pixel, colour type 3 (indexed), and the palette as given.
    expect([png[24], png[25]]).toEqual([8, 3]);
    expect(read.chunks.PLTE?.equals(palette)).toBe(true);
    // The frame's head and tail stand in it as they were compressed once.
    expect(png.subarray(0, frame.head.length).equals(frame.head)).toBe(true);
    expect(read.idat[2]?.subarray(0, frame.tail.data.length).equals(frame.tail.data)).toBe(true);
    // zlib reads each row as filter 0 and the indices; sharp reads each pixel as its palette colour.
    const unfiltered = Buffer.concat(
      Array.from({ length: height }, (_, y) =>
        Buffer.concat([Buffer.of(0), indices.subarray(y * width, (y + 1) * width)]),
      ),
    );
    expect(read.pixels.equals(unfiltered)).toBe(true);
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([width, height, 3]);
    const picture = Buffer.alloc(width * height * 3);
    for (const [i, index] of indices.entries()) palette.copy(picture, i * 3, index * 3, index * 3 + 3);
    expect(data.equals(picture)).toBe(true);
  });

  it('refuses a frame whose band is not blank: its blank rows are compressed once, as index 0', () => {
    const indices = Buffer.alloc(10 * 10);
    indices[5 * 10 + 3] = 1;
    expect(() =>
      pngFrame({ width: 10, height: 10, palette: Buffer.alloc(6), indices, bandTop: 4, bandRows: 3 }),
    ).toThrow(/blank/);
  });
});
