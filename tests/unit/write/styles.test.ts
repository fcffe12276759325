import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStyles } from '../../../src/write/styles';

describe('buildStyles', () => {
  let dir: string;
  const sheets = { article: ['base.css', 'pieces/prose.css', 'pages/article.css'], notfound: ['base.css'] } as const;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'site-styles-'));
    await mkdir(path.join(dir, 'pieces'));
    await mkdir(path.join(dir, 'pages'));
    await writeFile(path.join(dir, 'base.css'), '/* every page */\nbody {\n  margin: 0;\n}\n');
    await writeFile(path.join(dir, 'pieces/prose.css'), '.prose pre {\n  overflow-x: auto;\n}\n');
    await writeFile(path.join(dir, 'pages/article.css'), ".article::after {\n  content: '</style>';\n}\n");
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('inlines each kind its own sheets, minified in cascade order, and writes no file', async () => {
    const built = await buildStyles({ dir, sheets });
    expect(built.files).toEqual([]);
    expect(built.styles.notfound).toEqual({ inline: 'body{margin:0}\n' });
    const article = 'inline' in built.styles.article ? built.styles.article.inline : '';
    expect(article.indexOf('body{')).toBeLessThan(article.indexOf('.prose pre{'));
    expect(article.indexOf('.prose pre{')).toBeLessThan(article.indexOf('.article:after{'));
  });

  it('never lets inlined CSS close its <style> element', async () => {
    const { styles } = await buildStyles({ dir, sheets });
    expect(JSON.stringify(styles.article)).not.toMatch(/<\/style/i);
    expect(JSON.stringify(styles.article)).toContain('<\\\\/style>');
  });

  it('links a kind too large to inline as two content-hashed files: the shared first sheet, and the rest', async () => {
    // notfound's CSS is 15 bytes, the article's more than 20.
    const built = await buildStyles({ dir, sheets, inlineLimit: 20 });
    expect(built.styles.notfound).toEqual({ inline: 'body{margin:0}\n' });
    const links = 'links' in built.styles.article ? built.styles.article.links : [];
    expect(links).toEqual([
      expect.stringMatching(/^\/assets\/base\.[0-9a-f]{10}\.css$/),
      expect.stringMatching(/^\/assets\/article\.[0-9a-f]{10}\.css$/),
    ]);
    expect(built.files.map((f) => `/${f.path}`)).toEqual(links);
    expect(built.files[0]?.contents).toBe('body{margin:0}\n');
    expect(built.files.find((f) => f.path.startsWith('assets/article.'))?.contents).toBe(
      '.prose pre{overflow-x:auto}.article:after{content:"<\\/style>"}\n',
    );
  });
});
