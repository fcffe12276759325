import { STATUS_CODES } from 'node:http';
import type { HostScheduler } from './hosts';

/** What one address turned out to be, after redirects and retries. */
export interface Verdict {
  answer: Answer;
  /** The address that gave the answer, when redirects led there from the one asked. */
  at?: string;
  /** Where the leading run of permanent redirects (301, 308) leads: the address to write instead. */
  moved?: { to: string; status: number };
  /** Requests made for it, retries and redirects included. */
  requests: number;
}

/** The last answer of an address: good, gone, a failure, or none. */
export type Answer =
  | { kind: 'ok'; status: number }
  | { kind: 'gone'; status: 404 | 410 }
  /** Any other status from 400 up, after the retries a 5xx gets. */
  | { kind: 'status'; status: number; reason: string; tries: number }
  /** 429 after every retry, or a Retry-After longer than the check waits (`wait`, in seconds). */
  | { kind: 'limited'; tries: number; wait?: number }
  | { kind: 'redirects'; loop: boolean; count: number }
  | { kind: 'unanswered'; failure: Failure; tries: number };

/** Why a request got no answer. */
export type Failure =
  | { kind: 'timeout' }
  | { kind: 'refused' }
  | { kind: 'reset' }
  | { kind: 'dns'; host: string }
  | { kind: 'tls' | 'blocked' | 'other'; detail: string };

/** How the check asks: the scheduler keeps it polite, the rest says how long and how often to try. */
export interface ProbeContext {
  scheduler: HostScheduler;
  /** Sent with every request; names the site, so a server's owner knows who asks. */
  userAgent: string;
  /** How long a request may take to answer (its headers), in ms. */
  timeoutMs: number;
  /** How many times a request that may pass (a timeout, a 5xx, a 429) is tried again. */
  retries: number;
  /** The wait before the first retry, in ms, doubled at each: unless the server's Retry-After asks for longer. */
  retryDelayMs: number;
  /** The longest a Retry-After may make the check wait, in ms; a longer one leaves the address unconfirmed. */
  maxWaitMs: number;
  /** Hosts whose name was not found this run: their other addresses are not asked. */
  unknownHosts: Set<string>;
}

/** The most redirects followed from one address, as browsers stop at about 20 and curl at 50. */
export const MAX_REDIRECTS = 10;
const PERMANENT = new Set([301, 308]);
const REDIRECT = new Set([301, 302, 303, 307, 308]);

type Reply = { status: number; location: string | undefined; retryAfterMs: number | undefined } | { failure: Failure };

/**
 * Asks an address as a browser would reach it: each redirect followed (and each hop asked in its
 * host's turn), HEAD first and GET where HEAD is refused, a request that may pass tried again.
 */
export async function probe(address: string, context: ProbeContext): Promise<Verdict> {
  const seen = new Set([address]);
  let at = address;
  let moved: Verdict['moved'];
  let permanent = true;
  let requests = 0;
  const verdict = (answer: Answer): Verdict => ({
    answer,
    requests,
    ...(at !== address && { at }),
    ...(moved && { moved }),
  });
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const asked = await ask(at, context);
    requests += asked.requests;
    const { reply } = asked;
    if ('failure' in reply) return verdict({ kind: 'unanswered', failure: reply.failure, tries: asked.tries });
    const next = REDIRECT.has(reply.status) && reply.location !== undefined ? resolved(reply.location, at) : undefined;
    if (next === undefined) return verdict(judged(reply.status, asked));
    // A temporary redirect says to keep asking the address before it: only a run of permanent ones
    // from the link's own address moves it.
    permanent &&= PERMANENT.has(reply.status);
    if (permanent) moved = { to: next, status: reply.status };
    if (seen.has(next)) return verdict({ kind: 'redirects', loop: true, count: hop + 1 });
    seen.add(next);
    at = next;
  }
  return verdict({ kind: 'redirects', loop: false, count: MAX_REDIRECTS });
}

/** The final answer of a status that is no redirect (or one that says nowhere). */
function judged(status: number, asked: { tries: number; waitMs?: number }): Answer {
  if (status < 400) return { kind: 'ok', status };
  if (status === 404 || status === 410) return { kind: 'gone', status };
  if (status === 429)
    return {
      kind: 'limited',
      tries: asked.tries,
      ...(asked.waitMs !== undefined && { wait: Math.ceil(asked.waitMs / 1000) }),
    };
  return { kind: 'status', status, reason: STATUS_CODES[status] ?? 'Unknown', tries: asked.tries };
}

/**
 * One address asked until it answers for sure: HEAD, then GET in the same turn when HEAD is
 * refused (405, 501, or any other 4xx but 429: some servers answer HEAD wrongly, and GET is what a
 * visitor's browser sends); and again after a wait while the answer may pass (a 429, a 5xx, no
 * answer), the host held meanwhile. `waitMs`: a Retry-After longer than the check waits.
 */
async function ask(
  address: string,
  context: ProbeContext,
): Promise<{ reply: Reply; tries: number; requests: number; waitMs?: number }> {
  const host = new URL(address).hostname;
  // Its name was not found for another address this run: not looked up again, nor counted as a request.
  if (context.unknownHosts.has(host)) return { reply: { failure: { kind: 'dns', host } }, tries: 1, requests: 0 };
  let method: 'HEAD' | 'GET' = 'HEAD';
  let requests = 0;
  for (let attempt = 0; ; attempt++) {
    let reply = await request(address, method, context);
    requests++;
    if (method === 'HEAD' && 'status' in reply && refusesHead(reply.status)) {
      method = 'GET';
      reply = await request(address, method, context);
      requests++;
    }
    const tries = attempt + 1;
    if ('failure' in reply && reply.failure.kind === 'dns' && attempt >= context.retries)
      context.unknownHosts.add(host);
    const wait = retryWait(reply, attempt, context.retryDelayMs);
    if (wait === undefined || attempt >= context.retries) return { reply, tries, requests };
    if (wait > context.maxWaitMs) return { reply, tries, requests, waitMs: wait };
    context.scheduler.holdUntil(host, Date.now() + wait);
  }
}

function refusesHead(status: number): boolean {
  return status === 501 || (status >= 400 && status < 500 && status !== 429);
}

/** How long to wait before asking again, or undefined when asking again would not help. */
function retryWait(reply: Reply, attempt: number, delayMs: number): number | undefined {
  const backoff = delayMs * 2 ** attempt;
  if ('failure' in reply) return reply.failure.kind === 'blocked' ? undefined : backoff;
  if (reply.status === 429 || (reply.status >= 500 && reply.status !== 501)) return reply.retryAfterMs ?? backoff;
  return undefined;
}

/** One request in its host's turn: the status and the headers that matter, never the body. */
function request(address: string, method: 'HEAD' | 'GET', context: ProbeContext): Promise<Reply> {
  const host = new URL(address).hostname;
  return context.scheduler.run(host, async () => {
    try {
      const response = await fetch(address, {
        method,
        redirect: 'manual',
        headers: { 'user-agent': context.userAgent, accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8' },
        signal: AbortSignal.timeout(context.timeoutMs),
      });
      // The status is the answer: the body, if any, is left unread and its connection freed.
      await response.body?.cancel().catch(() => undefined);
      return {
        status: response.status,
        location: response.headers.get('location') ?? undefined,
        retryAfterMs: retryAfterMs(response.headers.get('retry-after')),
      };
    } catch (error) {
      return { failure: failureOf(error, host) };
    }
  });
}

/** A Retry-After header in ms from now: a number of seconds, or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // An HTTP date names its day and month ("Sun, 01 Mar 2026 12:00:30 GMT"); Date.parse would take "-5" for a year.
  const date = /[a-z]{3}/i.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** A redirect's Location read against the address that sent it, without a #fragment; undefined when it is no URL. */
function resolved(location: string, base: string): string | undefined {
  if (!URL.canParse(location, base)) return undefined;
  const url = new URL(location, base);
  url.hash = '';
  return url.href;
}

/** Why fetch got no answer, from its error and the error's cause (undici's, or the system's). */
export function failureOf(error: unknown, host: string): Failure {
  const { name, message, cause } = error instanceof Error ? error : new Error(String(error));
  if (name === 'TimeoutError' || name === 'AbortError') return { kind: 'timeout' };
  const reason = cause instanceof Error ? (cause as NodeJS.ErrnoException) : undefined;
  const code = reason?.code ?? '';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') return { kind: 'dns', host };
  if (code === 'ECONNREFUSED') return { kind: 'refused' };
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET' || code === 'UND_ERR_CLOSED')
    return { kind: 'reset' };
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ETIMEDOUT')
    return { kind: 'timeout' };
  if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)) return { kind: 'tls', detail: reason?.message ?? code };
  // The Fetch standard's blocked ports (25, 6000, ...): browsers refuse them as fetch does.
  if (reason?.message === 'bad port') return { kind: 'blocked', detail: 'a port the Fetch standard blocks' };
  return { kind: 'other', detail: reason?.message ?? message };
}
