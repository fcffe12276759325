import { fileURLToPath } from 'node:url';

const ENTRY = fileURLToPath(new URL('./compileWorker.ts', import.meta.url));

/**
 * The markdown worker (compileWorker.ts and all it imports) as one CommonJS script, bundled by
 * esbuild in memory and started with `eval`. A worker started on the TypeScript source has to
 * register tsx, whose loader runs on a thread of its own with its own heap and transforms every
 * module again: with the markdown toolchain loaded, such a worker adds 84 MB to the process, the
 * bundled one 18 MB. Bundling takes about 0.2 s, once per session, and only for a build that
 * compiles enough texts to start workers.
 */
export async function compileWorkerCode(): Promise<string> {
  const { build } = await import('esbuild');
  const result = await build({ entryPoints: [ENTRY], bundle: true, platform: 'node', format: 'cjs', target: 'node20', write: false, logLevel: 'silent', legalComments: 'none' });
  const [file] = result.outputFiles;
  if (!file) throw new Error('esbuild produced no markdown worker');
  return file.text;
}
