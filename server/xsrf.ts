import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';

/**
 * The double-submit anti-forgery check (docs/design.md, The API and storage; HTTP clients send it
 * by default): every visitor
 * gets a random token in a cookie the page's script can read; a write must repeat it in the
 * X-XSRF-TOKEN header. A page on another site can make the browser send the cookie, but it
 * cannot read it to set the header.
 */
export function ensureXsrfCookie(request: FastifyRequest, reply: FastifyReply): void {
  if (request.cookies[XSRF_COOKIE]) return;
  reply.setCookie(XSRF_COOKIE, randomBytes(24).toString('hex'), {
    path: '/',
    sameSite: 'strict',
    secure: request.protocol === 'https',
    httpOnly: false,
  });
}

export function hasValidXsrf(request: FastifyRequest): boolean {
  const cookie = request.cookies[XSRF_COOKIE];
  const header = request.headers[XSRF_HEADER];
  if (!cookie || typeof header !== 'string') return false;
  // Compared as bytes of equal length: both come from the client, and a token with characters
  // outside ASCII can have as many characters as the other but more bytes, which timingSafeEqual
  // refuses by throwing (that was a 500).
  const expected = Buffer.from(cookie);
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
