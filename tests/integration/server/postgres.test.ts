import { createServer, type Server, type Socket } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openPostgresStore } from '../../../server/storage/postgres';
import { OperationalError } from '../../../src/diagnostics/failure';
import { site } from '../../support/cli';
import { freePort } from '../../support/ports';
import { usePostgres } from '../../support/postgres';

const cluster = usePostgres();

/** The cluster's URL for another database of it. */
const urlOf = (database: string) => cluster.url.replace(/\/[^/]*$/, `/${database}`);

/** One query on its own connection (not the store's pool). */
async function query<R extends pg.QueryResultRow>(
  database: string,
  text: string,
  values: unknown[] = [],
): Promise<R[]> {
  const client = new pg.Client({ connectionString: urlOf(database) });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

let databases = 0;
/** A fresh, empty database in the cluster. */
async function freshDatabase(): Promise<string> {
  const name = `t${++databases}`;
  await query('postgres', `CREATE DATABASE ${name}`);
  return name;
}

/** The store's connections to a database (the pool names itself "site"). */
async function storeConnections(database: string): Promise<number> {
  const rows = await query<{ n: string }>(
    'postgres',
    "SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'site' AND datname = $1",
    [database],
  );
  return Number(rows[0]!.n);
}

/** Waits for the server side to see the connections gone (a backend exits a moment after its client). */
async function connectionsAfterAWhile(database: string): Promise<number> {
  let n = await storeConnections(database);
  for (let i = 0; i < 40 && n > 0; i++) {
    await new Promise((r) => setTimeout(r, 50));
    n = await storeConnections(database);
  }
  return n;
}

async function rejection(promise: Promise<unknown>): Promise<OperationalError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OperationalError);
  return error as OperationalError;
}

describe('PostgreSQL migrations', () => {
  it('roll back a migration that fails, keep the schema version, name the migration, and close the pool', async () => {
    const database = await freshDatabase();
    // Another application's table of the same name: the first migration creates view_count, then fails on subscribers.
    await query(database, 'CREATE TABLE subscribers (someone_else INTEGER)');
    const error = await rejection(openPostgresStore(urlOf(database)));
    expect(error.message).toMatch(
      /^PostgreSQL migration 1 of 2 failed and was rolled back \(the schema stays at version 0\): relation "subscribers" already exists \(42P07\)$/,
    );
    expect(error.hint).toMatch(/tables of the same names/);
    expect(await query(database, 'SELECT version FROM schema_version')).toEqual([{ version: 0 }]);
    // Rolled back: the table the migration made before failing is gone again.
    expect(await query(database, "SELECT to_regclass('view_count') AS t")).toEqual([{ t: null }]);
    expect(
      await query(database, "SELECT column_name FROM information_schema.columns WHERE table_name = 'subscribers'"),
    ).toEqual([{ column_name: 'someone_else' }]);
    // The migration lock is released and no connection is left open.
    expect(await query(database, "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory'")).toEqual([
      { n: 0 },
    ]);
    expect(await connectionsAfterAWhile(database)).toBe(0);

    // With the clash removed, the next start migrates.
    await query(database, 'DROP TABLE subscribers');
    const store = await openPostgresStore(urlOf(database));
    expect(await store.viewCount()).toBe(0);
    await store.close();
    expect(await query(database, 'SELECT version FROM schema_version')).toEqual([{ version: 2 }]);
  });

  it('site newsletter export ends at once with one line naming the migration, not a stack trace', async () => {
    const database = await freshDatabase();
    await query(database, 'CREATE TABLE view_count (id INTEGER)');
    const started = Date.now();
    const result = await site(['newsletter', 'export'], { DATABASE_URL: urlOf(database) });
    expect(result.code).toBe(1);
    // An open pool would keep the process alive for its idle timeout (10 s) after the message.
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(result.stderr).toMatch(
      /^✗ PostgreSQL migration 1 of 2 failed and was rolled back \(the schema stays at version 0\): relation "view_count" already exists \(42P07\)\n {2}\S/,
    );
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(result.stdout).toBe('');
  });
});

describe('the PostgreSQL pool', () => {
  it('is ended by close(): no connection stays open, and the store answers no more', async () => {
    const database = await freshDatabase();
    const store = await openPostgresStore(urlOf(database));
    // Several queries at once open several connections.
    await Promise.all(Array.from({ length: 6 }, () => store.incrementViews()));
    expect(await store.viewCount()).toBe(6);
    expect(await storeConnections(database)).toBeGreaterThan(1);
    await store.close();
    expect(await connectionsAfterAWhile(database)).toBe(0);
    await expect(store.viewCount()).rejects.toThrow();
    // Closing twice (SIGTERM during a failed start) is not an error.
    await store.close();
  });

  it('survives a connection the database drops while it is idle in the pool', async () => {
    const database = await freshDatabase();
    const store = await openPostgresStore(urlOf(database));
    await store.incrementViews();
    // What a database restart or a proxy's idle timeout does to the pool's idle connection; an
    // unheard 'error' event from the pool would end the process.
    const terminated = await query(
      'postgres',
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'site' AND datname = $1",
      [database],
    );
    expect(terminated.length).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 200));
    expect(await store.viewCount()).toBe(1);
    await store.close();
  });
});

describe('site serve on PostgreSQL', () => {
  it('closes the pool and exits at once when the port is in use', async () => {
    const database = await freshDatabase();
    const held = createServer();
    await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
    const port = (held.address() as { port: number }).port;
    try {
      const started = Date.now();
      const result = await site(['serve', '--dist', inject('distDir'), '--port', String(port)], {
        DATABASE_URL: urlOf(database),
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        `✗ cannot listen on 127.0.0.1:${port}: port ${port} is already in use (EADDRINUSE)`,
      );
      // The migration's connection stays idle in the pool; unclosed, it would hold the process for 10 s.
      expect(Date.now() - started).toBeLessThan(8_000);
    } finally {
      held.close();
    }
  });
});

describe('a PostgreSQL that cannot be reached', () => {
  let silent: Server;
  let silentPort: number;
  const sockets = new Set<Socket>();
  beforeAll(async () => {
    // Accepts the connection and never answers, as a firewall that drops packets looks.
    silent = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentPort = (silent.address() as { port: number }).port;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  it('is an OperationalError saying what failed, without the password', async () => {
    const refused = await freePort();
    const port = new URL(cluster.url).port;
    const cases: [string, string, RegExp][] = [
      [
        'refused',
        `postgres://site:secret@127.0.0.1:${refused}/site`,
        new RegExp(
          `^cannot connect to PostgreSQL at 127\\.0\\.0\\.1:${refused}/site: the connection was refused \\(ECONNREFUSED\\)$`,
        ),
      ],
      [
        'unknown host',
        'postgres://site:secret@no-such-host.invalid:5432/site',
        /^cannot connect to PostgreSQL at no-such-host\.invalid:5432\/site: the host name was not found \(ENOTFOUND\)$/,
      ],
      [
        'unknown database',
        `postgres://site:secret@127.0.0.1:${port}/nothing_here`,
        /: the database does not exist \(3D000\)$/,
      ],
      [
        'unknown user',
        `postgres://nobody:secret@127.0.0.1:${port}/postgres`,
        /: the server does not accept this user from this machine \(28000\)$/,
      ],
      [
        'not a URL',
        'postgres://site:secret@127.0.0.1:notaport/site',
        /^DATABASE_URL is not a valid PostgreSQL connection string/,
      ],
    ];
    for (const [name, url, message] of cases) {
      const error = await rejection(openPostgresStore(url, { connectTimeoutMs: 2_000 }));
      expect(error.message, name).toMatch(message);
      expect(error.message, name).not.toContain('secret');
      expect(error.hint, name).toMatch(/\S/);
    }
  });

  it('times out instead of hanging when the server never answers', async () => {
    const started = Date.now();
    const error = await rejection(
      openPostgresStore(`postgres://site@127.0.0.1:${silentPort}/site`, { connectTimeoutMs: 500 }),
    );
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(error.message).toBe(`cannot connect to PostgreSQL at 127.0.0.1:${silentPort}/site: no answer within 0.5 s`);
    expect(error.hint).toContain('PGCONNECT_TIMEOUT');
  });

  it('ends site newsletter export with one line within the connect timeout', async () => {
    const started = Date.now();
    const result = await site(['newsletter', 'export'], {
      DATABASE_URL: `postgres://site@127.0.0.1:${silentPort}/site`,
      PGCONNECT_TIMEOUT: '1',
    });
    expect(Date.now() - started).toBeLessThan(6_000);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(
        `^✗ cannot connect to PostgreSQL at 127\\.0\\.0\\.1:${silentPort}/site: no answer within 1 s\\n {2}\\S[^\\n]*\\n$`,
      ),
    );
  });
});
