import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Metafile } from 'esbuild';
import { digest } from '../load/digest';

/** The tool's own folder, where its source, templates and lockfile live. */
export const TOOL_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Bumped when the layout of cached entries changes, so old caches are never misread. */
const CACHE_FORMAT = 3;

/**
 * Each kind of cached work, named by the modules that do it (paths from the tool's root). The code
 * a kind depends on is not listed anywhere: it is every file those modules import, however
 * indirectly (dynamic imports included), as esbuild resolves them (`codeGraph`). A module that
 * starts another by its path rather than by an import (a worker thread, a child process) is an
 * entry of its own.
 */
export const WORK = {
  /** Article files parsed and their front matter validated (`readArticle`), and the form the cache keeps them in. */
  load: ['src/load/articles.ts', 'src/build/packedPrints.ts'],
  /** Markdown bodies compiled, in this thread or on the markdown workers, and the form the cache keeps them in. */
  markdown: ['src/build/compileEdition.ts', 'src/build/compileWorker.ts', 'src/build/packedFacts.ts'],
  /** Image variants: their names and sizes, and the encoder's child process. */
  images: ['src/images/variants.ts', 'src/images/encoder.ts'],
  /** Everything else the build makes (pages, checks, indexes, feeds): the whole build. */
  pipeline: ['src/build/pipeline.ts', 'src/write/compressWorker.mjs'],
  /** The client bundle: the code that bundles it and the browser's entry, with all it imports. */
  assets: ['src/write/assets.ts', 'src/client/main.ts'],
  /** Share cards: the thread that draws them, with the card's template, satori, sharp and the fonts it reads. */
  cards: ['src/cards/drawWorker.ts'],
} as const satisfies Record<string, readonly string[]>;

export type WorkKind = keyof typeof WORK;

/** The fingerprint of each kind's code. */
export type Codes = Record<WorkKind, string>;

/** The tool's code as the build reads it: which files each kind reaches, and each file's hash. */
export interface CodeGraph {
  /** The files each kind's modules reach, entries included (paths from the tool's root, sorted). */
  reach: Record<WorkKind, readonly string[]>;
  /** Every reached file's content hash, and the lockfile's (dependencies change output as surely as our code). */
  hashes: Record<string, string>;
}

/** The code graph as a session worked it out, and the files that changed since the one kept before it. */
export interface CodeState {
  codes: Codes;
  /** Files whose content differs from the graph kept in the build cache (new or gone included), for `--explain`. */
  changed: readonly string[];
}

const LOCKFILE = 'package-lock.json';
/**
 * What shapes every kind's code without being imported: the dependencies' versions, and how imports
 * resolve and compile.
 */
const SETTINGS = [LOCKFILE, 'tsconfig.json'];

/**
 * The fingerprint of each kind of work's code. The graph kept in `cacheFile` (when given) is used
 * while every file in it has the same content; otherwise esbuild walks the imports again, and the
 * new graph is kept when `save` allows.
 */
export async function codeState(cacheFile: string | undefined, save: boolean, tool = TOOL_ROOT): Promise<CodeState> {
  const kept = cacheFile ? await readGraph(cacheFile, tool) : undefined;
  let graph = kept && (await stillHolds(kept, tool)) ? kept : undefined;
  let changed: string[] = [];
  if (!graph) {
    graph = await codeGraph(tool);
    if (kept) changed = changedFiles(kept.hashes, graph.hashes);
    if (cacheFile && save) await writeGraph(cacheFile, graph, tool);
  }
  const codes = {} as Codes;
  for (const kind of Object.keys(WORK) as WorkKind[]) codes[kind] = fingerprintOf(graph, kind);
  return { codes, changed };
}

/** A hash of one kind's code: each file it reaches, by path and content, and the lockfile. */
export function fingerprintOf(graph: CodeGraph, kind: WorkKind): string {
  const files = [...graph.reach[kind], ...SETTINGS];
  return digest(`format ${CACHE_FORMAT}`, kind, ...files.flatMap((file) => [file, graph.hashes[file] ?? '(missing)']));
}

/** The import graph of every kind's modules in the tool at `tool`, from esbuild's metafile, with each file's hash. */
export async function codeGraph(tool = TOOL_ROOT): Promise<CodeGraph> {
  const kinds = Object.keys(WORK) as WorkKind[];
  const entries = [...new Set(kinds.flatMap((kind) => WORK[kind]))];
  // Loaded only to walk the graph again: a command whose code is unchanged finds it in code.json.
  const { build } = await import('esbuild');
  const result = await build({
    absWorkingDir: tool,
    entryPoints: Object.fromEntries(entries.map((entry, i) => [`entry${i}`, path.join(tool, entry)])),
    outdir: path.join(tool, '.cache', 'code-graph'),
    bundle: true,
    // Each entry's output then holds every module it reaches, those of its `import()`s included.
    splitting: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    tsconfig: path.join(tool, 'tsconfig.json'),
    write: false,
    metafile: true,
    // Every module imported counts, used or not: a module left out as unused today is no longer
    // unused once an edit gives it a side effect, and that edit must be seen.
    treeShaking: false,
    logLevel: 'silent',
  }).catch((error: unknown) => {
    // A file that does not compile is reported where it is (esbuild names it from `tool`): the
    // owner reads the same line as when the command itself fails to load it.
    for (const problem of (error as { errors?: { location?: { file: string } | null }[] }).errors ?? []) {
      if (problem.location) problem.location.file = path.resolve(tool, problem.location.file);
    }
    throw error;
  });
  const reachOf = reachByEntry(result.metafile, tool);
  const reach = {} as Record<WorkKind, readonly string[]>;
  for (const kind of kinds) reach[kind] = [...new Set(WORK[kind].flatMap((entry) => reachOf.get(entry) ?? []))].sort();
  const files = [...new Set([...Object.values(reach).flat(), ...SETTINGS])];
  const hashes = Object.fromEntries(
    await Promise.all(files.map(async (file) => [file, await hashOf(file, tool)] as const)),
  );
  return { reach, hashes };
}

/** The files each entry's output was made from, by entry (paths from the tool's root). */
function reachByEntry(metafile: Metafile, tool: string): Map<string, string[]> {
  const reach = new Map<string, string[]>();
  const own = (file: string) => path.relative(tool, path.resolve(tool, file)).split(path.sep).join('/');
  for (const output of Object.values(metafile.outputs)) {
    if (!output.entryPoint) continue;
    reach.set(own(output.entryPoint), Object.keys(output.inputs).map(own));
  }
  return reach;
}

/** The names of the files whose hashes differ between two graphs. */
export function changedFiles(before: Record<string, string>, after: Record<string, string>): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names]
    .filter((name) => before[name] !== after[name])
    .map((name) => (!(name in before) ? `${name} (new)` : !(name in after) ? `${name} (gone)` : name))
    .sort();
}

async function hashOf(file: string, tool: string): Promise<string> {
  return readFile(path.join(tool, file)).then(
    (bytes) => digest(bytes),
    () => '(missing)',
  );
}

/** Whether every file of a kept graph still has its content: then no import can have changed either. */
async function stillHolds(graph: CodeGraph, tool: string): Promise<boolean> {
  const files = Object.entries(graph.hashes);
  const now = await Promise.all(files.map(([file]) => hashOf(file, tool)));
  return files.every(([, hash], i) => now[i] === hash);
}

interface KeptGraph extends CodeGraph {
  format: number;
  tool: string;
  work: typeof WORK;
}

async function readGraph(file: string, tool: string): Promise<CodeGraph | undefined> {
  try {
    const kept = JSON.parse(await readFile(file, 'utf8')) as KeptGraph;
    // Another tool folder, or other entries: the graph says nothing of this one.
    if (kept.format !== CACHE_FORMAT || kept.tool !== tool || JSON.stringify(kept.work) !== JSON.stringify(WORK))
      return undefined;
    return { reach: kept.reach, hashes: kept.hashes };
  } catch {
    return undefined;
  }
}

async function writeGraph(file: string, graph: CodeGraph, tool: string): Promise<void> {
  const kept: KeptGraph = { format: CACHE_FORMAT, tool, work: WORK, ...graph };
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, JSON.stringify(kept));
    await rename(temporary, file);
  } catch {
    // A folder that cannot be written: the graph is worked out again next time.
  }
}

export { digest } from '../load/digest';
