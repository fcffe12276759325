import { crc32, inflateSync } from 'node:zlib';
import { expect } from 'vitest';

/**
 * The chunks of a PNG, each with its CRC checked, and the last of each type; the IDAT data inflated
 * by zlib, which checks the Adler-32.
 */
export function readPng(png: Buffer): {
  types: string[];
  chunks: Record<string, Buffer>;
  idat: Buffer[];
  pixels: Buffer;
} {
  expect(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
  const types: string[] = [];
  const chunks: Record<string, Buffer> = {};
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    expect(png.readUInt32BE(at + 8 + length), `the CRC of ${type} chunk ${types.length}`).toBe(
      crc32(data, crc32(type)),
    );
    types.push(type);
    chunks[type] = data;
    if (type === 'IDAT') idat.push(data);
    at += 12 + length;
  }
  return { types, chunks, idat, pixels: inflateSync(Buffer.concat(idat)) };
}
