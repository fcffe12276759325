import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Lang } from '../../src/shared/lang';
import type { SiteStore, Subscriber } from './store';

/** Schema versions, applied in order on open; each runs once. */
const MIGRATIONS = [
  `CREATE TABLE view_count (id INTEGER PRIMARY KEY CHECK (id = 1), count INTEGER NOT NULL);
   INSERT INTO view_count (id, count) VALUES (1, 0);
   CREATE TABLE subscribers (
     email TEXT NOT NULL,
     email_key TEXT NOT NULL UNIQUE,
     lang TEXT NOT NULL CHECK (lang IN ('en', 'pt')),
     subscribed_at TEXT NOT NULL
   );`,
];

/**
 * The embedded store: one SQLite file, created and migrated on open, in WAL mode. Writes are
 * synchronous in this process, so an acknowledged write is in the file even if the process is
 * killed right after.
 */
export function openSqliteStore(file: string): SiteStore {
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  const version = db.pragma('user_version', { simple: true }) as number;
  for (let v = version; v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
  const increment = db.prepare('UPDATE view_count SET count = count + 1 WHERE id = 1');
  const count = db.prepare('SELECT count FROM view_count WHERE id = 1');
  const insert = db.prepare('INSERT INTO subscribers (email, email_key, lang, subscribed_at) VALUES (?, ?, ?, ?) ON CONFLICT (email_key) DO NOTHING');
  const list = db.prepare('SELECT email, lang, subscribed_at AS subscribedAt FROM subscribers ORDER BY subscribed_at, email');
  return {
    async incrementViews() {
      increment.run();
    },
    async viewCount() {
      return (count.get() as { count: number }).count;
    },
    async subscribe(email: string, lang: Lang) {
      const result = insert.run(email, email.toLowerCase(), lang, new Date().toISOString());
      return result.changes === 1 ? 'subscribed' : 'already';
    },
    async subscribers() {
      return list.all() as Subscriber[];
    },
    async close() {
      db.close();
    },
  };
}
