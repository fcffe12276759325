import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { openSqliteStore } from '../../../server/storage/sqlite';
import { PROJECT_ROOT } from '../../support/content';
import { freePort } from '../../support/ports';

const HEADERS = { cookie: 'XSRF-TOKEN=crash', 'x-xsrf-token': 'crash' };
const JSON_HEADERS = { ...HEADERS, 'content-type': 'application/json' };

function serve(db: string, port: number): ChildProcess {
  return spawn(
    'node',
    [path.join(PROJECT_ROOT, 'bin/site'), 'serve', '--dist', inject('distDir'), '--port', String(port), '--db', db],
    {
      env: { ...process.env, SITE_RATE_LIMIT: '100000' },
      stdio: 'ignore',
    },
  );
}

async function ready(origin: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(`${origin}/api/view_count`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the server did not start');
}

describe('a shutdown', () => {
  it('on SIGTERM exits cleanly, with the database closed', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'site-term-'));
    const db = path.join(dir, 'site.db');
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const server = serve(db, port);
    await ready(origin);
    expect((await fetch(`${origin}/api/view_count/increment`, { method: 'POST', headers: HEADERS })).status).toBe(204);
    server.kill('SIGTERM');
    const code = await new Promise((r) => server.once('exit', r));
    expect(code).toBe(0);
    // A cleanly closed SQLite database has folded its write-ahead log back into the file.
    const { existsSync } = await import('node:fs');
    expect(existsSync(`${db}-wal`)).toBe(false);
    await rm(dir, { recursive: true, force: true });
  }, 30_000);
});

describe('a crash', () => {
  it('loses no acknowledged write: SIGKILL in the middle of a stream of writes, then a restart', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'site-crash-'));
    const db = path.join(dir, 'site.db');
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const server = serve(db, port);
    await ready(origin);

    let acknowledgedIncrements = 0;
    const acknowledgedEmails: string[] = [];
    let stopped = false;
    const writer = async (id: number) => {
      for (let i = 0; !stopped; i++) {
        try {
          const increment = await fetch(`${origin}/api/view_count/increment`, { method: 'POST', headers: HEADERS });
          if (increment.status === 204) acknowledgedIncrements++;
          const email = `w${id}-${i}@example.com`;
          const subscribe = await fetch(`${origin}/api/newsletter`, {
            method: 'POST',
            headers: JSON_HEADERS,
            body: JSON.stringify({ email, language: 'pt' }),
          });
          if (subscribe.ok && ((await subscribe.json()) as { success: boolean }).success)
            acknowledgedEmails.push(email);
        } catch {
          return; // The server is gone.
        }
      }
    };
    const writers = Array.from({ length: 8 }, (_, id) => writer(id));
    await new Promise((r) => setTimeout(r, 800));
    server.kill('SIGKILL');
    stopped = true;
    await Promise.all(writers);
    expect(acknowledgedIncrements).toBeGreaterThan(50);

    const restarted = serve(db, port);
    try {
      await ready(origin);
      const { count } = (await (await fetch(`${origin}/api/view_count`)).json()) as { count: number };
      // Every acknowledged increment is there; at most the 8 in flight when it died may be too.
      expect(count).toBeGreaterThanOrEqual(acknowledgedIncrements);
      expect(count).toBeLessThanOrEqual(acknowledgedIncrements + 8);
    } finally {
      restarted.kill('SIGTERM');
      await new Promise((r) => restarted.once('exit', r));
    }
    const store = openSqliteStore(db);
    const stored = new Set((await store.newsletter.subscribers()).map((s) => s.email));
    await store.close();
    expect(acknowledgedEmails.filter((e) => !stored.has(e))).toEqual([]);
    await rm(dir, { recursive: true, force: true });
  }, 60_000);
});
