import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import v8 from 'node:v8';
import { transform } from 'esbuild';
import { buildApp } from '../../server/app';
import { listenOn } from '../../server/listen';
import { outboxDir, postmanFor, senderOf } from '../../server/newsletter/environment';
import { OUTBOX_URL, outboxPage } from '../../server/newsletter/outboxPage';
import { loadSiteWords } from '../../server/newsletter/siteWords';
import { openStore } from '../../server/storage/open';
import { TOOL_ROOT } from '../build/fingerprint';
import { DevEvents } from '../dev/events';
import { devServer } from '../dev/plugin';
import { DevSession } from '../dev/session';
import { SiteWatcher } from '../dev/watch';
import { notFoundUrl, pageFile } from '../shared/route';
import { report } from './report';

export interface DevOptions {
  root: string;
  outDir: string;
  port: number;
  host: string;
  /** The dev database (SQLite), apart from the one `site serve` uses. */
  sqliteFile: string;
  open: boolean;
}

/**
 * `site dev`: builds, serves the site with its API, watches content/, templates/ and src/, and
 * rebuilds on every change, telling the open pages to reload. Never exits on a content mistake.
 */
export async function runDev(options: DevOptions): Promise<number> {
  // The build thread holds the whole site between saves. Seeing it idle, V8's memory reducer
  // compacts its heap down to a fraction of its working size, and the owner's next save pays to
  // grow it back, which on a large site makes saves a few seconds apart markedly slower. The
  // thread's heap is made without it (the flag is read as a thread's heap is set up), and keeps
  // its working size while `site dev` runs.
  v8.setFlagsFromString('--no-memory-reducer');
  // And with `gc` exposed (read as a context is made), so that the build thread can empty its
  // young generation while the owner reads, rather than in the middle of the next save's build.
  v8.setFlagsFromString('--expose-gc');
  const events = new DevEvents();
  const log = (line: string) => console.log(line);
  const session = new DevSession({
    root: options.root,
    outDir: options.outDir,
    events,
    log,
    report: (d) => report(options.root, d, 'human'),
  });
  // Watching starts before the first build reads anything: every change after that read is
  // reported, so later builds look again only at the files reported (see loadArticles).
  const roots = [path.join(options.root, 'content'), path.join(TOOL_ROOT, 'templates'), path.join(TOOL_ROOT, 'src')];
  // A folder deleted and written again (a branch switch) is watched again and read whole.
  const watcher = new SiteWatcher(
    roots,
    (file) => session.changed(file),
    log,
    () => !session.busy(),
  );
  await watcher.start();
  const first = await session.start();
  const clientScript = (
    await transform(await readFile(path.join(TOOL_ROOT, 'src/dev/client.ts'), 'utf8'), {
      loader: 'ts',
      format: 'iife',
      minify: true,
      target: 'es2020',
    })
  ).code;
  let store: Awaited<ReturnType<typeof openStore>>;
  try {
    store = await openStore({ databaseUrl: undefined, sqliteFile: options.sqliteFile });
  } catch (error) {
    // A database that cannot be opened ends the command; the watcher and the build thread would
    // otherwise keep the process alive after the message.
    await Promise.all([watcher.close(), session.close()]);
    throw error;
  }
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  const listen = async () => {
    // The output folder is written in place, so the server is told of each build by its count.
    // The newsletter's links lead to this dev server; its mail goes to the outbox unless SMTP_URL is set.
    const origin = `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${options.port}`;
    const postman = postmanFor(
      process.env,
      options.root,
      senderOf(process.env, (await loadSiteWords(options.root)).owner.name, origin),
    );
    const newsletter = { postman, baseUrl: origin, root: options.root, secret: process.env.NEWSLETTER_SECRET };
    const server = await buildApp({
      distDir: options.outDir,
      store,
      logger: false,
      distRevision: () => events.generation,
      rateLimit: { max: 1000, timeWindow: 60_000 },
      newsletter,
    });
    server.addHook('onClose', async () => postman.close());
    try {
      await server.register(devServer, {
        events,
        clientScript,
        busy: () => session.busy() || watcher.busy(),
        lastChange: () => session.lastChange,
      });
      await server.register(outboxPage, { dir: outboxDir(options.root) });
      await listenOn(server, options.host, options.port);
    } catch (error) {
      await server.close();
      throw error;
    }
    app = server;
    const url = `http://${options.host}:${options.port}/`;
    log(`site dev: ${url} (watching content/, templates/ and src/; Ctrl+C stops)`);
    if (postman.toOutbox)
      log(`newsletter: no SMTP_URL, e-mails go to ${postman.where}: ${url.replace(/\/$/, '')}${OUTBOX_URL}`);
    if (options.open) openBrowser(url);
  };
  // Ends at Ctrl+C, or with the error of a server that cannot listen (the port in use).
  let failed: (error: unknown) => void = () => undefined;
  const stopped = new Promise<void>((resolve, reject) => {
    failed = reject;
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  try {
    // With no site built yet (the first build failed), the server starts after the first good build.
    if (first.ok || (await exists(path.join(options.outDir, pageFile(notFoundUrl('en')))))) await listen();
    else {
      const stop = session.onRebuild((rebuild) => {
        if (rebuild.ok && !app) {
          stop();
          listen().catch(failed);
        }
      });
    }
    log('watching for changes…');
    await stopped;
    // Ctrl-C ends site dev whatever a watcher, a thread or a connection still holds: the cleanup
    // below gets five seconds, and the process ends then if it has not ended of itself. (The
    // stale-output test has seen, in CI, a site dev that had lived through many thread
    // replacements and folder switches stay alive after its cleanup; not reproduced alone.)
    setTimeout(() => process.exit(process.exitCode ?? 0), 5_000).unref();
  } finally {
    events.close();
    await Promise.all([watcher.close(), session.close(), app?.close()]);
    await store.close();
  }
  return 0;
}

async function exists(file: string): Promise<boolean> {
  return readFile(file).then(
    () => true,
    () => false,
  );
}

/** Opens the site in the system's browser; without one (a server), says where it is instead. */
function openBrowser(url: string): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = spawn(command, [url], { stdio: 'ignore', detached: true });
  child.on('error', () => console.log(`(no browser to open here: visit ${url})`));
  child.unref();
}
