import { buildApp } from './app';
import { listenOn } from './listen';
import { postmanFor, senderOf } from './newsletter/environment';
import { loadSiteWords } from './newsletter/siteWords';
import { openStore } from './storage/open';

export interface ServeOptions {
  distDir: string;
  port: number;
  host: string;
  /** postgres://... for PostgreSQL; otherwise the SQLite file. */
  databaseUrl?: string;
  sqliteFile?: string;
  trustProxy?: boolean;
  /** The project folder: content/ for the newsletter's words, data/outbox for its mail without SMTP_URL. */
  root: string;
  /** The site's public origin for the links in e-mails; content/site.json's baseUrl by default. */
  baseUrl?: string;
}

/**
 * Starts the production server. SIGTERM and SIGINT stop accepting connections, let requests in
 * flight finish, then close the database. A server that cannot start (the port in use, a
 * database that cannot be opened) throws an OperationalError, with the database closed again, so
 * nothing keeps the process alive after the message.
 */
export async function startServer(options: ServeOptions): Promise<void> {
  const words = await loadSiteWords(options.root);
  const baseUrl = options.baseUrl ?? words.config.baseUrl;
  const postman = postmanFor(process.env, options.root, senderOf(process.env, words.owner.name, baseUrl));
  const store = await openStore({
    databaseUrl: options.databaseUrl,
    sqliteFile: options.sqliteFile,
    log: (line) => console.log(line),
  });
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
      newsletter: { postman, baseUrl, root: options.root, secret: process.env.NEWSLETTER_SECRET },
    });
  } catch (error) {
    await store.close().catch(() => undefined);
    throw error;
  }
  app.addHook('onClose', async () => {
    postman.close();
    await store.close();
  });
  if (postman.toOutbox)
    app.log.info(`newsletter: SMTP_URL is not set, so e-mails are written to ${postman.where} as .eml files, not sent`);
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
