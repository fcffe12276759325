import pg from 'pg';
import type { Lang } from '../../src/shared/lang';
import type { SiteStore, Subscriber } from './store';

const MIGRATIONS = [
  `CREATE TABLE view_count (id INTEGER PRIMARY KEY CHECK (id = 1), count BIGINT NOT NULL);
   INSERT INTO view_count (id, count) VALUES (1, 0);
   CREATE TABLE subscribers (
     email TEXT NOT NULL,
     email_key TEXT NOT NULL UNIQUE,
     lang TEXT NOT NULL CHECK (lang IN ('en', 'pt')),
     subscribed_at TIMESTAMPTZ NOT NULL DEFAULT now()
   );`,
];

/** Any constant: the advisory lock that lets one instance migrate while the others wait. */
const MIGRATION_LOCK = 727_001;

/**
 * The shared store for several server instances: PostgreSQL through a connection pool.
 * Migrations run on open under an advisory lock, so instances starting together migrate once.
 */
export async function openPostgresStore(connectionString: string): Promise<SiteStore> {
  const pool = new pg.Pool({ connectionString, max: 10 });
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)');
    const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_version');
    let version = rows[0]?.version ?? 0;
    if (rows.length === 0) await client.query('INSERT INTO schema_version (version) VALUES (0)');
    for (; version < MIGRATIONS.length; version++) {
      await client.query('BEGIN');
      await client.query(MIGRATIONS[version]!);
      await client.query('UPDATE schema_version SET version = $1', [version + 1]);
      await client.query('COMMIT');
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    client.release();
  }
  return {
    async incrementViews() {
      await pool.query('UPDATE view_count SET count = count + 1 WHERE id = 1');
    },
    async viewCount() {
      const { rows } = await pool.query<{ count: string }>('SELECT count FROM view_count WHERE id = 1');
      return Number(rows[0]?.count ?? 0);
    },
    async subscribe(email: string, lang: Lang) {
      const { rowCount } = await pool.query(
        'INSERT INTO subscribers (email, email_key, lang) VALUES ($1, $2, $3) ON CONFLICT (email_key) DO NOTHING',
        [email, email.toLowerCase(), lang],
      );
      return rowCount === 1 ? 'subscribed' : 'already';
    },
    async subscribers() {
      const { rows } = await pool.query<{ email: string; lang: Lang; subscribed_at: Date }>(
        'SELECT email, lang, subscribed_at FROM subscribers ORDER BY subscribed_at, email',
      );
      return rows.map((r) => ({ email: r.email, lang: r.lang, subscribedAt: r.subscribed_at.toISOString() }));
    },
    async close() {
      await pool.end();
    },
  };
}
