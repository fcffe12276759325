// Loads a TypeScript entry of the tool (the `site` command, site dev's build thread) as JavaScript
// bundled by esbuild, and keeps the bundle in .cache/cli/ until a file in it changes.
//
// Why: tsx's loader runs on a thread of its own, and every module (zod alone is dozens of them)
// goes there and back to be resolved and loaded, so a warm `site build` spent a large share of its
// time before its first line of work (docs/performance.md has the figures). The bundle holds our
// own code only: packages are imported as Node imports them, and a command's modules still load
// when it runs (the bundle is split at each dynamic import).
//
// The bundle is used only while every file it was made from is unchanged (compared by content),
// so an edit of a template or of the pipeline is seen at the next command, as under tsx. When no
// bundle can be made or kept (a syntax error being written, a read-only folder), the entry is
// loaded through tsx as before: the error is then reported exactly where it always was.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const TOOL_ROOT = fileURLToPath(new URL('../', import.meta.url));
const CACHE = path.join(TOOL_ROOT, '.cache', 'cli');
/** Bundles kept besides the newest: a command started on an older one may still load its later chunks. */
const KEEP = 8;
/** Files that shape every bundle without being in it. */
const SETTINGS = ['bin/launch.mjs', 'tsconfig.json', 'package-lock.json'];
/**
 * Packages bundled into the command rather than imported: ES modules of many small files, each a
 * round of resolving, reading and compiling at every start (zod is dozens of them, image-size one
 * for each image format it reads). Only packages of plain ES modules belong here: one that
 * requires at run time what the bundle cannot see breaks in it. Their files are not hashed at each
 * start: package-lock.json, one of SETTINGS, pins them.
 */
const BUNDLED = new Set(['zod', 'image-size']);
const LOADERS = {
  '.ts': 'ts',
  '.mts': 'ts',
  '.cts': 'ts',
  '.tsx': 'tsx',
  '.js': 'js',
  '.mjs': 'js',
  '.cjs': 'js',
  '.jsx': 'jsx',
  '.json': 'json',
};

/**
 * Imports `entry` (a path from the tool's root, such as `src/cli/main.ts`) from its bundle, made
 * first if needed, or through tsx when no bundle can be had.
 * @param {string} entry
 */
export async function launch(entry) {
  if (process.env.SITE_BUNDLE !== '0') {
    const main = keptBundle(entry) ?? (await newBundle(entry).catch(() => undefined));
    if (main) return import(pathToFileURL(main).href);
  }
  const { register } = await import('tsx/esm/api');
  register({ tsconfig: path.join(TOOL_ROOT, 'tsconfig.json') });
  return import(pathToFileURL(path.join(TOOL_ROOT, entry)).href);
}

/** @param {string} entry */
function manifestFile(entry) {
  return path.join(CACHE, `${entry.replace(/[^\w.-]+/g, '_')}.json`);
}

/** @param {string | Buffer} bytes */
function hashOf(bytes) {
  return createHash('sha1').update(bytes).digest('base64url');
}

/** @param {string} file */
function hashOfFile(file) {
  try {
    return hashOf(readFileSync(path.join(TOOL_ROOT, file)));
  } catch {
    return 'missing';
  }
}

/**
 * The bundle's main file when its manifest says it was made from the files as they are now, in
 * this very folder (it holds its paths), and all its files are there; undefined otherwise.
 * @param {string} entry
 */
function keptBundle(entry) {
  try {
    /** @type {{ root: string, dir: string, inputs: Record<string, string>, outputs: string[] }} */
    const manifest = JSON.parse(readFileSync(manifestFile(entry), 'utf8'));
    if (manifest.root !== TOOL_ROOT) return undefined;
    for (const [file, hash] of Object.entries(manifest.inputs)) if (hashOfFile(file) !== hash) return undefined;
    const dir = path.join(CACHE, manifest.dir);
    if (!manifest.outputs.every((file) => existsSync(path.join(dir, file)))) return undefined;
    return path.join(dir, 'main.mjs');
  } catch {
    return undefined;
  }
}

/**
 * Bundles `entry` into a folder named by the contents it was made from, and records them in its
 * manifest. Each file is hashed as esbuild reads it, so an edit made during bundling makes the
 * next command bundle again rather than trust a bundle of the older text.
 * @param {string} entry
 */
async function newBundle(entry) {
  const { build } = await import('esbuild');
  /** @type {Record<string, string>} */
  const inputs = {};
  for (const file of SETTINGS) inputs[file] = hashOfFile(file);
  /** @type {import('esbuild').Plugin} */
  const packages = {
    name: 'packages',
    setup(builder) {
      // A bare name is a package (or a built-in module): imported as Node imports it, unless BUNDLED.
      builder.onResolve({ filter: /^[^./]/ }, (args) => {
        const parts = args.path.split('/');
        const name = args.path.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
        return BUNDLED.has(name) ? undefined : { external: true };
      });
    },
  };
  /** @type {import('esbuild').Plugin} */
  const zodLocales = {
    name: 'zod-locales',
    setup(builder) {
      builder.onResolve({ filter: /locales\/index\.js$/ }, (args) =>
        args.importer.includes(`${path.sep}zod${path.sep}`)
          ? { path: 'zod-locales', namespace: 'zod-locales' }
          : undefined,
      );
      builder.onLoad({ filter: /.*/, namespace: 'zod-locales' }, () => ({ contents: 'export {};', loader: 'js' }));
    },
  };
  /** @type {import('esbuild').Plugin} */
  const ownFiles = {
    name: 'own-files',
    setup(builder) {
      builder.onLoad({ filter: /.*/ }, (args) => {
        const loader = LOADERS[/** @type {keyof typeof LOADERS} */ (path.extname(args.path))];
        if (!loader) return undefined;
        const text = readFileSync(args.path, 'utf8');
        const file = path.relative(TOOL_ROOT, args.path);
        if (!file.split(path.sep).includes('node_modules')) inputs[file] = hashOf(text);
        // Each module keeps its own URL, which the code uses to find files beside it.
        return { contents: text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)), loader };
      });
    },
  };
  mkdirSync(CACHE, { recursive: true });
  const scratch = path.join(CACHE, `.new-${process.pid}-${Date.now().toString(36)}`);
  try {
    const result = await build({
      absWorkingDir: TOOL_ROOT,
      entryPoints: { main: path.join(TOOL_ROOT, entry) },
      outdir: scratch,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      tsconfig: path.join(TOOL_ROOT, 'tsconfig.json'),
      // Read only when source maps are on (bin/site turns them on under --verbose and DEBUG).
      sourcemap: 'linked',
      metafile: true,
      logLevel: 'silent',
      plugins: [packages, zodLocales, ownFiles],
    });
    const outputs = Object.keys(result.metafile.outputs).map((file) =>
      path.relative(scratch, path.join(TOOL_ROOT, file)),
    );
    const sorted = Object.fromEntries(Object.entries(inputs).sort(([a], [b]) => a.localeCompare(b)));
    // The bundle holds the tool's own paths (import.meta.url): a copy of .cache/ in another clone is not its bundle.
    const name = hashOf(JSON.stringify({ root: TOOL_ROOT, inputs: sorted }));
    const dir = path.join(CACHE, name);
    try {
      renameSync(scratch, dir);
    } catch (error) {
      // Another command made the same bundle meanwhile: the one in place is kept.
      if (!existsSync(dir)) throw error;
      rmSync(scratch, { recursive: true, force: true });
    }
    const manifest = manifestFile(entry);
    writeFileSync(
      `${manifest}.${process.pid}`,
      JSON.stringify({ root: TOOL_ROOT, dir: name, inputs: sorted, outputs }),
    );
    renameSync(`${manifest}.${process.pid}`, manifest);
    try {
      prune(name);
    } catch {
      // Another command is pruning too: what is left is pruned next time.
    }
    return path.join(dir, 'main.mjs');
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Removes all but the newest bundles, and folders left by a command that stopped while bundling.
 * @param {string} current
 */
function prune(current) {
  const folders = readdirSync(CACHE, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== current)
    .map((entry) => ({ name: entry.name, time: statSync(path.join(CACHE, entry.name)).mtimeMs }))
    .sort((a, b) => b.time - a.time);
  const hour = Date.now() - 3_600_000;
  for (const [index, folder] of folders.entries()) {
    const unfinished = folder.name.startsWith('.new-');
    if (unfinished ? folder.time < hour : index >= KEEP)
      rmSync(path.join(CACHE, folder.name), { recursive: true, force: true });
  }
}
