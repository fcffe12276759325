import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build as esbuild, transform } from 'esbuild';

/** The tool's own folder: templates and client code belong to the pipeline, not to a site's content. */
const TOOL_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A built file: where it goes under dist/ and its bytes. */
export interface OutputFile {
  /** Path under dist/, with forward slashes, no leading slash. */
  path: string;
  contents: string | Uint8Array;
}

export interface BuiltAssets {
  files: OutputFile[];
  /** Site URL of the stylesheet. */
  stylesheet: string;
  /** Site URL of the client bundle. */
  script: string;
}

function contentHash(contents: string | Uint8Array): string {
  return createHash('sha256').update(contents).digest('hex').slice(0, 10);
}

/** The client bundle (islands and React, minified) and the stylesheet, both content-hashed. */
export async function buildAssets(): Promise<BuiltAssets> {
  // Split so that code loaded on demand (the in-browser search) is its own chunk.
  const bundle = await esbuild({
    entryPoints: { client: path.join(TOOL_ROOT, 'src/client/main.tsx') },
    bundle: true,
    write: false,
    splitting: true,
    outdir: path.join(TOOL_ROOT, 'assets'),
    entryNames: '[name].[hash]',
    chunkNames: 'chunk.[hash]',
    publicPath: '/assets',
    format: 'esm',
    minify: true,
    target: ['es2020'],
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'none',
    logLevel: 'silent',
  });
  const scripts = bundle.outputFiles.map((f) => ({ path: `assets/${path.basename(f.path)}`, contents: f.contents }));
  const script = scripts.find((f) => path.basename(f.path).startsWith('client.'))?.path ?? 'assets/client.js';
  const css = (await transform(await readFile(path.join(TOOL_ROOT, 'templates/styles/site.css'), 'utf8'), { loader: 'css', minify: true })).code;
  const stylesheet = `assets/site.${contentHash(css)}.css`;
  return {
    files: [...scripts, { path: stylesheet, contents: css }],
    stylesheet: `/${stylesheet}`,
    script: `/${script}`,
  };
}
