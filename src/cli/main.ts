import path from 'node:path';
import { Command, Option } from 'commander';

// Each command's module is imported when that command runs: `site build` never loads the server
// and its database drivers, which keeps every command's start-up short.

const program = new Command();

program
  .name('site')
  .description('Build, check and serve the bilingual portfolio and blog.')
  .option('--root <dir>', 'project folder holding content/ and templates/', process.cwd())
  .showHelpAfterError();

program
  .command('check')
  .description('validate every content file, link and translation; print diagnostics; exit 1 on any error; writes nothing')
  .addOption(new Option('--format <format>', 'output format').choices(['human', 'json', 'github']).default('human'))
  .option('--strict', 'also exit 1 on a warning (a page nothing links to, an http:// link)', false)
  .action(async (options: { format: 'human' | 'json' | 'github'; strict: boolean }) => {
    process.exitCode = await (await import('./check')).runCheck({ root: rootDir(), format: options.format, strict: options.strict });
  });

program
  .command('build')
  .description('check, then render every page in every language into dist/ (replaced only if the build succeeds)')
  .option('--out <dir>', 'output folder', 'dist')
  .option('--base-url <url>', "the published site's absolute URL, instead of content/site.json's baseUrl")
  .option('--no-cache', 'ignore the build cache (.cache/site) and build everything from scratch')
  .option('--quiet', 'print only the summary line (as under CI)', false)
  .action(async (options: { out: string; baseUrl?: string; cache: boolean; quiet: boolean }) => {
    process.exitCode = await (await import('./build')).runBuild({
      root: rootDir(),
      outDir: path.resolve(rootDir(), options.out),
      cache: options.cache,
      quiet: options.quiet,
      ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    });
  });

program
  .command('serve')
  .description('serve an existing dist/ with the production server')
  .option('--dist <dir>', 'folder to serve', 'dist')
  .option('--port <port>', 'port to listen on', process.env.PORT ?? '3000')
  .option('--host <host>', 'address to listen on', process.env.HOST ?? '127.0.0.1')
  .option('--db <file>', 'SQLite file of the API (ignored when DATABASE_URL is set)', process.env.SITE_DB ?? 'data/site.db')
  .option('--trust-proxy', 'behind a reverse proxy: trust its X-Forwarded-* headers', false)
  .action(async (options: { dist: string; port: string; host: string; db: string; trustProxy: boolean }) => {
    process.exitCode = await (await import('./serve')).runServe({
      distDir: path.resolve(rootDir(), options.dist),
      port: Number(options.port),
      host: options.host,
      databaseUrl: process.env.DATABASE_URL,
      sqliteFile: path.resolve(rootDir(), options.db),
      trustProxy: options.trustProxy,
    });
  });

const newsletter = program.command('newsletter').description("the newsletter's subscribers");
newsletter
  .command('export')
  .description('print the subscribers as CSV (email, language, subscribed_at)')
  .option('--db <file>', 'SQLite file (ignored when DATABASE_URL is set)', process.env.SITE_DB ?? 'data/site.db')
  .action(async (options: { db: string }) => {
    process.exitCode = await (await import('./newsletter')).runNewsletterExport({ databaseUrl: process.env.DATABASE_URL, sqliteFile: path.resolve(rootDir(), options.db) });
  });

program
  .command('dev')
  .description('build, serve with the API, and rebuild on every change of content/, templates/ or src/, reloading the open pages')
  .option('--port <port>', 'port to listen on', process.env.PORT ?? '3000')
  .option('--host <host>', 'address to listen on', process.env.HOST ?? '127.0.0.1')
  .option('--db <file>', "SQLite file of the dev server's API (apart from site serve's)", 'data/dev.db')
  .option('--open', 'open the site in the browser', false)
  .action(async (options: { port: string; host: string; db: string; open: boolean }) => {
    process.exitCode = await (await import('./dev')).runDev({
      root: rootDir(),
      // Its own output folder: dev files are replaced in place, and dist/ stays what `site build` made.
      outDir: path.resolve(rootDir(), '.cache', 'dev'),
      port: Number(options.port),
      host: options.host,
      sqliteFile: path.resolve(rootDir(), options.db),
      open: options.open,
    });
  });

function rootDir(): string {
  return path.resolve(program.opts<{ root: string }>().root);
}

await program.parseAsync(process.argv);
