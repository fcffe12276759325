#!/usr/bin/env node
// `npm test`: the whole suite, in the order a failure is cheapest to read. Installs Debian's
// Chromium for the browser tests when it is missing (CI machines start without it).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function run(title, command, args, env = {}) {
  console.log(`\n▶ ${title}`);
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) {
    console.error(`✗ ${title} failed`);
    process.exit(result.status ?? 1);
  }
}

if (!existsSync(CHROMIUM)) {
  run('install Chromium (Debian package)', 'sh', ['-c', 'apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium']);
}

run('type check', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']);
run('site check --strict on the real content', 'node', ['bin/site', 'check', '--strict']);
run('site build of the real content', 'node', ['bin/site', 'build']);
run('unit, integration and browser tests', 'npx', ['vitest', 'run'], { NO_COLOR: '1', CHROMIUM_PATH: CHROMIUM });
