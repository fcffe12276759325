import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { loadSite } from '../../../src/build/pipeline';
import { PROJECT_ROOT } from '../../support/content';

const distDir = inject('distDir');
const files = (await readdir(distDir, { recursive: true })).filter((f) => f.endsWith('.html'));
// Every page in the layout; the redirect pages at "/" and "/pt" show no picture.
const pages = (
  await Promise.all(files.map(async (file) => ({ file, html: await readFile(path.join(distDir, file), 'utf8') })))
).filter((p) => p.html.includes('class="page page--'));
const { site } = await loadSite(PROJECT_ROOT);
/** The compiled markdown of every article: its pictures come from src/markdown, not from templates. */
const bodies = site!.articles
  .flatMap((a) => Object.values(a.editions).map((e) => e.body.html))
  .filter((html) => html.includes('<img'));

/** The <img> tags of some HTML that lack a width or a height attribute. */
function unsized(html: string): string[] {
  return [...html.matchAll(/<img\b[^>]*>/g)]
    .map((m) => m[0])
    .filter((tag) => !/\swidth="\d+"/.test(tag) || !/\sheight="\d+"/.test(tag));
}

describe('the pictures of every built page', () => {
  it('have a width and a height wherever the templates render them, so nothing shifts as they load', () => {
    expect(pages.length).toBeGreaterThan(70);
    const problems = pages.flatMap(({ file, html }) =>
      unsized(bodies.reduce((rest, body) => rest.replace(body, ''), html)).map((tag) => `${file}: ${tag}`),
    );
    expect(problems).toEqual([]);
  });

  it('have a width and a height in article bodies too (read from the image files)', () => {
    const problems = pages.flatMap(({ file, html }) => unsized(html).map((tag) => `${file}: ${tag}`));
    expect(problems).toEqual([]);
  });

  it('are preloaded only when they are the first pictures of the page, one of them with high priority', () => {
    for (const { file, html } of pages) {
      const preloads = [...html.matchAll(/<link rel="preload"[^>]*as="image"[^>]*>/g)].map((m) => m[0]);
      expect(preloads.length, file).toBeLessThanOrEqual(3);
      expect(preloads.filter((p) => p.includes('fetchPriority="high"')).length, file).toBeLessThanOrEqual(1);
      // React preloads every eagerly loaded picture unless told otherwise: never the header's,
      // the flags or the social icons.
      expect(preloads.join(''), file).not.toMatch(/\/media\/(owner|flags|social)\//);
    }
  });

  it('load lazily when out of the first screen: the social icons (footer, drawer) and article bodies', () => {
    for (const { file, html } of pages) {
      const icons = [...html.matchAll(/<img\b[^>]*src="[^"]*\/media\/social\/[^>]*>/g)].map((m) => m[0]);
      expect(icons.length, file).toBeGreaterThan(0);
      for (const tag of icons) expect(tag, file).toContain('loading="lazy"');
    }
    for (const body of bodies)
      for (const tag of body.match(/<img\b[^>]*>/g) ?? []) expect(tag).toContain('loading="lazy"');
  });
});
