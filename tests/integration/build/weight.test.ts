import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { transform } from 'esbuild';
import { describe, expect, inject, it } from 'vitest';
import { formatWeights, pageWeights, type WeighedPage } from '../../../src/build/weight';
import { buildAssets, type OutputFile, type ScriptImports } from '../../../src/write/assets';
import { PAGE_SHEETS } from '../../../templates/styles/sheets';
import { PROJECT_ROOT } from '../../support/content';

const gz = (text: string) => gzipSync(Buffer.from(text), { level: 9 }).length;

describe('page weights of hand-made builds', () => {
  const css = 'body{margin:0}';
  const linked = '.a{color:red}';
  const client =
    'import{a as x}from"/assets/chunk.A.js";import"./chunk.B.js";x();addEventListener("load",()=>import("/assets/islands.js"));';
  const chunkA = 'import"/assets/chunk.B.js";export const a=()=>1;';
  const chunkB = 'window.b=1;';
  const islands = 'import"/assets/chunk.B.js";export const hydrate=()=>import("/assets/lazy.js");';
  const lazy = 'export const never=1;';
  const pageOne = `<html><head><style>${css}</style><script type="application/ld+json">{}</script><script type="module" src="/assets/client.js"></script></head><body></body></html>`;
  const pageTwo = `<html><head><link rel="stylesheet" href="/assets/a.css"/><script type="module" src="/assets/client.js"></script></head><body><p>longer page</p></body></html>`;
  const files: OutputFile[] = [
    { path: 'blog/one.html', contents: pageOne },
    { path: 'blog/two.html', contents: new TextEncoder().encode(pageTwo) },
    { path: 'about.html', contents: '<html><head></head><body></body></html>' },
    { path: 'assets/a.css', contents: linked },
    { path: 'assets/client.js', contents: client },
    { path: 'assets/chunk.A.js', contents: chunkA },
    { path: 'assets/chunk.B.js', contents: chunkB },
    { path: 'assets/islands.js', contents: islands },
    { path: 'assets/lazy.js', contents: lazy },
  ];
  // What esbuild's metafile says of these scripts: the static imports, and the client's own
  // import() once the page has loaded; never the chunk the islands import on demand.
  const scriptImports: ScriptImports = {
    static: {
      'assets/client.js': ['assets/chunk.A.js', 'assets/chunk.B.js'],
      'assets/chunk.A.js': ['assets/chunk.B.js'],
      'assets/islands.js': ['assets/chunk.B.js'],
    },
    afterLoad: { 'assets/client.js': ['assets/islands.js'] },
  };
  const pages: WeighedPage[] = [
    { path: 'blog/one.html', kind: 'article' },
    { path: 'about.html', kind: 'aboutme' },
    { path: 'blog/two.html', kind: 'article' },
  ];

  it('sums inline and linked CSS, and the scripts loaded at start and after the load event once each, never the ones loaded on demand', () => {
    const [article, aboutme] = pageWeights(files, pages, scriptImports);
    const atStart = { raw: client.length + chunkA.length + chunkB.length, gzip: gz(client) + gz(chunkA) + gz(chunkB) };
    const js = { raw: atStart.raw + islands.length, gzip: atStart.gzip + gz(islands) };
    expect(article?.kind).toBe('article');
    expect(article?.pages).toBe(2);
    expect(article?.js).toEqual({ median: js, max: js });
    expect(article?.jsAtStart).toEqual({ median: atStart, max: atStart });
    expect(article?.css.max).toEqual({ raw: Math.max(css.length, linked.length), gzip: Math.max(gz(css), gz(linked)) });
    expect(article?.css.median).toEqual({
      raw: Math.round((css.length + linked.length) / 2),
      gzip: Math.round((gz(css) + gz(linked)) / 2),
    });
    expect(article?.html.max).toEqual({
      raw: Math.max(pageOne.length, pageTwo.length),
      gzip: Math.max(gz(pageOne), gz(pageTwo)),
    });
    expect(aboutme).toMatchObject({
      kind: 'aboutme',
      pages: 1,
      css: { max: { raw: 0, gzip: 0 } },
      js: { max: { raw: 0, gzip: 0 } },
    });
  });

  it('names a file a page loads that the build does not hold', () => {
    const broken = files.filter((f) => f.path !== 'assets/chunk.B.js');
    expect(() => pageWeights(broken, pages, scriptImports)).toThrow('assets/chunk.B.js');
  });

  it('prints one line per page kind, in KB raw / gzipped', () => {
    const table = formatWeights(pageWeights(files, pages, scriptImports)).split('\n');
    expect(table[0]).toMatch(
      /^page kind\s+pages\s+HTML median\s+HTML max\s+CSS median\s+CSS max\s+JS median\s+JS max\s+JS at start max$/,
    );
    expect(table[1]).toMatch(/^article\s+2\s+0\.\d \/ 0\.\d/);
    expect(table[2]).toMatch(/^aboutme\s+1\s/);
    expect(table[2]).toContain('0.0 / 0.0');
    expect(table).toHaveLength(4);
  });
});

/** Every file of a built site but the precompressed copies and the media. */
async function builtFiles(dist: string): Promise<OutputFile[]> {
  const names = (await readdir(dist, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => path.relative(dist, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .filter((f) => !/\.(br|gz)$/.test(f) && !f.startsWith('media/'));
  return Promise.all(names.map(async (name) => ({ path: name, contents: await readFile(path.join(dist, name)) })));
}

describe('page weights of the real build', async () => {
  const files = await builtFiles(inject('distDir'));
  // The layout marks each page with its kind: <div id="app" class="page page--article">.
  const pages = files.flatMap((f) => {
    const kind = f.path.endsWith('.html')
      ? /class="page page--(\w+)"/.exec(Buffer.from(f.contents).toString('utf8'))?.[1]
      : undefined;
    return kind ? [{ path: f.path, kind }] : [];
  });
  // The import graph comes from esbuild's metafile of the same client code the build bundled.
  const { scriptImports, script } = await buildAssets();
  const weights = pageWeights(files, pages, scriptImports);

  it('takes the scripts from the metafile: the client and its shared chunk at start, React and the islands after the load event, never the search', () => {
    const client = script.slice(1);
    const scripts = files
      .filter((f) => f.path.endsWith('.js'))
      .map((f) => f.path)
      .sort();
    expect(Object.keys(scriptImports.static).sort()).toEqual(scripts);
    const textOf = (file: string) => Buffer.from(files.find((f) => f.path === file)!.contents).toString('utf8');
    const size = (file: string) => Buffer.byteLength(textOf(file));
    const atStart = [client, ...(scriptImports.static[client] ?? [])];
    const afterLoad = scriptImports.afterLoad[client] ?? [];
    expect(afterLoad.length).toBeGreaterThan(0);
    const loaded = new Set([
      ...atStart,
      ...afterLoad,
      ...afterLoad.flatMap((chunk) => scriptImports.static[chunk] ?? []),
    ]);
    for (const chunk of loaded) expect(scripts).toContain(chunk);
    // React (whose errors point to react.dev) is loaded after the load event, never at start.
    const hasReact = (file: string) => textOf(file).includes('react.dev/errors');
    expect(atStart.filter(hasReact)).toEqual([]);
    expect(afterLoad.some(hasReact)).toBe(true);
    // The search code is a chunk of its own, loaded by nothing but a search.
    expect(scripts.filter((s) => !loaded.has(s)).length).toBeGreaterThan(0);
    const article = weights.find((w) => w.kind === 'article');
    expect(article?.jsAtStart.max.raw).toBe(atStart.reduce((sum, file) => sum + size(file), 0));
    expect(article?.js.max.raw).toBe([...loaded].reduce((sum, file) => sum + size(file), 0));
  });

  it('covers every page kind', () => {
    expect(weights.map((w) => w.kind).sort()).toEqual(Object.keys(PAGE_SHEETS).sort());
  });

  it('keeps every page within 80 KB of gzipped JavaScript, React included, and our own start-up script near 10 KB (docs/design.md, Budgets)', () => {
    for (const weight of weights) expect(weight.js.max.gzip, weight.kind).toBeLessThanOrEqual(80 * 1024);
    for (const weight of weights) expect(weight.jsAtStart.max.gzip, weight.kind).toBeLessThanOrEqual(10 * 1024);
  });

  it('sends an article less CSS than the whole site has (what every page loaded before)', async () => {
    const sheets = [...new Set(Object.values(PAGE_SHEETS).flat())];
    const sources = await Promise.all(
      sheets.map((sheet) => readFile(path.join(PROJECT_ROOT, 'templates/styles', sheet), 'utf8')),
    );
    const whole = (await transform(sources.join('\n'), { loader: 'css', minify: true })).code;
    const article = weights.find((w) => w.kind === 'article');
    expect(article?.css.max.raw).toBeLessThan(Buffer.byteLength(whole));
    expect(article?.css.max.gzip).toBeLessThan(gz(whole));
  });
});
