import { type Diagnostic, diagnostic } from '../../diagnostics/diagnostic';
import type { Site } from '../../model/site';
import { type KeptAnswer, readAnswers, writeAnswers } from './cache';
import { HostScheduler, type Politeness } from './hosts';
import { type ExternalLink, externalLinks } from './links';
import { probe, type Verdict } from './probe';
import { type SkipRule, skippedBy } from './skip';

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/** How `site check --external` asks. Each field is settable for tests; the CLI sets the age and the timeout. */
export interface ExternalCheckOptions extends Politeness {
  /** The project root: the cache of answers is kept under it (CACHE_FILE). */
  root: string;
  /** How long a good answer is trusted before the address is asked again, in ms; 0 asks everything. */
  maxAgeMs: number;
  /** How long a request may take to answer, in ms. */
  timeoutMs: number;
  /** How many times a request that may pass (a timeout, a 5xx, a 429) is tried again. */
  retries: number;
  /** The wait before the first retry, in ms, doubled at each; a longer Retry-After wins. */
  retryDelayMs: number;
  /** The longest a Retry-After may make the check wait, in ms. */
  maxWaitMs: number;
  /** The addresses not to ask (content/external-links.json). */
  skip: readonly SkipRule[];
  /** Told as each address is settled, for a live count. */
  progress?: (done: number, total: number) => void;
}

/**
 * Two requests at once per host, a quarter of a second apart, eight in all; ten seconds to answer;
 * two retries from a second; a week's trust.
 */
export const EXTERNAL_DEFAULTS = {
  maxAgeMs: WEEK_MS,
  timeoutMs: 10_000,
  perHost: 2,
  total: 8,
  pauseMs: 250,
  retries: 2,
  retryDelayMs: 1000,
  maxWaitMs: 60_000,
} as const satisfies Omit<ExternalCheckOptions, 'root' | 'skip'>;

/** What a check of the external links did, for its summary line. */
export interface ExternalSummary {
  /** Links that leave the site, counted where they are written. */
  links: number;
  /** Distinct addresses among them. */
  addresses: number;
  /** Addresses asked this run. */
  asked: number;
  /** Requests made to ask them: retries, redirects and GETs after a refused HEAD included. */
  requests: number;
  /** Addresses answered from the cache, asked within the age. */
  cached: number;
  /** Addresses the skip file leaves out. */
  skipped: number;
  /** Addresses asked that gave no answer at all (no name, no connection, no answer in time). */
  silent: number;
  /** Why the cache could not be written, if it could not. */
  cacheFailure?: Error;
}

/**
 * Asks every address the content links to outside the site, at most once per run, and reports
 * each link that is gone (EXT001), moved for good (EXT002), failed (EXT003) or did not answer
 * (EXT004) at the place it is written. Good answers are kept for the next run (cache.ts).
 */
export function checkExternalLinks(
  site: Site,
  options: ExternalCheckOptions,
): Promise<{ diagnostics: Diagnostic[]; summary: ExternalSummary }> {
  return askLinks(externalLinks(site), { ...options, userAgent: userAgentOf(site.content.config.baseUrl) });
}

/** `checkExternalLinks` of the links given, each address asked once with `userAgent`. */
export async function askLinks(
  links: readonly ExternalLink[],
  options: ExternalCheckOptions & { userAgent: string },
): Promise<{ diagnostics: Diagnostic[]; summary: ExternalSummary }> {
  const addresses = [...new Set(links.map((link) => link.address))];
  const kept = await readAnswers(options.root);
  const verdicts = new Map<string, Verdict>();
  const ask: string[] = [];
  let skipped = 0;
  const started = Date.now();
  for (const address of addresses) {
    const answer = kept.get(address);
    if (skippedBy(options.skip, address)) skipped++;
    else if (answer && fresh(answer, started, options.maxAgeMs)) verdicts.set(address, verdictOf(answer));
    else ask.push(address);
  }
  const context = {
    scheduler: new HostScheduler(options),
    userAgent: options.userAgent,
    timeoutMs: options.timeoutMs,
    retries: options.retries,
    retryDelayMs: options.retryDelayMs,
    maxWaitMs: options.maxWaitMs,
    unknownHosts: new Set<string>(),
  };
  let settled = 0;
  options.progress?.(0, ask.length);
  let requests = 0;
  let silent = 0;
  await Promise.all(
    ask.map(async (address) => {
      const verdict = await probe(address, context);
      verdicts.set(address, verdict);
      requests += verdict.requests;
      if (verdict.answer.kind === 'unanswered') silent++;
      if (verdict.answer.kind === 'ok')
        kept.set(address, {
          checked: Date.now(),
          status: verdict.answer.status,
          ...(verdict.moved && { moved: verdict.moved }),
          ...(verdict.at && { at: verdict.at }),
        });
      // A failure is asked again next time, whatever the age.
      else kept.delete(address);
      options.progress?.(++settled, ask.length);
    }),
  );
  // What no run asks within a week (or the age asked for, if longer) is forgotten: the file does not grow for ever.
  const keptFor = Math.max(options.maxAgeMs, EXTERNAL_DEFAULTS.maxAgeMs);
  for (const [address, answer] of kept) if (!fresh(answer, Date.now(), keptFor)) kept.delete(address);
  const cacheFailure = await writeAnswers(options.root, kept);
  const diagnostics = links.flatMap((link) => {
    const verdict = verdicts.get(link.address);
    const found = verdict && diagnose(link, verdict, options.timeoutMs);
    return found ? [found] : [];
  });
  const summary: ExternalSummary = {
    links: links.length,
    addresses: addresses.length,
    asked: ask.length,
    requests,
    cached: addresses.length - ask.length - skipped,
    skipped,
    silent,
  };
  if (cacheFailure) summary.cacheFailure = cacheFailure;
  return { diagnostics, summary };
}

/** Whether a kept answer is younger than `maxAgeMs` (one from the future, a clock put back, is not). */
function fresh(answer: KeptAnswer, now: number, maxAgeMs: number): boolean {
  return answer.checked <= now && now - answer.checked < maxAgeMs;
}

function verdictOf(answer: KeptAnswer): Verdict {
  return {
    answer: { kind: 'ok', status: answer.status },
    requests: 0,
    ...(answer.moved && { moved: answer.moved }),
    ...(answer.at && { at: answer.at }),
  };
}

/**
 * The user agent of every request: a browser-like product token (some servers refuse any other)
 * and, as crawlers do, whose check it is and where to read about it: the site's own address.
 */
export function userAgentOf(baseUrl: string): string {
  return `Mozilla/5.0 (compatible; link check of ${new URL(baseUrl).host}; +${baseUrl})`;
}

/** The diagnostic of one link from its address's verdict; none for a good answer where it was written. */
function diagnose(link: ExternalLink, verdict: Verdict, timeoutMs: number): Diagnostic | undefined {
  const { answer, at, moved } = verdict;
  const url = link.href;
  switch (answer.kind) {
    case 'ok':
      return moved
        ? diagnostic('EXT002', link.place, { url, to: withFragment(moved.to, url), status: moved.status })
        : undefined;
    case 'gone':
      return diagnostic('EXT001', link.place, { url, status: answer.status, at });
    case 'status':
      return diagnostic('EXT003', link.place, {
        url,
        at,
        kind: 'status',
        status: answer.status,
        reason: answer.reason,
        tries: answer.tries,
      });
    case 'limited':
      return diagnostic('EXT003', link.place, { url, at, kind: 'limited', tries: answer.tries, wait: answer.wait });
    case 'redirects':
      return diagnostic('EXT003', link.place, { url, kind: 'redirects', loop: answer.loop, count: answer.count });
    case 'unanswered': {
      const { failure, tries } = answer;
      if (failure.kind === 'timeout')
        return diagnostic('EXT004', link.place, { url, at, tries, kind: 'timeout', seconds: timeoutMs / 1000 });
      if (failure.kind === 'dns')
        return diagnostic('EXT004', link.place, { url, at, tries, kind: 'dns', host: failure.host });
      if (failure.kind === 'refused' || failure.kind === 'reset')
        return diagnostic('EXT004', link.place, { url, at, tries, kind: failure.kind });
      return diagnostic('EXT004', link.place, { url, at, tries, kind: failure.kind, detail: failure.detail });
    }
  }
}

/**
 * The new address with the link's own #fragment: the section is likely still there (a redirect's
 * address never keeps one, see probe).
 */
function withFragment(to: string, href: string): string {
  return `${to}${URL.canParse(href) ? new URL(href).hash : ''}`;
}
