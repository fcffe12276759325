import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import helmet from 'helmet';
import type MiniSearch from 'minisearch';
import { isLang, LANGUAGES, type Lang } from '../src/shared/lang';
import { homeUrl, notFoundUrl, pageFile, prefixLang, rootUrl } from '../src/shared/route';
import { loadSearchIndex, type SearchDocument, searchIn } from '../src/shared/search';
import { THEME_SCRIPT } from '../src/shared/theme';
import { api } from './api';
import { DistListing, resolveDistFile } from './files';
import { pageShell } from './newsletter/page';
import type { Postman } from './newsletter/postman';
import { newsletterPages } from './newsletter/routes';
import { Newsletter, resolveSecret } from './newsletter/service';
import { loadSiteWords, type SiteWords } from './newsletter/siteWords';
import type { SiteStore } from './storage/store';
import { ensureXsrfCookie } from './xsrf';

export interface AppOptions {
  /** The built site to serve. */
  distDir: string;
  /** Fastify's logger option; off in tests. */
  logger?: FastifyServerOptions['logger'];
  /** The API's storage; without one the server serves dist/ only (the API answers 404). */
  store?: SiteStore;
  /** Writes per client and window before 429; 30 a minute by default. */
  rateLimit?: { max: number; timeWindow: number };
  /** Trust X-Forwarded-* from a reverse proxy (for the client address and https). */
  trustProxy?: boolean;
  /**
   * For a caller that writes files into dist/ in place rather than swapping in a new folder: a
   * number it changes after each write, so the listing, the Not Found pages and the search
   * indexes are read again.
   */
  distRevision?: () => number;
  /** The newsletter's mail and links; see NewsletterSetup. */
  newsletter?: NewsletterSetup;
}

/** How the newsletter sends and links, for a server with a store. */
export interface NewsletterSetup {
  /** Where confirmation e-mails go. Without one (tests of the API alone) they stay owed in the store. */
  postman?: Postman;
  /** The public origin of the site for the links in e-mails; content/site.json's baseUrl by default. */
  baseUrl?: string;
  /** NEWSLETTER_SECRET; otherwise the one kept in the store (made on the first start). */
  secret?: string;
  /** The project folder whose content/ holds the site's words; the working folder by default. */
  root?: string;
  /** The first wait before a confirmation e-mail is tried again. */
  retryMs?: number;
  now?: () => Date;
}

/** How long the site's words read for the newsletter are used before they are read again (site dev edits them). */
const WORDS_FOR_MS = 1000;

/** The site's words, read again at most once a `WORDS_FOR_MS`. */
function siteWordsOf(root: string): () => Promise<SiteWords> {
  let read: { at: number; words: Promise<SiteWords> } | undefined;
  return () => {
    if (!read || performance.now() - read.at > WORDS_FOR_MS) {
      const words = loadSiteWords(root);
      read = { at: performance.now(), words };
      words.catch(() => {
        if (read?.words === words) read = undefined;
      });
    }
    return read.words;
  };
}

/**
 * `site build` swaps a new dist/ in with two renames (the old one away, the new one in): between
 * them, for as long as the second rename takes, there is no dist/. A request in that moment waits
 * for the new one rather than failing.
 */
const SWAP_WAIT_MS = 200;

/** The inode of dist/, waiting up to `waitMs` for it to reappear; undefined if it does not. */
async function distInode(distDir: string, waitMs: number): Promise<number | undefined> {
  const deadline = performance.now() + waitMs;
  for (;;) {
    let stat: ReturnType<typeof statSync> | undefined;
    try {
      stat = statSync(distDir);
    } catch {
      stat = undefined;
    }
    if (stat) return stat.ino;
    if (performance.now() >= deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The sha256 sources of a document's inline scripts, for the Content-Security-Policy. */
function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    (m) =>
      `'sha256-${createHash('sha256')
        .update(m[1] ?? '')
        .digest('base64')}'`,
  );
}

/**
 * The production server: the pages of dist/ at their URLs, "/" and "/pt" as redirects to About
 * Me, and the Not Found page (in the language of the path) with status 404 for anything else.
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const distDir = path.resolve(options.distDir);
  let files = new Set<string>();
  const listing = new DistListing(distDir);
  let notFound = { en: '', pt: '' };
  let scriptHashes: string[] = [];
  /** Each language's search index of the dist/ served, loaded by its first search. */
  let indexes: Partial<Record<Lang, Promise<MiniSearch<SearchDocument> | undefined>>> = {};
  let served = '';
  /** The reading of dist/ under way, which requests arriving meanwhile wait for. */
  let reading: Promise<void> | undefined;
  /**
   * `site build` swaps in a new dist/ folder (a new inode), and a writer in place changes
   * `distRevision`: the listing and the Not Found pages are read again then, so a rebuild is
   * served without a restart.
   */
  const readDist = async () => {
    // Asked on every request: a synchronous stat of one folder the kernel has cached costs a few
    // microseconds, far less than a round trip through the thread pool.
    const ino = (await distInode(distDir, served === '' ? 0 : SWAP_WAIT_MS))?.toString();
    // No dist/ at all (removed, not swapped): the last listing is kept, and requests for its files
    // find them gone (404) rather than failing the whole request.
    if (ino === undefined) {
      if (served === '') throw new Error(`${distDir} holds no built site`);
      return;
    }
    const current = `${ino}:${options.distRevision?.() ?? 0}`;
    if (current === served) return;
    let listed: Set<string>, en: string, pt: string, root: string;
    try {
      [listed, en, pt, root] = await Promise.all([
        listing.list(),
        readFile(path.join(distDir, pageFile(notFoundUrl('en'))), 'utf8'),
        readFile(path.join(distDir, pageFile(notFoundUrl('pt'))), 'utf8'),
        readFile(path.join(distDir, pageFile(rootUrl('en'))), 'utf8'),
      ]);
    } catch (error) {
      // The folder changed again while it was read (a build swapped it in, then another), or it
      // is not a whole site: the last one is served, and the next request looks again.
      if (served === '') throw error;
      return;
    }
    files = listed;
    notFound = { en, pt };
    // The search indexes are loaded once per build of dist/, and no page waits for them (a large
    // site's take long to load, and every page of `site dev` waited for them after each save). The
    // server of a swapped-in dist/ starts loading them at once, so that the first searches find
    // them ready; `site dev`, which rebuilds on every save, lets the first search load its own.
    indexes = {};
    if (!options.distRevision) for (const lang of LANGUAGES) void searchIndex(lang);
    // Inline scripts are allowed by their hashes: the static-host redirect page's, and the one
    // that sets the reader's colour scheme before a page is drawn.
    scriptHashes = [...inlineScriptHashes(root), ...inlineScriptHashes(`<script>${THEME_SCRIPT}</script>`)];
    served = current;
  };
  const refresh = async () => {
    // One reading at a time: the requests of a page that arrive together after a rebuild wait
    // for the one reading it started rather than each listing dist/ again. Each then looks for
    // itself, since a reading begun before the last change may not have seen it.
    while (reading) await reading;
    reading = readDist().finally(() => {
      reading = undefined;
    });
    await reading;
  };
  const searchIndex = (lang: Lang) => {
    indexes[lang] ??= loadSearchIndex(lang, (url) => readFile(path.join(distDir, url.slice(1)), 'utf8')).catch(
      () => undefined,
    );
    return indexes[lang];
  };
  await refresh();
  // A server starts with its indexes loaded, as its first visitors' searches expect.
  if (!options.distRevision) await Promise.all(LANGUAGES.map(searchIndex));

  const app = Fastify({
    logger: options.logger ?? false,
    routerOptions: { caseSensitive: true, ignoreTrailingSlash: false },
    bodyLimit: 16 * 1024,
    trustProxy: options.trustProxy ?? false,
  });
  await app.register(fastifyCookie);
  // helmet's middleware is made once: @fastify/helmet made it again for every request (parsing the
  // policy each time), which was a tenth of a search request's time and garbage.
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", () => scriptHashes.join(' ')],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https:'],
        mediaSrc: ["'self'", 'https:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    // HSTS only means something over TLS; it is added below when the request came over https.
    strictTransportSecurity: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', (request, reply, done) =>
    securityHeaders(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined)),
  );
  app.addHook('onRequest', async (request, reply) => {
    if (request.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    if (request.method === 'GET') ensureXsrfCookie(request, reply);
  });
  await app.register(fastifyRateLimit, { global: false });
  // preCompressed: the build's .br and .gz copies are sent to clients that accept them.
  await app.register(fastifyStatic, {
    root: distDir,
    serve: false,
    index: false,
    dotfiles: 'deny',
    preCompressed: true,
  });
  if (options.store) {
    const search = async (lang: Lang, term: string) => {
      await refresh();
      const index = await searchIndex(lang);
      return index ? searchIn(index, term) : [];
    };
    const setup = options.newsletter ?? {};
    const words = siteWordsOf(path.resolve(setup.root ?? '.'));
    const newsletter = new Newsletter({
      store: options.store.newsletter,
      ...(setup.postman ? { postman: setup.postman } : {}),
      baseUrl: (setup.baseUrl ?? (await words()).config.baseUrl).replace(/\/+$/, ''),
      secret: await resolveSecret(options.store.newsletter, setup.secret),
      words,
      ...(setup.now ? { now: setup.now } : {}),
      ...(setup.retryMs !== undefined ? { retryMs: setup.retryMs } : {}),
      warn: (message) => app.log.warn(message),
    });
    app.addHook('onClose', async () => newsletter.close());
    // Confirmation e-mails owed by an earlier run (the mail server was away, the process stopped) go out now.
    void newsletter.sendConfirmations().catch(() => undefined);
    const shell = async (lang: Lang) => {
      await refresh();
      return pageShell(notFound[lang]);
    };
    await app.register(api, {
      prefix: '/api',
      store: options.store,
      newsletter,
      search,
      rateLimit: options.rateLimit ?? { max: 30, timeWindow: 60_000 },
    });
    await app.register(newsletterPages, { newsletter, words, shell });
  }

  app.get(rootUrl('en'), async (request, reply) => {
    // The language the visitor last chose, remembered by the flags in a cookie (parsed by @fastify/cookie).
    const remembered = request.cookies.lang;
    return reply.redirect(homeUrl(isLang(remembered) ? remembered : 'en'), 302);
  });
  app.get(rootUrl('pt'), async (_request, reply) => reply.redirect(homeUrl('pt'), 302));

  app.setNotFoundHandler(async (request, reply) => {
    const urlPath = request.url.split('?')[0] ?? '/';
    if (urlPath === '/api' || urlPath.startsWith('/api/'))
      return reply.code(404).send({ error: 'Not Found', message: `no API at ${urlPath}` });
    await refresh();
    if (request.method === 'GET' || request.method === 'HEAD') {
      const file = resolveDistFile(files, urlPath);
      if (file) {
        // Assets carry a content hash in their name, so they never change under the same URL.
        const cache = file.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
        // The body depends on Accept-Encoding (precompressed copies): caches must key on it.
        return reply
          .header('cache-control', cache)
          .header('vary', 'Accept-Encoding')
          .sendFile(file, { cacheControl: false });
      }
      // A page URL with a trailing slash has one true address: without it.
      const trimmed = urlPath.replace(/\/+$/, '');
      if (trimmed !== urlPath && trimmed !== '' && resolveDistFile(files, trimmed)) {
        return reply.redirect(trimmed, 301);
      }
    }
    const lang = prefixLang(urlPath);
    return reply.code(404).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(notFound[lang]);
  });

  return app;
}
