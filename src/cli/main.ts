import path from 'node:path';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { describeFailure } from '../diagnostics/failure';

// Each command's module is imported when that command runs: `site build` never loads the server
// and its database drivers, which keeps every command's start-up short.

// A reader that stops reading (`site check --format json | head -1`) closes the pipe: the command
// stops quietly, as Unix tools do, instead of dying on an unheard 'error' event.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

const DAY_MS = 24 * 60 * 60 * 1000;
const UNIT_MS: Record<string, number> = { s: 1000, m: 60 * 1000, h: 60 * 60 * 1000, d: DAY_MS, w: 7 * DAY_MS };

const program = new Command();

program
  .name('site')
  .description('Build, check and serve the bilingual portfolio and blog.')
  .option('--root <dir>', 'project folder holding content/ and templates/', process.cwd())
  .option('--verbose', 'on a failure, also print where in the code it happened (as DEBUG=1 does)', false)
  .showHelpAfterError()
  // Usage errors (an unknown option, a missing argument) exit 2, failures 1: see the end of this file.
  .exitOverride()
  // Faults caught inside the pipeline (INTERNAL001) add where they happened under --verbose.
  .hook('preAction', () => {
    if (program.opts<{ verbose?: boolean }>().verbose) process.env.SITE_VERBOSE = '1';
  });

program
  .command('check')
  .description(
    'validate every content file, link and translation; print diagnostics; exit 1 on any error; writes nothing (but the answers --external keeps)',
  )
  .addOption(new Option('--format <format>', 'output format').choices(['human', 'json', 'github']).default('human'))
  .option('--strict', 'also exit 1 on a warning (a page nothing links to, an http:// link)', false)
  .option('--drafts', 'also check drafts and scheduled articles, as site dev shows them', false)
  .option(
    '--external',
    'also ask every link that leaves the site whether it still works (needs the network; answers kept in .cache/site/)',
    false,
  )
  .addOption(
    new Option(
      '--max-age <age>',
      'with --external: ask again a good answer older than this (30m, 12h, 7d, 2w; 0 asks everything)',
    )
      .argParser(age('--max-age'))
      .default(7 * DAY_MS, '7d'),
  )
  .option(
    '--timeout <seconds>',
    'with --external: how long a request may take to answer',
    seconds('--timeout', 600),
    10,
  )
  .action(
    async (options: {
      format: 'human' | 'json' | 'github';
      strict: boolean;
      drafts: boolean;
      external: boolean;
      maxAge: number;
      timeout: number;
    }) => {
      process.exitCode = await (await import('./check')).runCheck({
        root: rootDir(),
        format: options.format,
        strict: options.strict,
        drafts: options.drafts,
        ...(options.external && { external: { maxAgeMs: options.maxAge, timeoutMs: options.timeout * 1000 } }),
      });
    },
  );

program
  .command('build')
  .description('check, then render every page in every language into dist/ (replaced only if the build succeeds)')
  .option('--out <dir>', 'output folder', 'dist')
  .option('--base-url <url>', "the published site's absolute URL, instead of content/site.json's baseUrl")
  .option('--no-cache', 'ignore the build cache (.cache/site) and build everything from scratch')
  .option('--quiet', 'print only the summary line (as under CI)', false)
  .option('--explain', 'print each output made again and which of its inputs changed', false)
  .option('--drafts', 'a preview: also build drafts and scheduled articles, each marked (never publish it)', false)
  .action(
    async (options: {
      out: string;
      baseUrl?: string;
      cache: boolean;
      quiet: boolean;
      explain: boolean;
      drafts: boolean;
    }) => {
      process.exitCode = await (await import('./build')).runBuild({
        root: rootDir(),
        outDir: path.resolve(rootDir(), options.out),
        cache: options.cache,
        quiet: options.quiet,
        explain: options.explain,
        drafts: options.drafts,
        ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
      });
    },
  );

program
  .command('serve')
  .description('serve an existing dist/ with the production server')
  .option('--dist <dir>', 'folder to serve', 'dist')
  .option('--port <port>', 'port to listen on', whole('--port', 0, 65535), portDefault())
  .option('--host <host>', 'address to listen on', process.env.HOST ?? '127.0.0.1')
  .option(
    '--db <file>',
    'SQLite file of the API (ignored when DATABASE_URL is set)',
    process.env.SITE_DB ?? 'data/site.db',
  )
  .option('--trust-proxy', 'behind a reverse proxy: trust its X-Forwarded-* headers', false)
  .option(
    '--base-url <url>',
    "the site's public address for the links in the newsletter's e-mails, instead of content/site.json's baseUrl",
    siteOrigin,
  )
  .action(
    async (options: {
      dist: string;
      port: number;
      host: string;
      db: string;
      trustProxy: boolean;
      baseUrl?: string;
    }) => {
      process.exitCode = await (await import('./serve')).runServe({
        root: rootDir(),
        ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
        distDir: path.resolve(rootDir(), options.dist),
        port: options.port,
        host: options.host,
        databaseUrl: process.env.DATABASE_URL,
        sqliteFile: path.resolve(rootDir(), options.db),
        trustProxy: options.trustProxy,
      });
    },
  );

const newsletter = program
  .command('newsletter')
  .description('the newsletter: mail an article, export the subscribers, forget an address');
const storeOf = (db: string) => ({ databaseUrl: process.env.DATABASE_URL, sqliteFile: path.resolve(rootDir(), db) });
newsletter
  .command('send')
  .description(
    'mail a published article to every confirmed subscriber, in their language; run again to finish a send that stopped (nobody gets it twice)',
  )
  .argument('<route>', "the article's route, as its URL reads: /blog/tech/Git")
  .option(
    '--dry-run',
    'send nothing: say who would get which edition, and write the two messages to data/outbox/dry-run/',
    false,
  )
  .option(
    '--base-url <url>',
    "the site's public address for the links, instead of content/site.json's baseUrl",
    siteOrigin,
  )
  .option(
    '--rate <n>',
    'messages per second at most (NEWSLETTER_RATE, 10 by default)',
    whole('--rate', 1, 10_000),
    rateDefault(),
  )
  .option('--db <file>', 'SQLite file (ignored when DATABASE_URL is set)', process.env.SITE_DB ?? 'data/site.db')
  .action(async (route: string, options: { dryRun: boolean; baseUrl?: string; rate: number; db: string }) => {
    const backoff = Number(process.env.NEWSLETTER_BACKOFF_MS);
    process.exitCode = await (await import('./newsletter')).runNewsletterSend({
      ...storeOf(options.db),
      root: rootDir(),
      route,
      dryRun: options.dryRun,
      rate: options.rate,
      ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
      ...(Number.isFinite(backoff) && backoff >= 0 && process.env.NEWSLETTER_BACKOFF_MS ? { backoffMs: backoff } : {}),
    });
  });
newsletter
  .command('export')
  .description(
    'print the subscribers as CSV with their consent: state, signed up, confirmed, unsubscribed, the text they were shown',
  )
  .option('--db <file>', 'SQLite file (ignored when DATABASE_URL is set)', process.env.SITE_DB ?? 'data/site.db')
  .action(async (options: { db: string }) => {
    process.exitCode = await (await import('./newsletter')).runNewsletterExport(storeOf(options.db));
  });
newsletter
  .command('forget')
  .description('remove everything stored about an address, keeping only a hash of it so it is not added again unasked')
  .argument('<address>', 'the e-mail address')
  .option('--db <file>', 'SQLite file (ignored when DATABASE_URL is set)', process.env.SITE_DB ?? 'data/site.db')
  .action(async (address: string, options: { db: string }) => {
    process.exitCode = await (await import('./newsletter')).runNewsletterForget({ ...storeOf(options.db), address });
  });

const translations = program
  .command('translations')
  .description(
    'every route and language with the state of its translation: up to date, outdated since a day, missing, not tracked',
  )
  .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
  .action(async (options: { format: 'text' | 'json' }) => {
    process.exitCode = await (await import('./translations')).runTranslations({
      root: rootDir(),
      format: options.format,
    });
  });
translations
  .command('sync')
  .description(
    'mark a translation as in line with its counterpart, once reviewed: an article edition (both editions are marked) or a JSON content file',
  )
  .argument('[files...]', 'article edition or JSON content files')
  .option('--all', 'mark every bilingual article and text as in line (and forget what no longer exists)', false)
  .action(async (files: string[], options: { all: boolean }) => {
    process.exitCode = await (await import('./translations')).runSync({ root: rootDir(), files, all: options.all });
  });

program
  .command('dev')
  .description(
    'build, serve with the API, and rebuild on every change of content/, templates/ or src/, reloading the open pages',
  )
  .option('--port <port>', 'port to listen on', whole('--port', 0, 65535), portDefault())
  .option('--host <host>', 'address to listen on', process.env.HOST ?? '127.0.0.1')
  .option('--db <file>', "SQLite file of the dev server's API (apart from site serve's)", 'data/dev.db')
  .option('--open', 'open the site in the browser', false)
  .action(async (options: { port: number; host: string; db: string; open: boolean }) => {
    process.exitCode = await (await import('./dev')).runDev({
      root: rootDir(),
      // Its own output folder: dev files are replaced in place, and dist/ stays what `site build` made.
      outDir: path.resolve(rootDir(), '.cache', 'dev'),
      port: options.port,
      host: options.host,
      sqliteFile: path.resolve(rootDir(), options.db),
      open: options.open,
    });
  });

program
  .command('new')
  .description(
    'start an article as a draft: writes content/blog/<category>/<Slug>.<en|pt>.md, never over an existing file',
  )
  .argument(
    '<category/Slug>',
    "the article's category and slug, its URL's last part: tech/Kubernetes-Basics",
    articleName,
  )
  .addOption(new Option('--lang <lang>', 'the editions to start').choices(['en', 'pt', 'both']).default('both'))
  .action(async (name: { category: string; slug: string }, options: { lang: 'en' | 'pt' | 'both' }) => {
    process.exitCode = await (await import('./new')).runNew({
      root: rootDir(),
      ...name,
      langs: options.lang === 'both' ? ['en', 'pt'] : [options.lang],
      // Where `site dev` serves with its defaults, so that the URLs printed open there.
      devOrigin: `http://${process.env.HOST ?? '127.0.0.1'}:${portDefault()}`,
    });
  });

/** PORT from the environment when it is a port number, 3000 otherwise. */
function portDefault(): number {
  const port = Number(process.env.PORT);
  return Number.isInteger(port) && port >= 0 && port <= 65535 && process.env.PORT?.trim() ? port : 3000;
}

/** NEWSLETTER_RATE from the environment when it is a whole number of messages a second, 10 otherwise. */
function rateDefault(): number {
  const rate = Number(process.env.NEWSLETTER_RATE);
  return Number.isInteger(rate) && rate >= 1 && rate <= 10_000 ? rate : 10;
}

/** A site address given on the command line: an http(s) URL, its origin kept. */
function siteOrigin(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError('--base-url must be an absolute URL: https://example.com');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new InvalidArgumentError('--base-url must be an http:// or https:// URL');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function rootDir(): string {
  return path.resolve(program.opts<{ root: string }>().root);
}

/** A port or count given on the command line: a whole number in its range, or a usage error. */
function whole(name: string, min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min || n > max)
      throw new InvalidArgumentError(`${name} must be a whole number from ${min} to ${max}.`);
    return n;
  };
}

/** An age given on the command line, a whole number and its unit ("12h", "7d"; "0" alone), in ms; or a usage error. */
function age(name: string) {
  return (value: string): number => {
    if (value === '0') return 0;
    const [, count, unit] = /^(\d+)([smhdw])$/.exec(value) ?? [];
    if (count === undefined || unit === undefined)
      throw new InvalidArgumentError(`${name} takes a number and a unit: 30m, 12h, 7d, 2w (or 0 to ask everything).`);
    return Number(count) * (UNIT_MS[unit] as number);
  };
}

/** A number of seconds given on the command line, more than 0 and at most `max` (0.5 allowed); or a usage error. */
function seconds(name: string, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+(\.\d+)?$/.test(value) || n <= 0 || n > max)
      throw new InvalidArgumentError(`${name} must be a number of seconds above 0 and at most ${max}.`);
    return n;
  };
}

/**
 * The argument of `site new`: "<category>/<Slug>", two parts, or a usage error. What each part may
 * hold is `site new`'s to judge.
 */
function articleName(value: string): { category: string; slug: string } {
  const [category, slug, ...rest] = value.split('/');
  if (!category || !slug || rest.length > 0)
    throw new InvalidArgumentError('Write it as <category>/<Slug>, for example tech/Kubernetes-Basics.');
  return { category, slug };
}

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Commander has printed the usage problem (or the help, or the version) already.
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else {
    const { message, hint } = describeFailure(error);
    console.error(`✗ ${message}\n  ${hint}`);
    if (program.opts<{ verbose?: boolean }>().verbose || process.env.DEBUG) console.error(error);
    process.exitCode = 1;
  }
}
