import { readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { codeFile } from './codeCache';
import { TOOL_ROOT } from './fingerprint';

const ENTRY = fileURLToPath(new URL('./compileWorker.ts', import.meta.url));

/** Bundles of older code kept beside the current one: a command started on one may still load it. */
const KEEP = 3;
const BUNDLE = /^compiler-[\w-]+\.cjs$/;

/**
 * The markdown compiler (compileWorker.ts and all it imports, packages included) as one CommonJS
 * script, bundled by esbuild. The worker threads run it, and the build's own thread loads its
 * `compileTracked` to compile a few texts: one file loads several times faster than the
 * toolchain's hundreds of ES modules (docs/performance.md has the figures). A worker started on
 * the TypeScript source would have to register tsx, whose loader runs on a thread of its own with
 * its own heap and transforms every module again: with the markdown toolchain loaded, such a
 * worker adds several times the bundled one's memory to the process. Bundling is quick.
 */
export async function compileWorkerCode(): Promise<string> {
  const { build } = await import('esbuild');
  const result = await build({
    // Paths are taken from the tool's folder: the bundle is the same in every clone.
    absWorkingDir: TOOL_ROOT,
    entryPoints: [ENTRY],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    write: false,
    logLevel: 'silent',
    legalComments: 'none',
  });
  const [file] = result.outputFiles;
  if (!file) throw new Error('esbuild produced no markdown worker');
  return file.text;
}

/**
 * The compiler's bundle as a file of the build cache's folder `dir`, named by `key`: the
 * fingerprint of the code it is made from (the markdown compiler's import graph, and the
 * pipeline's, which holds this bundling). Made when no file has that name and `save` allows, and
 * older ones are removed but the last few; undefined when there is none to be had.
 */
export async function compilerFile(dir: string, key: string, save: boolean): Promise<string | undefined> {
  const file = path.join(dir, `compiler-${key}.cjs`);
  if (statSync(file, { throwIfNoEntry: false })?.isFile()) return file;
  if (!save) return undefined;
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, await compileWorkerCode());
    await rename(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  const older = readdirSync(dir)
    .filter((name) => BUNDLE.test(name) && name !== path.basename(file))
    .map((name) => ({ name, time: statSync(path.join(dir, name), { throwIfNoEntry: false })?.mtimeMs ?? 0 }))
    .sort((a, b) => b.time - a.time);
  for (const { name } of older.slice(KEEP)) {
    rmSync(path.join(dir, name), { force: true });
    rmSync(codeFile(path.join(dir, name)), { force: true });
  }
  return file;
}
