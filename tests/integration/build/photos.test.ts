import { existsSync, readdirSync } from 'node:fs';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuildResult, build } from '../../../src/build/pipeline';
import { site } from '../../support/cli';
import { copyOfContent } from '../../support/content';
import { cameraPhoto } from '../../support/photo';

/**
 * The tags of the GPS directory of an EXIF block (a TIFF structure after "Exif\0\0"), read by
 * hand: IFD0's entry 0x8825 points at it. Empty when there is none.
 */
function gpsTags(exif: Buffer): number[] {
  const tiff = exif.subarray(exif.indexOf('Exif\0\0', 0, 'latin1') + 6);
  const little = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const entries = (ifd: number) =>
    Array.from({ length: u16(ifd) }, (_, i) => ({ tag: u16(ifd + 2 + i * 12), value: u32(ifd + 2 + i * 12 + 8) }));
  const gps = entries(u32(4)).find((entry) => entry.tag === 0x8825);
  return gps ? entries(gps.value).map((entry) => entry.tag) : [];
}

const PHOTO = '/media/gallery/gastronomy/harbour.jpg';

describe('a photo a page shows, dropped into content/media straight from a camera', () => {
  let content: Awaited<ReturnType<typeof copyOfContent>>;
  let outDir: string;
  let first: BuildResult;
  let published: string[];

  beforeAll(async () => {
    content = await copyOfContent({ media: 'copied' });
    outDir = path.join(content.root, 'dist');
    await writeFile(path.join(content.root, 'content', PHOTO), await cameraPhoto());
    // The first photo of a gallery, and a figure of an article.
    await content.edit('content/categories/gastronomy.json', (text) =>
      text.replace('/media/gallery/gastronomy/01.svg', PHOTO),
    );
    await content.edit(
      'content/blog/tech/Git.en.md',
      (text) => `${text}\n\n::figure[The harbour at dusk]{src="${PHOTO}" width="50"}\n`,
    );
    await content.edit('content/pages/professional.json', (text) =>
      text.replace('/media/professional/hero.svg', PHOTO),
    );
    // A link to the photo in an article that does not show it.
    await content.edit('content/blog/tech/cookies.en.md', (text) => `${text}\n\nSee [the harbour](${PHOTO}).\n`);
    first = await build({ root: content.root, outDir });
    published = (await readdir(outDir, { recursive: true })).filter((file) => file.includes('harbour'));
  }, 120_000);

  afterAll(() => content?.cleanup());

  it('is published as AVIF, WebP and JPEG variants at each width up to 1920 px, and never as it is', () => {
    expect(first.ok).toBe(true);
    const names = published.map((file) => {
      expect(path.dirname(file)).toBe(path.join('assets', 'media', 'gallery', 'gastronomy'));
      return path.basename(file).replace(/\.[0-9a-f]{10}\./, '.HASH.');
    });
    expect(names.sort()).toEqual(
      ['320', '640', '960', '1280', '1920']
        .flatMap((width) => ['avif', 'jpg', 'webp'].map((ext) => `harbour-${width}.HASH.${ext}`))
        .sort(),
    );
    expect(existsSync(path.join(outDir, PHOTO))).toBe(false);
  });

  it('has no metadata left in any published file: no EXIF (so no GPS position or camera), no XMP, IPTC or ICC profile', async () => {
    const source = await sharp(path.join(content.root, 'content', PHOTO)).metadata();
    // The source does carry them: the test would prove nothing otherwise.
    expect(gpsTags(source.exif as Buffer)).toEqual([1, 2, 3, 4]);
    expect(published.length).toBe(15);
    for (const file of published) {
      const bytes = await readFile(path.join(outDir, file));
      const meta = await sharp(bytes).metadata();
      expect({ file, exif: meta.exif, xmp: meta.xmp, iptc: meta.iptc, icc: meta.icc }).toEqual({
        file,
        exif: undefined,
        xmp: undefined,
        iptc: undefined,
        icc: undefined,
      });
      expect(bytes.includes('Exif\0\0'), file).toBe(false);
      expect(bytes.includes('Acme Optics'), file).toBe(false);
    }
  });

  it('is shown in a <picture> offering AVIF and WebP by width, sized to where it is shown', async () => {
    const gallery = await readFile(path.join(outDir, 'blog/gastronomy.html'), 'utf8');
    const article = await readFile(path.join(outDir, 'blog/tech/Git.html'), 'utf8');
    for (const html of [gallery, article]) {
      const picture = /<picture>(.*?)<\/picture>/s.exec(html)?.[1] ?? '';
      // The article's body is written by rehype ("srcset"), the gallery by React ("srcSet").
      expect(picture).toMatch(
        /<source type="image\/avif" srcset="\/assets\/media\/gallery\/gastronomy\/harbour-320\.[0-9a-f]{10}\.avif 320w, [^"]*harbour-1920\.[0-9a-f]{10}\.avif 1920w"/i,
      );
      expect(picture).toMatch(/<source type="image\/webp" srcset="[^"]*harbour-320\.[0-9a-f]{10}\.webp 320w,/i);
      expect(picture).toMatch(/<img [^>]*src="\/assets\/media\/gallery\/gastronomy\/harbour-1920\.[0-9a-f]{10}\.jpg"/);
      expect(picture).toMatch(/<img [^>]*srcset="[^"]*harbour-640\.[0-9a-f]{10}\.jpg 640w,/i);
    }
    // Three to a row in the gallery; half the article's column in the figure, at its own proportions.
    expect(gallery).toMatch(
      /<source type="image\/avif" srcSet="[^"]*" sizes="\(min-width: 72rem\) 23rem, \(min-width: 768px\) 33vw, 50vw"/,
    );
    expect(article).toMatch(
      /<img [^>]*width="2400" height="1600"[^>]*sizes="\(min-width: 48rem\) calc\(45\.5rem \* 0\.5\), calc\(\(100vw - 2\.5rem\) \* 0\.5\)"/,
    );
    expect(article).not.toContain(`src="${PHOTO}"`);
  });

  it("is the Professional page's hero as its widest AVIF, WebP and JPEG, the AVIF preloaded", async () => {
    // The style attribute as the browser reads it (React writes the quotes as &#x27;).
    const html = (await readFile(path.join(outDir, 'professional.html'), 'utf8')).replaceAll('&#x27;', "'");
    const url = (ext: string) => `/assets/media/gallery/gastronomy/harbour-1920\\.[0-9a-f]{10}\\.${ext}`;
    expect(html).toMatch(
      new RegExp(
        `background-image:image-set\\(url\\(${url('avif')}\\) type\\('image/avif'\\), url\\(${url('webp')}\\) type\\('image/webp'\\), url\\(${url('jpg')}\\)\\)`,
      ),
    );
    expect(html).toMatch(
      new RegExp(`<link rel="preload" href="${url('avif')}" as="image" type="image/avif" fetchPriority="high"/>`),
    );
  });

  it('is not encoded again by the next build, nor by a build into an empty folder (the variants are in the build cache)', async () => {
    const variants = (result: BuildResult) =>
      result.remade.filter((remade) => remade.output.startsWith('assets/media/gallery/gastronomy/harbour-'));
    expect(variants(first)).toHaveLength(15);
    const again = await build({ root: content.root, outDir });
    expect(again.ok).toBe(true);
    expect(variants(again)).toEqual([]);
    await rm(outDir, { recursive: true });
    const fresh = await build({ root: content.root, outDir });
    expect(variants(fresh)).toEqual([]);
    expect((await readdir(outDir, { recursive: true })).filter((file) => file.includes('harbour'))).toHaveLength(15);
  }, 60_000);

  it('is encoded into a folder of its own by a build without the cache, which leaves nothing behind', async () => {
    const elsewhere = path.join(content.root, 'uncached');
    const result = await build({ root: content.root, outDir: elsewhere, cache: false });
    expect(result.ok).toBe(true);
    expect(
      result.remade.filter((remade) => remade.output.startsWith('assets/media/gallery/gastronomy/harbour-')),
    ).toHaveLength(15);
    expect((await readdir(elsewhere, { recursive: true })).filter((file) => file.includes('harbour')).sort()).toEqual(
      [...published].sort(),
    );
    expect((await readdir(content.root)).filter((name) => name.startsWith('.images-'))).toEqual([]);
    await rm(elsewhere, { recursive: true });
  }, 60_000);

  it('is encoded again, under new names, when it is replaced', async () => {
    await writeFile(
      path.join(content.root, 'content', PHOTO),
      await sharp({ create: { width: 800, height: 600, channels: 3, background: '#204060' } })
        .jpeg()
        .toBuffer(),
    );
    const result = await build({ root: content.root, outDir });
    const now = (await readdir(outDir, { recursive: true })).filter((file) => file.includes('harbour'));
    expect(now.filter((file) => file.endsWith('.avif')).map((file) => /harbour-(\d+)\./.exec(file)?.[1])).toEqual([
      '320',
      '640',
      '800',
    ]);
    expect(now.some((file) => published.includes(file))).toBe(false);
    expect(
      result.remade.filter((remade) => remade.output.startsWith('assets/media/gallery/gastronomy/harbour-')),
    ).toHaveLength(9);
    const article = await readFile(path.join(outDir, 'blog/tech/Git.html'), 'utf8');
    expect(article).toMatch(/<img [^>]*width="800" height="600"/);
    // A link to it follows it to its new name (the body is made again, though its text is the same).
    const linking = await readFile(path.join(outDir, 'blog/tech/cookies.html'), 'utf8');
    const linked =
      /<a href="(\/assets\/media\/gallery\/gastronomy\/harbour-[^"]+)">the harbour<\/a>/.exec(linking)?.[1] ?? '';
    expect(linked).toMatch(/harbour-800\.[0-9a-f]{10}\.jpg$/);
    expect(now).toContain(path.join('assets', linked.slice('/assets/'.length)));
  }, 60_000);

  it('is encoded while the pages are modelled and rendered, and published once encoded', async () => {
    const NEW = '/media/gallery/gastronomy/alongside.jpg';
    await writeFile(path.join(content.root, 'content', NEW), await cameraPhoto('#306090'));
    await content.edit(
      'content/blog/tech/Git.en.md',
      (text) => `${text}\n\n::figure[Alongside]{src="${NEW}" width="50"}\n`,
    );
    const encoded = () =>
      readdirSync(path.join(content.root, '.cache'), { recursive: true }).filter((file) =>
        String(file).includes('alongside-'),
      ).length;
    // What the cache held of the new photo's 15 variants as the model stage started.
    let atLoad: number | undefined;
    const result = await build({
      root: content.root,
      outDir,
      onProgress: ({ stage }) => {
        if (stage === 'load') atLoad ??= encoded();
      },
    });
    expect(result.ok).toBe(true);
    expect(atLoad).toBeLessThan(15);
    expect(encoded()).toBe(15);
    expect((await readdir(outDir, { recursive: true })).filter((file) => file.includes('alongside-'))).toHaveLength(15);
  }, 60_000);

  it('is left as it was when a build is cancelled while photos are being encoded, and nothing is written after', async () => {
    const before = await readdir(outDir, { recursive: true });
    // Four new photos: their encoding is under way when the pages start to be rendered.
    for (const n of [1, 2, 3, 4])
      await writeFile(
        path.join(content.root, `content/media/gallery/gastronomy/new-${n}.jpg`),
        await cameraPhoto(`#${n}0${n}0a0`),
      );
    const controller = new AbortController();
    const cancelled = build({
      root: content.root,
      outDir,
      signal: controller.signal,
      onProgress: ({ stage }) => stage === 'render' && controller.abort(),
    });
    await expect(cancelled).rejects.toThrow();
    // Once the build has given up, nothing more happens: no photo is encoded into the cache or the output later.
    const settled = async () =>
      [
        ...(await readdir(content.root)),
        ...(await readdir(path.join(content.root, '.cache'), { recursive: true })),
      ].sort();
    const then = await settled();
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(await settled()).toEqual(then);
    expect(await readdir(outDir, { recursive: true })).toEqual(before);
    expect((await readdir(content.root)).filter((name) => /^\.dist-(new|old)-/.test(name))).toEqual([]);
    for (const n of [1, 2, 3, 4]) await rm(path.join(content.root, `content/media/gallery/gastronomy/new-${n}.jpg`));
  }, 60_000);

  it('stops the build with a diagnostic when it cannot be read, and leaves the site as it was', async () => {
    const before = await readdir(outDir, { recursive: true });
    const whole = await cameraPhoto();
    // Cut short (its header reads, its pixels do not: found by the encoder), then not an image at
    // all (found by the check).
    for (const broken of [whole.subarray(0, whole.length / 2), Buffer.from('not a photo')]) {
      await writeFile(path.join(content.root, 'content', PHOTO), broken);
      const result = await site(['build', '--root', content.root, '--out', outDir]);
      expect(result.code).toBe(1);
      expect(result.stdout + result.stderr).toContain(`content${PHOTO}`);
      expect(result.stdout + result.stderr).toContain('ASSET004');
      expect(result.stdout + result.stderr).not.toMatch(/\n\s+at /);
      expect(await readdir(outDir, { recursive: true })).toEqual(before);
    }
  }, 60_000);
});
