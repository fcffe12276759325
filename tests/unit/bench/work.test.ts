import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkWork, type ExpectedWork, type Output, WorkMissing } from '../../bench/work';

/**
 * Two editions of one article: the English one shows a photo (two widths, three formats), the
 * Portuguese one a shell block.
 */
const EXPECTED: ExpectedWork = {
  pages: [
    { url: '/blog/tech/post00000', code: 'ts', photo: '/media/blog/photos/photo-00.jpg' },
    { url: '/pt/blog/tech/post00000', code: 'bash' },
  ],
  variants: { avif: 2, webp: 2, jpeg: 2 },
};

const PICTURE =
  '<picture><source type="image/avif" srcset="/img/a-320.avif 320w, /img/a-640.avif 640w"><source type="image/webp" srcset="/img/a-320.webp 320w, /img/a-640.webp 640w"><img src="/img/a-320.jpeg"></picture>';
const TS_PRISM =
  '<pre class="language-ts"><code class="language-ts"><span class="token keyword">const</span> a</code></pre>';
const BASH_PRISM =
  '<pre class="language-bash"><code class="language-bash"><span class="token function">git</span> log</code></pre>';
const BASH_PLAIN_HLJS = '<pre><code class="language-bash hljs">git log</code></pre>';
const TS_HLJS = '<pre><code class="language-ts hljs"><span class="hljs-keyword">const</span> a</code></pre>';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'bench-work-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function write(file: string, text = ''): Promise<void> {
  await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
  await writeFile(path.join(dir, file), text);
}

/** An Eleventy-like output: a folder per page, the photo's variants under img/. */
const eleventy: () => Output = () => ({
  system: 'Eleventy, same work',
  dir: path.join(dir, '_site'),
  pageFile: (url) => path.join(dir, '_site', url, 'index.html'),
  pages: 'exact',
  highlighter: 'prism',
  imagesDir: path.join(dir, '_site', 'img'),
});

async function completeEleventySite(): Promise<void> {
  await write('_site/blog/tech/post00000/index.html', `<main>${TS_PRISM}<figure>${PICTURE}</figure></main>`);
  await write('_site/pt/blog/tech/post00000/index.html', `<main>${BASH_PRISM}</main>`);
  for (const width of [320, 640])
    for (const extension of ['avif', 'webp', 'jpeg'])
      await write(`_site/img/a-${width}.${extension}`, 'x'.repeat(width));
}

describe('the check that a compared system did the work', () => {
  it('passes a system that wrote every page, highlighted, with the photo and all its variants, and reports what it found', async () => {
    await completeEleventySite();
    const done = await checkWork(eleventy(), EXPECTED);
    expect(done).toEqual({
      pages: 2,
      highlightedPages: 2,
      pagesWithPicture: 1,
      images: { avif: 2, webp: 2, jpeg: 2 },
      imageBytes: { avif: 960, webp: 960, jpeg: 960 },
    });
  });

  it('fails a system that wrote a page fewer, naming the edition', async () => {
    await completeEleventySite();
    await rm(path.join(dir, '_site/pt'), { recursive: true });
    const failure = checkWork(eleventy(), EXPECTED);
    await expect(failure).rejects.toThrow(WorkMissing);
    await expect(failure).rejects.toThrow(
      /1 HTML pages written where 2 were expected[\s\S]*1 editions have no page \(\/pt\/blog\/tech\/post00000\)/,
    );
  });

  it('fails a system whose code is not highlighted', async () => {
    await completeEleventySite();
    await write(
      '_site/blog/tech/post00000/index.html',
      `<main><pre><code class="language-ts">const a</code></pre><figure>${PICTURE}</figure></main>`,
    );
    await expect(checkWork(eleventy(), EXPECTED)).rejects.toThrow(
      /1 pages have no prism tokens in their code block \(\/blog\/tech\/post00000 \(ts\)\)/,
    );
  });

  it('fails a system that encoded a format fewer, or showed the photo as a plain image', async () => {
    await completeEleventySite();
    await rm(path.join(dir, '_site/img/a-320.avif'));
    await rm(path.join(dir, '_site/img/a-640.avif'));
    await write(
      '_site/blog/tech/post00000/index.html',
      `<main>${TS_PRISM}<figure><img src="/media/blog/photos/photo-00.jpg"></figure></main>`,
    );
    const failure = checkWork(eleventy(), EXPECTED);
    await expect(failure).rejects.toThrow(/0 avif image files written where 2 were expected/);
    await expect(failure).rejects.toThrow(/1 photo articles have no <picture> of AVIF, WebP and JPEG/);
  });

  it('fails a system that did more than the work, which would flatter the ratio too: a page or an image format beyond it', async () => {
    await completeEleventySite();
    await write('_site/extra/index.html', '<main></main>');
    await write('_site/img/a-320.png', 'x');
    const failure = checkWork(eleventy(), EXPECTED);
    await expect(failure).rejects.toThrow(/3 HTML pages written where 2 were expected/);
    await expect(failure).rejects.toThrow(/1 png image files written, a format our build does not publish/);
  });

  it('takes a shell block that highlight.js leaves plain, but not a page whose code block is gone', async () => {
    const floor: Output = {
      system: 'floor',
      dir: path.join(dir, 'out'),
      pageFile: (url) => path.join(dir, 'out', `${url}.html`),
      pages: 'exact',
      highlighter: 'hljs',
    };
    await write('out/blog/tech/post00000.html', TS_HLJS);
    await write('out/pt/blog/tech/post00000.html', BASH_PLAIN_HLJS);
    expect(await checkWork(floor, EXPECTED)).toMatchObject({ pages: 2, highlightedPages: 1, images: {} });
    await write('out/pt/blog/tech/post00000.html', '<p>git log</p>');
    await expect(checkWork(floor, EXPECTED)).rejects.toThrow(
      /no hljs tokens in their code block \(\/pt\/blog\/tech\/post00000 \(bash\)\)/,
    );
  });
});
