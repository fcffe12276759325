import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../support/content';
import { freePort } from '../support/ports';

export interface ServedSite {
  origin: string;
  stop: () => Promise<void>;
}

/** `site serve` over a built site on a free loopback port, with a throwaway database. */
export async function serveSite(root: string, distDir = path.join(root, 'dist')): Promise<ServedSite> {
  const port = await freePort();
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'bench-serve-'));
  const server = spawn(
    process.execPath,
    [
      path.join(PROJECT_ROOT, 'bin', 'site'),
      '--root',
      root,
      'serve',
      '--port',
      String(port),
      '--dist',
      distDir,
      '--db',
      path.join(scratch, 'bench.db'),
    ],
    {
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const origin = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('close', resolve));
    }
    await rm(scratch, { recursive: true, force: true });
  };
  try {
    await waitForServer(`${origin}/aboutme`, server);
  } catch (error) {
    await stop();
    throw error;
  }
  return { origin, stop };
}

async function waitForServer(url: string, server: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    if (server.exitCode !== null) throw new Error(`site serve exited with ${server.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`site serve did not answer at ${url}`);
}
