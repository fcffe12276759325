#!/usr/bin/env node
// `npm test`: the whole suite, in the order a failure is cheapest to read: style and lint, the type
// check of each source root, the unit tests (no build), the checker and the build of the real
// content, then the integration, browser and PostgreSQL tests against that build. Installs Debian's
// Chromium for the browser tests when it is missing (CI machines start without it).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The source roots, each type-checked with its own settings (see the tsconfig.*.json files). */
const ROOTS = ['shared', 'client', 'node', 'browser-tests'];

function run(title, command, args, env = {}) {
  console.log(`\n▶ ${title}`);
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) {
    console.error(`✗ ${title} failed`);
    process.exit(result.status ?? 1);
  }
}

run('format and lint (biome ci; npm run format rewrites)', 'npx', ['biome', 'ci', '.']);
for (const root of ROOTS)
  run(`type check: ${root} (tsconfig.${root}.json)`, 'npx', ['tsc', '-b', `tsconfig.${root}.json`]);
run('unit tests', 'npx', ['vitest', 'run', '--project', 'unit'], { NO_COLOR: '1' });
run('site check --strict on the real content', 'node', ['bin/site', 'check', '--strict']);
run('site build of the real content', 'node', ['bin/site', 'build']);
if (!existsSync(CHROMIUM)) {
  run('install Chromium (Debian package)', 'sh', [
    '-c',
    'apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium',
  ]);
}
run('integration, browser and PostgreSQL tests', 'npx', ['vitest', 'run', '--project', 'integration'], {
  NO_COLOR: '1',
  CHROMIUM_PATH: CHROMIUM,
});
