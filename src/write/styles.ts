import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { PageStyles } from '../shared/props';
import type { OutputFile } from './assets';

/**
 * A page kind's CSS is inlined when it minifies to at most this many bytes. An inlined sheet is
 * sent again with every page; a linked one costs a render-blocking request (a round trip before
 * the first paint) on the first view and is cached after that. CSS compresses several times
 * over, so 14 KB adds a few KB to a compressed page: small enough that the head still arrives in
 * the first round trip (a TCP initial window of 10 segments carries about 14 KB), which is what
 * the saved request buys. The page-weight table `site build` prints gives each kind's CSS.
 */
export const INLINE_CSS_LIMIT = 14 * 1024;

function contentHash(contents: string): string {
  return createHash('sha256').update(contents).digest('hex').slice(0, 10);
}

export interface StylesOptions<K extends string> {
  /** The folder the sheet paths are relative to. */
  dir: string;
  /** Each page kind's sheets in cascade order; the first (base.css) is the same for every kind. */
  sheets: Readonly<Record<K, readonly string[]>>;
  /** Minified bytes up to which a kind's CSS is inlined. */
  inlineLimit?: number;
}

export interface BuiltStyles<K extends string> {
  /** The files linked by kinds whose CSS is too large to inline; none when every kind inlines. */
  files: OutputFile[];
  styles: Record<K, PageStyles>;
}

/**
 * The CSS of every page kind: its sheets concatenated and minified, then inlined when small.
 * A kind too large to inline links two content-hashed files: its first sheet, shared by every
 * kind and so cached once for the whole site, and the rest of its sheets in one file.
 */
export async function buildStyles<K extends string>({
  dir,
  sheets,
  inlineLimit = INLINE_CSS_LIMIT,
}: StylesOptions<K>): Promise<BuiltStyles<K>> {
  const kinds = Object.keys(sheets) as K[];
  const names = [...new Set(kinds.flatMap((kind) => sheets[kind]))];
  const sources = new Map(
    await Promise.all(names.map(async (name) => [name, await readFile(path.join(dir, name), 'utf8')] as const)),
  );
  const { transform } = await import('esbuild');
  const minify = async (list: readonly string[]) =>
    (await transform(list.map((name) => sources.get(name)).join('\n'), { loader: 'css', minify: true })).code;
  const files = new Map<string, OutputFile>();
  const link = (name: string, css: string) => {
    const file = `assets/${name}.${contentHash(css)}.css`;
    files.set(file, { path: file, contents: css });
    return `/${file}`;
  };
  const styles = {} as Record<K, PageStyles>;
  for (const kind of kinds) {
    const [first, ...rest] = sheets[kind];
    if (first === undefined) throw new Error(`page kind "${kind}" lists no stylesheet`);
    const css = await minify(sheets[kind]);
    if (Buffer.byteLength(css) <= inlineLimit) {
      // Safe inside <style>: esbuild writes "</style" in strings as "<\/style".
      styles[kind] = { inline: css };
    } else {
      const links = [link(path.basename(first, '.css'), await minify([first]))];
      if (rest.length > 0) links.push(link(kind, await minify(rest)));
      styles[kind] = { links };
    }
  }
  return { files: [...files.values()], styles };
}
