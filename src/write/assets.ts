import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Metafile } from 'esbuild';
import { PAGE_SHEETS } from '../../templates/styles/sheets';
import { digest } from '../load/digest';
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

/** Scripts by path under the output folder, each with the scripts it imports. */
export type ScriptGraph = Readonly<Record<string, readonly string[]>>;

/**
 * How the build's scripts load one another (`BuiltAssets.scriptImports`, from esbuild's
 * metafile). A script in neither graph imports nothing. A chunk imported only on a reader's action
 * (the in-browser search) is reached by neither.
 */
export interface ScriptImports {
  /** What each script imports statically: loaded with it, at start. */
  static: ScriptGraph;
  /** What a page's script imports by itself once the page has loaded (`src/client/later.ts`). */
  afterLoad: ScriptGraph;
}

export interface BuiltAssets {
  files: OutputFile[];
  /** The CSS of each page kind: inlined, or linked content-hashed files. */
  styles: Record<PageProps['kind'], PageStyles>;
  /** Site URL of the client bundle. */
  script: string;
  /**
   * How the scripts load one another, by path under dist/ ("assets/client.X.js" ->
   * ["assets/chunk.Y.js"]), from esbuild's metafile: each script's static imports (loaded with
   * it), and the client's own `import()`s, which it makes once the page has loaded (React and the
   * islands, `src/client/later.ts`). The `import()`s of other chunks (the in-browser search) wait
   * for a reader's action and are left out.
   */
  scriptImports: ScriptImports;
}

/** The folder of the stylesheets: inputs of the assets, not code (a change restyles pages without a restart). */
const STYLES_DIR = path.join(TOOL_ROOT, 'templates/styles');

/**
 * A hash of the stylesheets the CSS build reads (`buildStyles` reads each page kind's sheets,
 * `PAGE_SHEETS`, and nothing else), by name and content, and of which kind reads which.
 */
export async function stylesheetsHash(): Promise<string> {
  const names = [...new Set(Object.values(PAGE_SHEETS).flat())].sort();
  const contents = await Promise.all(
    names.map(
      async (name) =>
        [name, await readFile(path.join(STYLES_DIR, name)).catch(() => Buffer.from('(missing)'))] as const,
    ),
  );
  return digest(JSON.stringify(PAGE_SHEETS), ...contents.flat());
}

/**
 * The client bundle (islands and React, minified, content-hashed) and the CSS of each page kind,
 * so that a page carries only the styles its kind uses.
 */
export async function buildAssets(): Promise<BuiltAssets> {
  const [bundle, css] = await Promise.all([bundleClient(), buildStyles({ dir: STYLES_DIR, sheets: PAGE_SHEETS })]);
  const scripts = bundle.outputFiles.map((f) => ({ path: `assets/${path.basename(f.path)}`, contents: f.contents }));
  const script = scripts.find((f) => path.basename(f.path).startsWith('client.'))?.path ?? 'assets/client.js';
  return {
    files: [...scripts, ...css.files],
    styles: css.styles,
    script: `/${script}`,
    scriptImports: scriptImports(bundle.metafile),
  };
}

/**
 * The client, minified and split: the page's script (`src/client/main.ts`, no framework), React
 * and the islands (loaded after the page), and the in-browser search (loaded on demand) are each
 * their own chunk. esbuild is loaded here, by a build that makes the assets: most builds find them
 * in the build cache.
 */
async function bundleClient() {
  const { build: esbuild } = await import('esbuild');
  return esbuild({
    // Paths are taken from the tool's folder, not from wherever the command was run: the chunks'
    // names and contents are the same in every clone (the build cache carries them, see store.ts).
    absWorkingDir: TOOL_ROOT,
    entryPoints: { client: path.join(TOOL_ROOT, 'src/client/main.ts') },
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

/** The import graphs of the bundle's outputs, by path under dist/ (every output is written flat to assets/). */
function scriptImports(metafile: Metafile): ScriptImports {
  const asset = (output: string) => `assets/${path.basename(output)}`;
  const outputs = Object.entries(metafile.outputs);
  const ofKind = (imports: Metafile['outputs'][string]['imports'], kind: 'import-statement' | 'dynamic-import') =>
    imports.filter((i) => i.kind === kind && !i.external).map((i) => asset(i.path));
  return {
    static: Object.fromEntries(
      outputs.map(([output, { imports }]) => [asset(output), ofKind(imports, 'import-statement')]),
    ),
    afterLoad: Object.fromEntries(
      outputs
        .filter(([, { entryPoint }]) => entryPoint !== undefined)
        .map(([output, { imports }]) => [asset(output), ofKind(imports, 'dynamic-import')]),
    ),
  };
}
