import { buildApp } from './app';
import { openStore } from './storage/open';

export interface ServeOptions {
  distDir: string;
  port: number;
  host: string;
  /** postgres://... for PostgreSQL; otherwise the SQLite file. */
  databaseUrl?: string;
  sqliteFile?: string;
  trustProxy?: boolean;
}

/**
 * Starts the production server. SIGTERM and SIGINT stop accepting connections, let requests in
 * flight finish, then close the database.
 */
export async function startServer(options: ServeOptions): Promise<void> {
  const store = await openStore({ databaseUrl: options.databaseUrl, sqliteFile: options.sqliteFile });
  // SITE_RATE_LIMIT raises the writes allowed per client and minute (load tests, trusted networks).
  const max = Number(process.env.SITE_RATE_LIMIT ?? 30);
  const app = await buildApp({
    distDir: options.distDir,
    store,
    logger: { level: 'info' },
    trustProxy: options.trustProxy ?? false,
    rateLimit: { max: Number.isFinite(max) && max > 0 ? max : 30, timeWindow: 60_000 },
  });
  app.addHook('onClose', async () => store.close());
  const stop = (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    void app.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await app.listen({ port: options.port, host: options.host });
}
