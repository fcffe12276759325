import { execFile } from 'node:child_process';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll } from 'vitest';
import { freePort } from './ports';

const run = promisify(execFile);

export interface ThrowawayPostgres {
  url: string;
  stop(): Promise<void>;
}

/**
 * A PostgreSQL 15 cluster of its own in a temporary folder on a free loopback port, from the
 * installed binaries. PostgreSQL refuses to run as root, so as root it runs as the postgres user.
 */
export async function startPostgres(): Promise<ThrowawayPostgres> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'site-pg-'));
  const data = path.join(dir, 'data');
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  const as = async (command: string, args: string[]) => {
    if (asRoot) return run('runuser', ['-u', 'postgres', '--', command, ...args]);
    return run(command, args);
  };
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    await chown(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  await as('initdb', ['-D', data, '-U', 'site', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  await as('pg_ctl', [
    '-D',
    data,
    '-l',
    path.join(dir, 'log'),
    '-w',
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
    'start',
  ]);
  return {
    url: `postgres://site@127.0.0.1:${port}/postgres`,
    async stop() {
      await as('pg_ctl', ['-D', data, '-w', '-m', 'fast', 'stop']).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A throwaway cluster for the test file that calls this: started before its tests, stopped after.
 * Read `.url` inside tests (it is set once the cluster is up).
 */
export function usePostgres(): { url: string } {
  const handle = { url: '' };
  let cluster: ThrowawayPostgres | undefined;
  beforeAll(async () => {
    cluster = await startPostgres();
    handle.url = cluster.url;
  }, 60_000);
  afterAll(async () => {
    await cluster?.stop();
  });
  return handle;
}
