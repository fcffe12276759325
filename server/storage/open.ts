import path from 'node:path';
import { openPostgresStore } from './postgres';
import { openSqliteStore } from './sqlite';
import type { SiteStore } from './store';

export interface StoreOptions {
  /** postgres://... selects PostgreSQL. */
  databaseUrl?: string;
  /** The SQLite file otherwise; data/site.db by default. */
  sqliteFile?: string;
}

/** PostgreSQL when a database URL is given (DATABASE_URL), the embedded SQLite file otherwise. */
export async function openStore(options: StoreOptions): Promise<SiteStore> {
  if (options.databaseUrl) return openPostgresStore(options.databaseUrl);
  return openSqliteStore(options.sqliteFile ?? path.resolve('data/site.db'));
}
