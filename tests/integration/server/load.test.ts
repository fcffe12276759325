import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../../server/app';
import { openPostgresStore } from '../../../server/storage/postgres';
import { openSqliteStore } from '../../../server/storage/sqlite';
import { PROJECT_ROOT } from '../../support/content';
import { freePort } from '../../support/ports';
import { usePostgres } from '../../support/postgres';

const INCREMENTS = 5000;
const TOKEN = 'load-test-token';
const HEADERS = { cookie: `XSRF-TOKEN=${TOKEN}`, 'x-xsrf-token': TOKEN };

/** Sends `total` increments spread over the origins, all at once, each on its own request. */
async function increments(origins: string[], total: number): Promise<number[]> {
  return Promise.all(
    Array.from({ length: total }, (_, i) =>
      fetch(`${origins[i % origins.length]}/api/view_count/increment`, { method: 'POST', headers: HEADERS }).then(
        (r) => r.status,
      ),
    ),
  );
}

const count = async (origin: string) =>
  ((await (await fetch(`${origin}/api/view_count`)).json()) as { count: number }).count;

const pg = usePostgres();

describe(`${INCREMENTS} concurrent increments`, () => {
  // The SQLite store's folder, removed once the tests are done.
  let sqliteDir: string | undefined;
  afterAll(async () => {
    if (sqliteDir) await rm(sqliteDir, { recursive: true, force: true });
  });
  for (const [name, open] of [
    [
      'SQLite',
      async () => {
        sqliteDir = await mkdtemp(path.join(os.tmpdir(), 'site-load-'));
        return openSqliteStore(path.join(sqliteDir, 'site.db'));
      },
    ],
    ['PostgreSQL', async () => openPostgresStore(pg.url)],
  ] as const) {
    it(`are all counted on ${name}`, async () => {
      const store = await open();
      const app = await buildApp({
        distDir: inject('distDir'),
        store,
        rateLimit: { max: 100_000, timeWindow: 60_000 },
      });
      const origin = await app.listen({ port: 0, host: '127.0.0.1' });
      const before = await count(origin);
      const statuses = await increments([origin], INCREMENTS);
      expect(statuses.filter((s) => s !== 204)).toEqual([]);
      expect(await count(origin)).toBe(before + INCREMENTS);
      await app.close();
      await store.close();
    }, 120_000);
  }

  it('are all counted by two server processes sharing PostgreSQL', async () => {
    const ports = [await freePort(), await freePort()];
    const servers: ChildProcess[] = ports.map((port) =>
      spawn(
        'node',
        [path.join(PROJECT_ROOT, 'bin/site'), 'serve', '--dist', inject('distDir'), '--port', String(port)],
        {
          env: { ...process.env, DATABASE_URL: pg.url, SITE_RATE_LIMIT: '100000' },
          stdio: 'ignore',
        },
      ),
    );
    try {
      const origins = ports.map((p) => `http://127.0.0.1:${p}`);
      for (const origin of origins) {
        await expect
          .poll(
            () =>
              fetch(`${origin}/api/view_count`).then(
                (r) => r.status,
                () => 0,
              ),
            { timeout: 20_000, interval: 200 },
          )
          .toBe(200);
      }
      const before = await count(origins[0]!);
      const statuses = await increments(origins, INCREMENTS);
      expect(statuses.filter((s) => s !== 204)).toEqual([]);
      expect(await count(origins[0]!)).toBe(before + INCREMENTS);
      expect(await count(origins[1]!)).toBe(before + INCREMENTS);
    } finally {
      for (const server of servers) server.kill('SIGTERM');
    }
  }, 120_000);
});
