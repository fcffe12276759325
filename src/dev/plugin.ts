import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { notFoundUrl, prefixLang } from '../shared/route';
import type { DevEvents } from './events';

export interface DevServerOptions {
  /** The stream of build events every open tab listens to, served at /__dev/events. */
  events: DevEvents;
  /** The dev client script (JavaScript), served at /__dev/client.js. */
  clientScript: string;
  /**
   * Whether a build is under way or due (a change being gathered, a folder to read again), served
   * at /__dev/status: a tool waiting for `site dev` to have built what is on disk asks it.
   */
  busy?: () => boolean;
  /** When the watcher last reported a change (ms since the epoch), served at /__dev/status with `busy`. */
  lastChange?: () => number;
}

/**
 * What `site dev` adds to the production server (`buildApp`), which knows nothing of it: the
 * event stream, the client script, and the client's script tag in every page the server sends,
 * the Not Found page included. The built files never contain the tag. Registered on the app
 * itself rather than in a scope of its own (Fastify's `skip-override`, what fastify-plugin sets),
 * so its hook sees the pages of the app's routes and of its Not Found handler.
 */
const devServerPlugin: FastifyPluginAsync<DevServerOptions> = async (
  app,
  { events, clientScript, busy, lastChange },
) => {
  app.get('/__dev/status', async (_request, reply) =>
    reply
      .header('cache-control', 'no-store')
      .send({ busy: busy?.() ?? false, generation: events.generation, lastChange: lastChange?.() ?? 0 }),
  );
  app.get('/__dev/events', (_request, reply) => {
    reply.hijack();
    events.connect(reply.raw);
  });
  app.get('/__dev/client.js', async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-store').send(clientScript),
  );

  app.addHook('onSend', async (request, reply, payload) => {
    if (!isPage(reply)) return payload;
    // A page changes with every rebuild: never stored, and never answered "not modified".
    reply.header('cache-control', 'no-store').removeHeader('etag').removeHeader('last-modified');
    if (request.method === 'HEAD') return payload;
    const html = await textOf(payload, String(reply.getHeader('content-encoding') ?? ''));
    // The page is sent as the text it now is: not the precompressed copy, and of a new length.
    reply.removeHeader('content-encoding').removeHeader('content-length').removeHeader('vary');
    return withDevClient(html, pageOf(request, reply));
  });
};

export const devServer = Object.assign(devServerPlugin, { [Symbol.for('skip-override')]: true });

/** A whole page the server is sending: a page of dist/ (200) or the Not Found page (404). */
function isPage(reply: FastifyReply): boolean {
  const type = String(reply.getHeader('content-type') ?? '');
  return (reply.statusCode === 200 || reply.statusCode === 404) && type.startsWith('text/html');
}

/** The page URL the client is told it shows: the Not Found page, or the URL asked for. */
function pageOf(request: FastifyRequest, reply: FastifyReply): string {
  const urlPath = request.url.split('?')[0] ?? '/';
  if (reply.statusCode === 404) return notFoundUrl(prefixLang(urlPath));
  try {
    return decodeURIComponent(urlPath);
  } catch {
    return urlPath;
  }
}

/** The text of a reply's payload: a string, a buffer, or a file's stream (@fastify/static), decoded. */
async function textOf(payload: unknown, encoding: string): Promise<string> {
  if (typeof payload === 'string') return payload;
  if (payload === null || payload === undefined) return '';
  const raw = payload instanceof Readable ? await buffer(payload) : Buffer.from(payload as Uint8Array);
  const decoded =
    encoding === 'br'
      ? brotliDecompressSync(raw)
      : encoding === 'gzip'
        ? gunzipSync(raw)
        : encoding === 'deflate'
          ? inflateSync(raw)
          : raw;
  return decoded.toString('utf8');
}

/** A page with the dev client script added before </body>, told which page it is. */
function withDevClient(html: string, page: string): string {
  const tag = `<script src="/__dev/client.js" data-dev-page="${page.replace(/"/g, '&quot;')}" defer></script>`;
  const at = html.lastIndexOf('</body>');
  return at === -1 ? html + tag : html.slice(0, at) + tag + html.slice(at);
}
