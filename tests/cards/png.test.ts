import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { adler32, adler32Combine, cardPng, pngFrame, rowSums } from '../../src/cards/png';
import { readPng } from '../support/png';

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
      expect(adler32Combine(adler32(data.subarray(0, cut)), adler32(data.subarray(cut)), data.length - cut)).toBe(zlibAdler(data));
    }
  });

  it('writes a frame’s rows once and a card’s inked rows alone, into a PNG any decoder reads as the whole picture', async () => {
    const width = 40;
    const height = 30;
    const paper = Buffer.alloc(width * 3);
    for (let x = 0; x < width; x++) paper.set([250, 247, 242], x * 3);
    // A frame of noise; its band (rows 8 to 21) paper but for rows 10, 11 and 17.
    const picture = randomBytes(width * height * 3);
    for (let y = 8; y < 22; y++) paper.copy(picture, y * width * 3);
    const frame = pngFrame(picture, width, height, 8, 14, paper);
    const rowBytes = width * 3 + 1;
    const rows = Buffer.alloc(14 * rowBytes);
    for (let y = 0; y < 14; y++) paper.copy(rows, y * rowBytes + 1);
    const inked = new Uint8Array(14);
    for (const y of [2, 3, 9]) {
      randomBytes(width * 3).copy(rows, y * rowBytes + 1);
      inked[y] = 1;
      rows.copy(picture, (8 + y) * width * 3, y * rowBytes + 1, (y + 1) * rowBytes);
    }
    const sums = Float64Array.from({ length: 14 }, (_, y) => rowSums(rows.subarray(y * rowBytes, (y + 1) * rowBytes)).sum);
    const weighted = Float64Array.from({ length: 14 }, (_, y) => rowSums(rows.subarray(y * rowBytes, (y + 1) * rowBytes)).weighted);
    const png = cardPng(frame, { rows, inked, sums, weighted });

    const read = readPng(png);
    expect(read.types).toEqual(['IHDR', 'IDAT', 'IDAT', 'IDAT', 'IEND']);
    // The frame's head and tail stand in it as they were compressed once.
    expect(png.subarray(0, frame.head.length).equals(frame.head)).toBe(true);
    expect(read.idat[2]?.subarray(0, frame.tail.data.length).equals(frame.tail.data)).toBe(true);
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([width, height, 3]);
    expect(data.equals(picture)).toBe(true);
  });
});
