import path from 'node:path';
import type { MigrationLog } from './migrations';
import { openPostgresStore } from './postgres';
import { openSqliteStore } from './sqlite';
import type { SiteStore } from './store';

export interface StoreOptions {
  /** postgres://... selects PostgreSQL. */
  databaseUrl?: string;
  /** The SQLite file otherwise; data/site.db by default. */
  sqliteFile?: string;
  /** Where a migration says what it did to existing rows; standard error by default. */
  log?: MigrationLog;
}

/** PostgreSQL when a database URL is given (DATABASE_URL), the embedded SQLite file otherwise. */
export async function openStore(options: StoreOptions): Promise<SiteStore> {
  const log = options.log ?? ((line: string) => console.error(line));
  if (options.databaseUrl) return openPostgresStore(options.databaseUrl, { log });
  return openSqliteStore(options.sqliteFile ?? path.resolve('data/site.db'), log);
}
