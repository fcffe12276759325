import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PROJECT_ROOT } from '../support/content';

/**
 * Tools the benchmark compares against or drives (Eleventy, Lighthouse) are not dependencies of
 * the site: each is installed on first use into its own folder under node_modules/.cache, pinned,
 * and reused by later runs. Returns the folder whose node_modules holds the tool.
 */
export async function benchTool(spec: string, options: { overrides?: Record<string, string> } = {}): Promise<string> {
  const dir = path.join(PROJECT_ROOT, 'node_modules', '.cache', 'bench-tools', spec.replace(/[^a-zA-Z0-9.@-]+/g, '_'));
  const marker = path.join(dir, '.installed');
  if (existsSync(marker)) return dir;
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: 'bench-tool', private: true, ...(options.overrides ? { overrides: options.overrides } : {}) }, null, 2));
  process.stderr.write(`installing ${spec} for the benchmark (once)…\n`);
  const result = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', spec], { cwd: dir, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) throw new Error(`npm install ${spec} failed (exit ${result.status})`);
  await writeFile(marker, new Date().toISOString());
  return dir;
}
