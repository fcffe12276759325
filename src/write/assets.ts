import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build as esbuild, type Metafile } from 'esbuild';
import { PAGE_SHEETS } from '../../templates/styles/sheets';
import { digest } from '../load/digest';
import { listFiles } from '../load/files';
import type { PageProps, PageStyles } from '../shared/props';
import { buildStyles } from './styles';

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
  /** The CSS of each page kind: inlined, or linked content-hashed files. */
  styles: Record<PageProps['kind'], PageStyles>;
  /** Site URL of the client bundle. */
  script: string;
  /**
   * The scripts each script imports statically, by path under dist/ ("assets/client.X.js" ->
   * ["assets/chunk.Y.js"]), from esbuild's metafile: what a page that loads a script loads at start.
   * Dynamic imports (`import()`, the in-browser search) are left out.
   */
  scriptImports: Record<string, string[]>;
}

/** The folder of the stylesheets: inputs of the assets, not code (a change restyles pages without a restart). */
const STYLES_DIR = path.join(TOOL_ROOT, 'templates/styles');

/** A hash of every stylesheet, by name and content. */
export async function stylesheetsHash(): Promise<string> {
  const files = (await listFiles(STYLES_DIR)).filter((file) => file.endsWith('.css')).sort();
  return digest(...(await Promise.all(files.map(async (file) => [path.relative(STYLES_DIR, file), await readFile(file)] as const))).flat());
}

/**
 * The client bundle (islands and React, minified, content-hashed) and the CSS of each page kind,
 * so that a page carries only the styles its kind uses.
 */
export async function buildAssets(): Promise<BuiltAssets> {
  const [bundle, css] = await Promise.all([bundleClient(), buildStyles({ dir: STYLES_DIR, sheets: PAGE_SHEETS })]);
  const scripts = bundle.outputFiles.map((f) => ({ path: `assets/${path.basename(f.path)}`, contents: f.contents }));
  const script = scripts.find((f) => path.basename(f.path).startsWith('client.'))?.path ?? 'assets/client.js';
  return { files: [...scripts, ...css.files], styles: css.styles, script: `/${script}`, scriptImports: staticImports(bundle.metafile) };
}

/** The islands and React, minified; split so that code loaded on demand (the in-browser search) is its own chunk. */
function bundleClient() {
  return esbuild({
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
    metafile: true,
  });
}

/** The static import graph of the bundle's outputs, by path under dist/ (every output is written flat to assets/). */
function staticImports(metafile: Metafile): Record<string, string[]> {
  const asset = (output: string) => `assets/${path.basename(output)}`;
  return Object.fromEntries(
    Object.entries(metafile.outputs).map(([output, { imports }]) => [asset(output), imports.filter((i) => i.kind === 'import-statement' && !i.external).map((i) => asset(i.path))]),
  );
}
