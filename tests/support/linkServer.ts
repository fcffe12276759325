import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the server saw. */
export interface SeenRequest {
  method: string;
  /** The path and query asked ("/missing?n=1"). */
  path: string;
  userAgent: string;
  /** When it arrived, in ms (performance.now()). */
  at: number;
}

/**
 * A loopback HTTP server that answers as the sites an article links to do, by path:
 *
 *   /ok 200 · /moved 301 to /ok · /moved-308 308 to /ok · /found 302 to /ok (a temporary move)
 *   /missing 404 · /gone 410 · /forbidden 403 · /down 503 always · /loop 301 to /loop-back and back
 *   /moved-away 301 to /missing · /busy 429 with Retry-After: 1, then 200 · /flaky 503, then 200
 *   /limited 429 always · /closed 429 always, with Retry-After: 3600
 *   /slow 200 after `slowMs` · /no-head 405 to HEAD, 200 to GET
 *
 * anything else 404. "Then" counts per path and query, so "/busy?n=2" starts anew. Every request
 * is recorded, and so is the most it ever had in flight at once. `delayMs` delays every answer.
 */
export async function startLinkServer(options: { slowMs?: number; delayMs?: number } = {}) {
  const seen: SeenRequest[] = [];
  const asked = new Map<string, number>();
  let inFlight = 0;
  let mostInFlight = 0;
  const answer = (request: IncomingMessage, response: ServerResponse) => {
    const path = request.url ?? '/';
    const times = (asked.get(path) ?? 0) + 1;
    asked.set(path, times);
    const name = path.split('?')[0];
    const send = (status: number, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'text/html', ...headers });
      response.end(request.method === 'HEAD' ? undefined : `<p>${status}</p>`);
    };
    switch (name) {
      case '/ok':
        return send(200);
      case '/moved':
        return send(301, { location: '/ok' });
      case '/moved-308':
        return send(308, { location: '/ok' });
      case '/found':
        return send(302, { location: '/ok' });
      case '/missing':
        return send(404);
      case '/gone':
        return send(410);
      case '/forbidden':
        return send(403);
      case '/down':
        return send(503);
      case '/moved-away':
        return send(301, { location: '/missing' });
      case '/limited':
        return send(429);
      case '/closed':
        return send(429, { 'retry-after': '3600' });
      case '/loop':
        return send(301, { location: '/loop-back' });
      case '/loop-back':
        return send(301, { location: '/loop' });
      case '/busy':
        return times === 1 ? send(429, { 'retry-after': '1' }) : send(200);
      case '/flaky':
        return times === 1 ? send(503) : send(200);
      case '/slow':
        return void setTimeout(() => send(200), options.slowMs ?? 5000).unref();
      case '/no-head':
        return request.method === 'HEAD' ? send(405, { allow: 'GET' }) : send(200);
      default:
        return send(404);
    }
  };
  const server = createServer((request, response) => {
    seen.push({
      method: request.method ?? '',
      path: request.url ?? '/',
      userAgent: request.headers['user-agent'] ?? '',
      at: performance.now(),
    });
    inFlight++;
    mostInFlight = Math.max(mostInFlight, inFlight);
    response.on('close', () => inFlight--);
    if (options.delayMs) setTimeout(() => answer(request, response), options.delayMs).unref();
    else answer(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    /** Every request so far, in the order they arrived. */
    seen,
    /** The most requests it had in flight at once. */
    mostInFlight: () => mostInFlight,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
