import { buildApp } from './app';
import { listenOn } from './listen';
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
 * flight finish, then close the database. A server that cannot start (the port in use, a
 * database that cannot be opened) throws an OperationalError, with the database closed again, so
 * nothing keeps the process alive after the message.
 */
export async function startServer(options: ServeOptions): Promise<void> {
  const store = await openStore({ databaseUrl: options.databaseUrl, sqliteFile: options.sqliteFile });
  // SITE_RATE_LIMIT raises the writes allowed per client and minute (load tests, trusted networks).
  const max = Number(process.env.SITE_RATE_LIMIT ?? 30);
  let app: Awaited<ReturnType<typeof buildApp>>;
  try {
    app = await buildApp({
      distDir: options.distDir,
      store,
      logger: { level: 'info' },
      trustProxy: options.trustProxy ?? false,
      rateLimit: { max: Number.isFinite(max) && max > 0 ? max : 30, timeWindow: 60_000 },
    });
  } catch (error) {
    await store.close().catch(() => undefined);
    throw error;
  }
  app.addHook('onClose', async () => store.close());
  try {
    await listenOn(app, options.host, options.port);
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
  const stop = (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    void app.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
