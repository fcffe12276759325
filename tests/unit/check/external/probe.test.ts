import { describe, expect, it } from 'vitest';
import { HostScheduler } from '../../../../src/check/external/hosts';
import { failureOf, retryAfterMs } from '../../../../src/check/external/probe';

describe('Retry-After', () => {
  const now = Date.parse('2026-03-01T12:00:00Z');
  it('reads seconds and HTTP dates, and nothing else', () => {
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
    expect(retryAfterMs('Sun, 01 Mar 2026 12:00:30 GMT', now)).toBe(30_000);
    // A date already past: ask again at once.
    expect(retryAfterMs('Sun, 01 Mar 2026 11:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs(null, now)).toBeUndefined();
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs('-5', now)).toBeUndefined();
  });
});

describe('why fetch got no answer', () => {
  /** fetch's error as undici throws it: a TypeError whose cause is the system's error. */
  const failed = (code: string, message = code) =>
    new TypeError('fetch failed', { cause: Object.assign(new Error(message), { code }) });

  it('tells a name not found, a refusal, a cut, a timeout and a certificate apart', () => {
    // A name not found is not asked here (tests reach loopback alone): the error is made as undici makes it.
    expect(failureOf(failed('ENOTFOUND', 'getaddrinfo ENOTFOUND gone.example'), 'gone.example')).toEqual({
      kind: 'dns',
      host: 'gone.example',
    });
    expect(failureOf(failed('EAI_AGAIN'), 'x.example')).toEqual({ kind: 'dns', host: 'x.example' });
    expect(failureOf(failed('ECONNREFUSED'), 'x')).toEqual({ kind: 'refused' });
    expect(failureOf(failed('ECONNRESET'), 'x')).toEqual({ kind: 'reset' });
    expect(failureOf(new DOMException('The operation was aborted due to timeout', 'TimeoutError'), 'x')).toEqual({
      kind: 'timeout',
    });
    expect(failureOf(failed('CERT_HAS_EXPIRED', 'certificate has expired'), 'x')).toEqual({
      kind: 'tls',
      detail: 'certificate has expired',
    });
    expect(failureOf(new TypeError('fetch failed', { cause: new Error('bad port') }), 'x')).toEqual({
      kind: 'blocked',
      detail: 'a port the Fetch standard blocks',
    });
    expect(failureOf(new TypeError('Invalid URL'), 'x')).toEqual({ kind: 'other', detail: 'Invalid URL' });
  });
});

describe('the host scheduler', () => {
  it('lets a request to another host go ahead of a host held back by a Retry-After', async () => {
    const scheduler = new HostScheduler({ perHost: 2, total: 8, pauseMs: 0 });
    const started: string[] = [];
    scheduler.holdUntil('held.example', Date.now() + 300);
    const began = Date.now();
    const held = scheduler.run('held.example', async () => {
      started.push('held');
      return Date.now() - began;
    });
    const other = scheduler.run('other.example', async () => {
      started.push('other');
    });
    await other;
    expect(started).toEqual(['other']);
    expect(await held).toBeGreaterThanOrEqual(295);
    expect(started).toEqual(['other', 'held']);
  });
});
