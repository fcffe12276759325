import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PROJECT_ROOT } from '../support/content';

/**
 * Tools the benchmark compares against or drives (Eleventy and its plugins, Lighthouse) are not
 * dependencies of the site: each set is installed on first use into its own folder under
 * node_modules/.cache, pinned, and reused by later runs. `specs` is one package or several that
 * work together (an engine and its plugins), each `name@version`. Returns the folder whose
 * node_modules holds them.
 */
export async function benchTool(
  specs: string | readonly string[],
  options: { overrides?: Record<string, string> } = {},
): Promise<string> {
  const list = typeof specs === 'string' ? [specs] : [...specs];
  const name = [...list, ...Object.entries(options.overrides ?? {}).map(([pkg, version]) => `${pkg}=${version}`)].join(
    '+',
  );
  const dir = path.join(
    PROJECT_ROOT,
    'node_modules',
    '.cache',
    'bench-tools',
    name.replace(/[^a-zA-Z0-9.@=+-]+/g, '_'),
  );
  const marker = path.join(dir, '.installed');
  if (existsSync(marker)) return dir;
  await mkdir(dir, { recursive: true });
  await writeFile(
    path.join(dir, 'package.json'),
    JSON.stringify(
      { name: 'bench-tool', private: true, ...(options.overrides ? { overrides: options.overrides } : {}) },
      null,
      2,
    ),
  );
  process.stderr.write(`installing ${list.join(', ')} for the benchmark (once)…\n`);
  const result = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--save-exact', ...list], {
    cwd: dir,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (result.status !== 0) throw new Error(`npm install ${list.join(' ')} failed (exit ${result.status})`);
  await writeFile(marker, new Date().toISOString());
  return dir;
}

/** The versions of packages as installed in a node_modules folder, read from their package.json. */
export async function versionsIn(nodeModules: string, names: readonly string[]): Promise<Record<string, string>> {
  const versions = await Promise.all(
    names.map(
      async (name) =>
        [
          name,
          (JSON.parse(await readFile(path.join(nodeModules, name, 'package.json'), 'utf8')) as { version: string })
            .version,
        ] as const,
    ),
  );
  return Object.fromEntries(versions);
}
