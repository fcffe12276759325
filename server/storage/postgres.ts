import pg from 'pg';
import { OperationalError, systemCode } from '../../src/diagnostics/failure';
import { newsletterStore } from '../newsletter/store';
import { doubleOptIn, MIGRATION_NOTES, type MigrationLog } from './migrations';
import type { Sql } from './sql';
import type { SiteStore } from './store';

const MIGRATIONS = [
  `CREATE TABLE view_count (id INTEGER PRIMARY KEY CHECK (id = 1), count BIGINT NOT NULL);
   INSERT INTO view_count (id, count) VALUES (1, 0);
   CREATE TABLE subscribers (
     email TEXT NOT NULL,
     email_key TEXT NOT NULL UNIQUE,
     lang TEXT NOT NULL CHECK (lang IN ('en', 'pt')),
     subscribed_at TIMESTAMPTZ NOT NULL DEFAULT now()
   );`,
  // The newsletter's double opt-in (issue 42), as in the SQLite store.
  doubleOptIn({ id: 'INTEGER GENERATED ALWAYS AS IDENTITY PRIMARY KEY', time: 'TIMESTAMPTZ' }),
];

/** Any constant: the advisory lock that lets one instance migrate while the others wait. */
const MIGRATION_LOCK = 727_001;

/**
 * How long a connection attempt may take (DNS, TCP, TLS, authentication) before the database is
 * reported unreachable: a firewall that drops packets would otherwise leave the start hanging.
 * PGCONNECT_TIMEOUT (seconds, as for libpq) changes it.
 */
function connectTimeoutMs(): number {
  const seconds = Number(process.env.PGCONNECT_TIMEOUT);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 5_000;
}

export interface PostgresOptions {
  /** The connection attempt's limit; PGCONNECT_TIMEOUT or 5 s by default. */
  connectTimeoutMs?: number;
  /** Where a migration says what it did to existing rows. */
  log?: MigrationLog;
}

/**
 * The shared store for several server instances: PostgreSQL through a connection pool.
 * Migrations run on open under an advisory lock, so instances starting together migrate once;
 * each runs in a transaction, so one that fails leaves the schema as it was. A database that
 * cannot be reached or migrated is an OperationalError, with the pool closed again (an open pool
 * would keep the process alive after the message).
 */
export async function openPostgresStore(connectionString: string, options: PostgresOptions = {}): Promise<SiteStore> {
  const where = describeDatabase(connectionString);
  const timeoutMs = options.connectTimeoutMs ?? connectTimeoutMs();
  let pool: pg.Pool;
  try {
    pool = new pg.Pool({ connectionString, max: 10, connectionTimeoutMillis: timeoutMs, application_name: 'site' });
  } catch (error) {
    throw notValidUrl(error);
  }
  // A connection that breaks while idle in the pool (the database restarted, a proxy dropped it)
  // is discarded by the pool, which then emits 'error'; unheard, that event would end the process.
  // The next query opens a new connection, and fails on its own if the database is still away.
  pool.on('error', () => undefined);
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw connectFailure(error, `cannot connect to PostgreSQL at ${where}`, timeoutMs);
  }
  try {
    await migrate(client, options.log ?? (() => undefined));
    client.release();
  } catch (error) {
    // The connection may be broken; it is not given back to the pool, which is closed.
    client.release(true);
    await pool.end().catch(() => undefined);
    throw error instanceof OperationalError
      ? error
      : connectFailure(error, `cannot prepare the schema in PostgreSQL at ${where}`, timeoutMs);
  }
  return {
    async incrementViews() {
      await pool.query('UPDATE view_count SET count = count + 1 WHERE id = 1');
    },
    async viewCount() {
      const { rows } = await pool.query<{ count: string }>('SELECT count FROM view_count WHERE id = 1');
      return Number(rows[0]?.count ?? 0);
    },
    newsletter: newsletterStore(sqlOn(pool)),
    async close() {
      if (!pool.ended && !pool.ending) await pool.end();
    },
  };
}

/**
 * Brings the schema to the last version, each migration in its own transaction with its version
 * number: one that fails is rolled back, the version stays that of the last one that succeeded,
 * and the error names the migration.
 */
async function migrate(client: pg.PoolClient, log: MigrationLog): Promise<void> {
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
  try {
    await client.query('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)');
    const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_version');
    let version = rows[0]?.version ?? 0;
    if (rows.length === 0) await client.query('INSERT INTO schema_version (version) VALUES (0)');
    for (; version < MIGRATIONS.length; version++) {
      await client.query('BEGIN');
      try {
        await client.query(MIGRATIONS[version]!);
        await client.query('UPDATE schema_version SET version = $1', [version + 1]);
        await client.query('COMMIT');
        const note = MIGRATION_NOTES[version + 1];
        // A database made now has nothing to say of rows that were there before.
        const kept = note ? Number((await client.query<{ n: string }>(note.count)).rows[0]?.n ?? 0) : 0;
        if (note && kept > 0) log(note.line(kept));
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        const sqlState = (error as { code?: unknown }).code;
        throw new OperationalError(
          `PostgreSQL migration ${version + 1} of ${MIGRATIONS.length} failed and was rolled back (the schema stays at version ${version}): ${firstLine(error)}${typeof sqlState === 'string' ? ` (${sqlState})` : ''}`,
          'Check that the database user may create tables and that no other application owns tables of the same names, then start again.',
          { cause: error },
        );
      }
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
  }
}

/** A value as the repository reads it: timestamps as ISO strings. */
function plain(value: unknown): string | number | null {
  if (value instanceof Date) return value.toISOString();
  if (value === null || value === undefined) return null;
  return typeof value === 'number' ? value : String(value);
}

/** The repository's SQL on the pool; PostgreSQL reads the `$n` placeholders itself. */
function sqlOn(pool: pg.Pool): Sql {
  return {
    async all(text, params = []) {
      const { rows } = await pool.query(text, params as unknown[]);
      return rows.map((row: Record<string, unknown>) =>
        Object.fromEntries(Object.entries(row).map(([k, v]) => [k, plain(v)])),
      );
    },
    async run(text, params = []) {
      return (await pool.query(text, params as unknown[])).rowCount ?? 0;
    },
  };
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}

/** host:port/database of a connection string, never its password; "DATABASE_URL" if it does not parse. */
export function describeDatabase(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    return `${url.hostname || 'localhost'}:${url.port || '5432'}${url.pathname.length > 1 ? url.pathname : ''}`;
  } catch {
    return 'DATABASE_URL';
  }
}

function notValidUrl(error: unknown): OperationalError {
  return new OperationalError(
    `DATABASE_URL is not a valid PostgreSQL connection string: ${firstLine(error)}`,
    'Write it as postgres://user:password@host:5432/database (percent-encode special characters in the password).',
    { cause: error },
  );
}

/** SQLSTATE codes of a refused connection (PostgreSQL's error codes, appendix A). */
const REFUSED: Record<string, { what: string; hint: string }> = {
  '28P01': { what: 'the password was not accepted', hint: 'Check the user name and password in DATABASE_URL.' },
  '28000': {
    what: 'the server does not accept this user from this machine',
    hint: "Check the user name in DATABASE_URL and the server's pg_hba.conf.",
  },
  '3D000': {
    what: 'the database does not exist',
    hint: 'Create it (createdb), or name an existing database in DATABASE_URL.',
  },
  '57P03': { what: 'the server is starting up or shutting down', hint: 'Wait a moment, then start again.' },
  '53300': {
    what: 'the server has too many connections',
    hint: "Raise the server's max_connections, or run fewer instances.",
  },
  '42501': {
    what: 'the user lacks a permission it needs',
    hint: 'Grant the user the right to create tables in the database, or use another user.',
  },
};

const UNREACHABLE: Record<string, { what: string; hint: string }> = {
  ECONNREFUSED: {
    what: 'the connection was refused',
    hint: 'Check that PostgreSQL is running and that the host and port in DATABASE_URL are right.',
  },
  ENOTFOUND: { what: 'the host name was not found', hint: 'Check the host name in DATABASE_URL.' },
  EAI_AGAIN: {
    what: 'the host name could not be looked up',
    hint: "Check the host name in DATABASE_URL and this machine's DNS.",
  },
  ETIMEDOUT: {
    what: 'the connection timed out',
    hint: 'Check that the database server is reachable from this machine (firewall, address).',
  },
  EHOSTUNREACH: {
    what: 'the host cannot be reached',
    hint: 'Check the host in DATABASE_URL and the network between the two machines.',
  },
  ENETUNREACH: {
    what: 'the network cannot be reached',
    hint: 'Check the host in DATABASE_URL and the network between the two machines.',
  },
  ECONNRESET: {
    what: 'the server closed the connection',
    hint: "Check that the port in DATABASE_URL is PostgreSQL's, and the server's log.",
  },
};

/** An OperationalError for a database that could not be reached or would not let us in. */
function connectFailure(error: unknown, action: string, timeoutMs: number): OperationalError {
  const code = systemCode(error);
  const message = firstLine(error);
  const known = (code && (REFUSED[code] ?? UNREACHABLE[code])) || undefined;
  if (known) return new OperationalError(`${action}: ${known.what} (${code})`, known.hint, { cause: error });
  if (/timeout/i.test(message)) {
    return new OperationalError(
      `${action}: no answer within ${timeoutMs / 1000} s`,
      'Check that the database server is running and reachable from this machine (firewall, address); PGCONNECT_TIMEOUT sets the wait in seconds.',
      { cause: error },
    );
  }
  if (/SSL|TLS|certificate/i.test(message))
    return new OperationalError(
      `${action}: ${message}`,
      'Check the sslmode in DATABASE_URL against what the server offers.',
      { cause: error },
    );
  if (/password|SASL|SCRAM/i.test(message))
    return new OperationalError(`${action}: ${message}`, 'Check the user name and password in DATABASE_URL.', {
      cause: error,
    });
  if (error instanceof TypeError || /Invalid URL|connection string/i.test(message)) return notValidUrl(error);
  return new OperationalError(
    `${action}: ${message}${code ? ` (${code})` : ''}`,
    'Check DATABASE_URL, and that PostgreSQL is running and reachable from this machine.',
    { cause: error },
  );
}
