import type { FastifyInstance } from 'fastify';
import { OperationalError, operational, systemCode } from '../src/diagnostics/failure';

/** What the system said when the server could not listen, as the owner can act on it. */
const LISTEN_ERRORS: Record<string, (host: string, port: number) => { what: string; hint: string }> = {
  EADDRINUSE: (_host, port) => ({
    what: `port ${port} is already in use`,
    hint: 'Stop the other server on that port, or choose another port with --port.',
  }),
  EADDRNOTAVAIL: (host) => ({
    what: `${host} is not an address of this machine`,
    hint: 'Choose an address of this machine with --host (127.0.0.1, or 0.0.0.0 for every interface).',
  }),
  EACCES: (_host, port) =>
    port < 1024
      ? {
          what: `permission denied: ports below 1024 need administrator rights`,
          hint: 'Choose a port of 1024 or above with --port (3000 by default).',
        }
      : { what: 'permission denied', hint: 'Choose another port with --port.' },
  ENOTFOUND: (host) => ({
    what: `the host name ${host} was not found`,
    hint: 'Give an address of this machine with --host (127.0.0.1 by default).',
  }),
  EAI_AGAIN: (host) => ({
    what: `the host name ${host} could not be looked up`,
    hint: 'Give an IP address with --host (127.0.0.1 by default).',
  }),
  EAFNOSUPPORT: (host) => ({
    what: `this machine does not support the address family of ${host}`,
    hint: 'Give an IPv4 address with --host (127.0.0.1 by default).',
  }),
};

/**
 * The server listening on host:port, or an OperationalError saying why it cannot (the port in
 * use, an address of another machine, a privileged port) and what to do.
 */
export async function listenOn(app: FastifyInstance, host: string, port: number): Promise<void> {
  try {
    await app.listen({ host, port });
  } catch (error) {
    throw listenFailure(error, host, port);
  }
}

export function listenFailure(error: unknown, host: string, port: number): unknown {
  const code = systemCode(error);
  const known = code ? LISTEN_ERRORS[code] : undefined;
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  if (known) {
    const { what, hint } = known(host, port);
    return new OperationalError(`cannot listen on ${where}: ${what} (${code})`, hint, { cause: error });
  }
  return operational(error, `cannot listen on ${where}`);
}
