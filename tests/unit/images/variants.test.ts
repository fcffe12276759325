import { mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeVariants } from '../../../src/images/encode';
import { pictureOf } from '../../../src/images/picture';
import { type RasterImage, readRasters } from '../../../src/images/raster';
import { variantsOf, widthsOf } from '../../../src/images/variants';
import { keptByFile } from '../../support/kept';

describe('the variants of a raster image', () => {
  it('come at each standard width the source exceeds by a tenth, and at its own width up to 1920 px, never wider', () => {
    expect(widthsOf({ width: 4000 })).toEqual([320, 640, 960, 1280, 1920]);
    expect(widthsOf({ width: 1000 })).toEqual([320, 640, 1000]);
    expect(widthsOf({ width: 700 })).toEqual([320, 700]);
    expect(widthsOf({ width: 180 })).toEqual([180]);
  });

  it('are AVIF and WebP with a fallback of the source kind: JPEG for a JPEG, PNG for a PNG, the WebP itself otherwise', () => {
    const formats = (file: string) => [
      ...new Set(variantsOf({ file, width: 800, height: 600, hash: '0123456789' }).map((v) => v.format)),
    ];
    expect(formats('a.jpg')).toEqual(['avif', 'webp', 'jpeg']);
    expect(formats('a.PNG')).toEqual(['avif', 'webp', 'png']);
    expect(formats('a.webp')).toEqual(['avif', 'webp']);
    expect(formats('a.avif')).toEqual(['avif', 'webp']);
  });

  it('make a <picture> whose sources list every width, the best format first, escaped, on the image CDN when there is one', () => {
    const picture = pictureOf(
      { file: 'blog/a b.jpg', width: 800, height: 400, hash: '0123456789' },
      (p) => `https://img.example.net${p}`,
    );
    expect(picture.sources.map((s) => s.type)).toEqual(['image/avif', 'image/webp']);
    expect(picture.sources[0]?.srcset).toBe(
      'https://img.example.net/assets/media/blog/a%20b-320.0123456789.avif 320w, https://img.example.net/assets/media/blog/a%20b-640.0123456789.avif 640w, https://img.example.net/assets/media/blog/a%20b-800.0123456789.avif 800w',
    );
    expect(picture.src).toBe('https://img.example.net/assets/media/blog/a%20b-800.0123456789.jpg');
    // Nothing in a name ends a CSS url() either (the hero's background).
    expect(pictureOf({ file: "o'neil (1).jpg", width: 320, height: 200, hash: '0123456789' }, (p) => p).src).toBe(
      '/assets/media/o%27neil%20%281%29-320.0123456789.jpg',
    );
    expect([picture.width, picture.height]).toEqual([800, 400]);
  });
});

describe('a photo taken with the camera turned (EXIF orientation 6)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'site-images-'));
    // Stored 600 wide and 400 high, red on its left half: shown turned a quarter clockwise.
    const left = await sharp({ create: { width: 300, height: 400, channels: 3, background: '#ff0000' } })
      .png()
      .toBuffer();
    const stored = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#0000ff' } })
      .composite([{ input: left, left: 0, top: 0 }])
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    await writeFile(path.join(dir, 'turned.jpg'), stored);
    // The same turn in a PNG and a WebP: their EXIF orientation is honoured too.
    for (const format of ['png', 'webp'] as const) {
      await writeFile(
        path.join(dir, `turned.${format}`),
        await sharp(stored).toFormat(format).withMetadata({ orientation: 6 }).toBuffer(),
      );
    }
    await writeFile(path.join(dir, 'notes.txt'), 'not an image');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('is catalogued at the size it is shown, 400 × 600, as a JPEG, a PNG or a WebP, and only raster files are', async () => {
    const images = await readRasters(dir, ['turned.jpg', 'turned.png', 'turned.webp', 'notes.txt']);
    expect([...images.keys()]).toEqual(['turned.jpg', 'turned.png', 'turned.webp']);
    for (const image of images.values())
      expect(image, image.file).toMatchObject({
        width: 400,
        height: 600,
        hash: expect.stringMatching(/^[0-9a-f]{10}$/),
      });
  });

  it('is published upright: its variants are 400 wide, red on top, with no orientation tag left', async () => {
    const image = (await readRasters(dir, ['turned.jpg'])).get('turned.jpg')!;
    const variants = variantsOf(image).filter((v) => v.format === 'jpeg');
    expect(variants.map((v) => v.width)).toEqual([320, 400]);
    const [, widest] = await encodeVariants(await readFile(path.join(dir, 'turned.jpg')), variants);
    const meta = await sharp(widest).metadata();
    expect([meta.width, meta.height, meta.orientation]).toEqual([400, 600, undefined]);
    const { data } = await sharp(widest)
      .extract({ left: 200, top: 50, width: 1, height: 1 })
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(200);
    expect(data[2]).toBeLessThan(60);
  });
});

describe('the raster images a build read before', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'site-rasters-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  /** A JPEG `width` × 300 written at `file`, last changed an hour ago as far as its modification time says. */
  async function photo(file: string, width: number): Promise<void> {
    const absolute = path.join(dir, file);
    await writeFile(
      absolute,
      await sharp({ create: { width, height: 300, channels: 3, background: '#336699' } })
        .jpeg()
        .toBuffer(),
    );
    const anHourAgo = new Date(Date.now() - 3_600_000);
    await utimes(absolute, anHourAgo, anHourAgo);
  }

  it('are found again while their files are as they were, and a replaced one is read again', async () => {
    await photo('harbour.jpg', 400);
    await photo('cliff.jpg', 500);
    // Its change time is now: not settled, so not yet trusted (see statSignature); two seconds on, it is.
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const cache = keptByFile<RasterImage>();
    const first = await readRasters(dir, ['harbour.jpg', 'cliff.jpg'], cache);
    expect(cache.madeNow.sort()).toEqual(['cliff.jpg', 'harbour.jpg']);

    cache.madeNow.length = 0;
    const again = await readRasters(dir, ['harbour.jpg', 'cliff.jpg'], cache);
    expect(cache.madeNow).toEqual([]);
    expect(again).toEqual(first);

    // Replaced by a wider photo, its modification time set back as a copy tool may: the change time tells.
    await photo('harbour.jpg', 640);
    const replaced = await readRasters(dir, ['harbour.jpg', 'cliff.jpg'], cache);
    expect(replaced.get('harbour.jpg')).toMatchObject({ width: 640, height: 300 });
    expect(replaced.get('harbour.jpg')?.hash).not.toBe(first.get('harbour.jpg')?.hash);
    expect(replaced.get('cliff.jpg')).toEqual(first.get('cliff.jpg'));
  }, 15_000);
});
