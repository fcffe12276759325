import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { isLang } from '../src/shared/lang';
import { homeUrl } from '../src/shared/route';
import { listDist, resolveDistFile } from './files';

export interface AppOptions {
  /** The built site to serve. */
  distDir: string;
  /** Fastify's logger option; off in tests. */
  logger?: FastifyServerOptions['logger'];
}

function cookie(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/**
 * The production server: the pages of dist/ at their URLs, "/" and "/pt" as redirects to About
 * Me, and the Not Found page (in the language of the path) with status 404 for anything else.
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const distDir = path.resolve(options.distDir);
  let files = new Set<string>();
  let notFound = { en: '', pt: '' };
  let servedInode = -1;
  /**
   * `site build` swaps in a new dist/ folder (a new inode): the listing and the Not Found pages are
   * read again then, so a rebuild is served without restarting the server.
   */
  const refresh = async () => {
    const { ino } = await stat(distDir);
    if (ino === servedInode) return;
    const [listed, en, pt] = await Promise.all([
      listDist(distDir),
      readFile(path.join(distDir, '404.html'), 'utf8'),
      readFile(path.join(distDir, 'pt/404.html'), 'utf8'),
    ]);
    files = listed;
    notFound = { en, pt };
    servedInode = ino;
  };
  await refresh();

  const app = Fastify({ logger: options.logger ?? false, routerOptions: { caseSensitive: true, ignoreTrailingSlash: false } });
  await app.register(fastifyStatic, { root: distDir, serve: false, index: false, dotfiles: 'deny' });

  app.get('/', async (request, reply) => {
    const remembered = cookie(request.headers.cookie, 'lang');
    return reply.redirect(homeUrl(isLang(remembered) ? remembered : 'en'), 302);
  });
  app.get('/pt', async (_request, reply) => reply.redirect(homeUrl('pt'), 302));

  app.setNotFoundHandler(async (request, reply) => {
    await refresh();
    const urlPath = request.url.split('?')[0] ?? '/';
    if (request.method === 'GET' || request.method === 'HEAD') {
      const file = resolveDistFile(files, urlPath);
      if (file) {
        // Assets carry a content hash in their name, so they never change under the same URL.
        const cache = file.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
        return reply.header('cache-control', cache).sendFile(file, { cacheControl: false });
      }
      // A page URL with a trailing slash has one true address: without it.
      const trimmed = urlPath.replace(/\/+$/, '');
      if (trimmed !== urlPath && trimmed !== '' && resolveDistFile(files, trimmed)) {
        return reply.redirect(trimmed, 301);
      }
    }
    const lang = urlPath === '/pt' || urlPath.startsWith('/pt/') ? 'pt' : 'en';
    return reply.code(404).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(notFound[lang]);
  });

  return app;
}
