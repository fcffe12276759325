import { accessSync, constants, mkdirSync, type Stats, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { OperationalError, operational, systemCode } from '../../src/diagnostics/failure';
import { newsletterStore } from '../newsletter/store';
import { doubleOptIn, MIGRATION_NOTES, type MigrationLog } from './migrations';
import type { Row, Sql } from './sql';
import type { SiteStore } from './store';

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
  // The newsletter's double opt-in (issue 42); ids are never reused (AUTOINCREMENT), since an
  // unsubscribe link names its subscriber by id for good.
  doubleOptIn({ id: 'INTEGER PRIMARY KEY AUTOINCREMENT', time: 'TEXT' }),
];

/**
 * The embedded store: one SQLite file, created and migrated on open, in WAL mode. Writes are
 * synchronous in this process, so an acknowledged write is in the file even if the process is
 * killed right after.
 */
export function openSqliteStore(file: string, log: MigrationLog = () => undefined): SiteStore {
  let db: Database.Database | undefined;
  try {
    if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
    db = new Database(file);
    // The wait for another process's lock comes first: switching to WAL takes a lock too.
    db.pragma('busy_timeout = 5000');
    db.pragma('journal_mode = WAL');
    const version = db.pragma('user_version', { simple: true }) as number;
    for (let v = version; v < MIGRATIONS.length; v++) {
      db.transaction(() => {
        db!.exec(MIGRATIONS[v]!);
        db!.pragma(`user_version = ${v + 1}`);
      })();
      const note = MIGRATION_NOTES[v + 1];
      // A database made now has nothing to say of rows that were there before.
      const kept = note ? (db.prepare(note.count).get() as { n: number }).n : 0;
      if (note && kept > 0) log(note.line(kept));
    }
  } catch (error) {
    db?.close();
    throw openFailure(error, file);
  }
  return storeOn(db);
}

function storeOn(db: Database.Database): SiteStore {
  const increment = db.prepare('UPDATE view_count SET count = count + 1 WHERE id = 1');
  const count = db.prepare('SELECT count FROM view_count WHERE id = 1');
  return {
    async incrementViews() {
      increment.run();
    },
    async viewCount() {
      return (count.get() as { count: number }).count;
    },
    newsletter: newsletterStore(sqlOn(db)),
    async close() {
      db.close();
    },
  };
}

/**
 * The repository's SQL on SQLite: `$n` placeholders become `?` with their values in that order,
 * and each statement is prepared once.
 */
function sqlOn(db: Database.Database): Sql {
  const prepared = new Map<string, { statement: Database.Statement; order: number[] }>();
  const prepare = (text: string, params: readonly (string | number | null)[]) => {
    let entry = prepared.get(text);
    if (!entry) {
      const order: number[] = [];
      const statement = db.prepare(
        text.replace(/\$(\d+)/g, (_, n: string) => {
          order.push(Number(n) - 1);
          return '?';
        }),
      );
      entry = { statement, order };
      prepared.set(text, entry);
    }
    return { statement: entry.statement, values: entry.order.map((i) => params[i] ?? null) };
  };
  return {
    async all(text, params = []) {
      const { statement, values } = prepare(text, params);
      return statement.all(...values) as Row[];
    },
    async run(text, params = []) {
      const { statement, values } = prepare(text, params);
      return statement.run(...values).changes;
    },
  };
}

/** SQLite's result codes for a file it cannot use, in the owner's words. */
const SQLITE_ERRORS: Record<string, { what: string; hint: string }> = {
  SQLITE_NOTADB: {
    what: 'the file is not a SQLite database',
    hint: "Point --db at the site's database, or move this file away to start a new one.",
  },
  SQLITE_CORRUPT: {
    what: 'the database file is damaged',
    hint: 'Restore it from a backup, or move it away to start a new one.',
  },
  SQLITE_READONLY: {
    what: 'the file or its folder is read-only',
    hint: 'Make the file and its folder writable, or choose another file with --db.',
  },
  SQLITE_BUSY: {
    what: 'another process holds it locked',
    hint: 'Stop the other process using this database, or choose another file with --db.',
  },
  SQLITE_LOCKED: {
    what: 'another process holds it locked',
    hint: 'Stop the other process using this database, or choose another file with --db.',
  },
  SQLITE_FULL: { what: 'the disk is full', hint: 'Free some space on the disk, then run the command again.' },
  SQLITE_IOERR: {
    what: 'the disk reported an input/output error',
    hint: 'Check the disk, or choose a file on another one with --db.',
  },
  SQLITE_PERM: {
    what: 'permission denied',
    hint: 'Check the permissions of the file and its folder, or choose another file with --db.',
  },
};

function statOrNothing(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}

/** Why a database file cannot be opened, found by looking at the path when SQLite only says CANTOPEN. */
function cantOpenReason(file: string): { what: string; hint: string } {
  const stat = statOrNothing(file);
  if (stat?.isDirectory())
    return {
      what: 'a folder stands where the database file should be',
      hint: 'Remove or rename the folder, or choose another file with --db.',
    };
  // The nearest existing ancestor tells whether the path runs through a file or a closed folder.
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    const parent = statOrNothing(dir);
    if (parent && !parent.isDirectory())
      return {
        what: `${dir} is a file, not a folder`,
        hint: 'Choose a file whose every parent is a folder with --db.',
      };
    if (parent) {
      try {
        accessSync(stat ? file : dir, constants.R_OK | constants.W_OK);
      } catch {
        return {
          what: 'permission denied',
          hint: 'Check the permissions of the file and its folder, or choose another file with --db.',
        };
      }
      break;
    }
    if (path.dirname(dir) === dir) break;
  }
  return { what: 'SQLite cannot open the file', hint: 'Choose another file with --db.' };
}

/** An OperationalError naming the database file and why it cannot be used. */
function openFailure(error: unknown, file: string): unknown {
  const action = `cannot open the SQLite database ${file}`;
  const code = systemCode(error);
  if (
    code === 'EEXIST' ||
    code === 'ENOTDIR' ||
    code === 'SQLITE_CANTOPEN' ||
    (error instanceof TypeError && /directory does not exist/.test(error.message))
  ) {
    const { what, hint } = cantOpenReason(file);
    return new OperationalError(`${action}: ${what} (${code ?? 'SQLITE_CANTOPEN'})`, hint, { cause: error });
  }
  // Extended result codes (SQLITE_IOERR_WRITE, SQLITE_READONLY_DBMOVED) share their primary's reason.
  const primary = code?.match(/^SQLITE_[A-Z]+/)?.[0];
  const known = primary ? SQLITE_ERRORS[primary] : undefined;
  if (known) return new OperationalError(`${action}: ${known.what} (${code})`, known.hint, { cause: error });
  return operational(error, action);
}
