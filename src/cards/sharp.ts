import type { Sharp, SharpOptions } from 'sharp';

let loaded: Promise<(input: Buffer, options?: SharpOptions) => Sharp> | undefined;

/**
 * sharp, loaded when a card's drawing first needs librsvg (a frame, a box of words, a sheet of
 * glyphs), and set for drawings that are each made once: libvips keeps no cache of them and runs
 * each on one thread. What libvips allocates for a drawing, the C allocator keeps once freed, for
 * the life of the process: an operation cache and a pool of threads each drawing a large picture
 * kept hundreds of megabytes after the cards were drawn (and a build's many cards are drawn in a
 * process of their own, see threads.ts).
 */
export function loadSharp(): Promise<(input: Buffer, options?: SharpOptions) => Sharp> {
  loaded ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    sharp.concurrency(1);
    return sharp;
  });
  return loaded;
}
