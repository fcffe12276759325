import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSite } from '../../../../src/build/pipeline';
import { askLinks, checkExternalLinks, type ExternalCheckOptions } from '../../../../src/check/external/check';
import { externalLinks } from '../../../../src/check/external/links';
import { loadSkipRules, SKIP_FILE } from '../../../../src/check/external/skip';
import type { Diagnostic } from '../../../../src/diagnostics/diagnostic';
import type { Site } from '../../../../src/model/site';
import { copyOfContent } from '../../../support/content';
import { startLinkServer } from '../../../support/linkServer';
import { freePort } from '../../../support/ports';

// Every address asked here is on loopback: the content's real links (all https) are skipped by the
// skip file each copy gets, and the article and JSON links added lead to the test's own server.
// An integration test though it needs no build: the checker asks a real server over sockets, and
// most of its time is spent waiting out timeouts, retries and pauses between requests, not computing.

const ARTICLE = 'content/blog/tech/Links.en.md';
const PROJECTS = 'content/pages/projects.json';
const PROFESSIONAL = 'content/pages/professional.json';

let server: Awaited<ReturnType<typeof startLinkServer>>;
let content: Awaited<ReturnType<typeof copyOfContent>>;
let site: Site;
let article: string;
/** A loopback port nothing listens on. */
let closed: string;
const roots: string[] = [];

/** The article, written once the server's port is known. */
function articleText(o: string): string {
  return `---
title: Links out
description: An article whose links leave the site.
date: 2024-03-11
---

The [guide](${o}/ok) and [a moved one](${o}/found) work.

- [Old](${o}/moved#setup) and [older](${o}/moved-308).
- [Missing](${o}/missing), [gone](${o}/gone), [gone too](${o}/moved-away).
- [Busy](${o}/busy), [flaky](${o}/flaky), [slow](${o}/slow).
- [No HEAD](${o}/no-head), [down](${o}/down), [forbidden](${o}/forbidden), [loop](${o}/loop).
- [Limited](${o}/limited), [closed](${o}/closed), [nobody](${closed}/x).

An autolink <${o}/missing?autolink>, an image ![chart](${o}/ok?image) and [a reference][ref].

[ref]: ${o}/gone?reference
`;
}

/** The 1-based line and column where `needle` starts in `text`. */
function placeIn(text: string, needle: string): { line: number; column: number } {
  const offset = text.indexOf(needle);
  if (offset < 0) throw new Error(`${needle} is not in the text`);
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}

/** Where the article's link written as `needle` ("[Missing]") is. */
const inArticle = (needle: string) => ({ file: ARTICLE, ...placeIn(article, needle) });

beforeAll(async () => {
  server = await startLinkServer({ slowMs: 3000 });
  closed = `http://127.0.0.1:${await freePort()}`;
  content = await copyOfContent({ articles: 'clean' });
  article = articleText(server.origin);
  await writeFile(path.join(content.root, ARTICLE), article);
  await content.edit(PROJECTS, (text) =>
    text.replace('https://github.com/duarte-salgueiro/speech-nlp', `${server.origin}/gone?json`),
  );
  await content.edit(PROFESSIONAL, (text) =>
    text.replace(
      '"en": "Since August 2023 I have',
      `"en": "See [the team](${server.origin}/missing?dialog). Since August 2023 I have`,
    ),
  );
  await writeFile(
    path.join(content.root, SKIP_FILE),
    JSON.stringify({ skip: [{ pattern: 'https://*', reason: 'the tests ask only their loopback server' }] }),
  );
  const loaded = await loadSite(content.root);
  if (!loaded.modelled) throw new Error(`the content copy does not model: ${JSON.stringify(loaded.diagnostics)}`);
  site = loaded.modelled;
});

afterAll(async () => {
  await server?.close();
  await content?.cleanup();
  await Promise.all(roots.map((root) => rm(root, { recursive: true, force: true })));
});

/**
 * Options that keep the test to seconds: short timeout, waits and pauses; a cache of its own unless
 * `root` is given.
 */
async function options(more: Partial<ExternalCheckOptions> = {}): Promise<ExternalCheckOptions> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'site-external-cache-'));
  roots.push(root);
  const diagnostics: Diagnostic[] = [];
  const skip = await loadSkipRules(content.root, diagnostics);
  expect(diagnostics).toEqual([]);
  return {
    root,
    maxAgeMs: 60_000,
    timeoutMs: 400,
    perHost: 2,
    total: 8,
    pauseMs: 10,
    retries: 2,
    retryDelayMs: 50,
    maxWaitMs: 5_000,
    skip,
    ...more,
  };
}

/** The requests the server saw from `from` on, by path. */
function requestsSince(from: number): Map<string, string[]> {
  const byPath = new Map<string, string[]>();
  for (const seen of server.seen.slice(from)) byPath.set(seen.path, [...(byPath.get(seen.path) ?? []), seen.method]);
  return byPath;
}

const brief = (d: Diagnostic) => ({
  code: d.code,
  severity: d.severity,
  file: d.file,
  line: d.line,
  column: d.column,
  message: d.message,
});

describe('the external links of the content', () => {
  it('are every link and image leaving the site, in markdown and in the JSON content, where each is written', () => {
    const o = server.origin;
    const found = externalLinks(site)
      .filter((link) => link.href.startsWith(o))
      .map((link) => ({
        href: link.href,
        address: link.address,
        file: link.place.file,
        line: link.place.line,
        column: link.place.column,
      }));
    expect(found).toContainEqual({ href: `${o}/moved#setup`, address: `${o}/moved`, ...inArticle('[Old]') });
    expect(found).toContainEqual({
      href: `${o}/missing?autolink`,
      address: `${o}/missing?autolink`,
      ...inArticle('<'),
    });
    expect(found).toContainEqual({ href: `${o}/ok?image`, address: `${o}/ok?image`, ...inArticle('![chart]') });
    expect(found).toContainEqual({
      href: `${o}/gone?reference`,
      address: `${o}/gone?reference`,
      ...inArticle('[a reference]'),
    });
    expect(found).toContainEqual({
      href: `${o}/gone?json`,
      address: `${o}/gone?json`,
      file: PROJECTS,
      line: 64,
      column: 7,
    });
    // A markdown text inside JSON: its links are placed on its field, as its other findings are.
    expect(found).toContainEqual({
      href: `${o}/missing?dialog`,
      address: `${o}/missing?dialog`,
      file: PROFESSIONAL,
      line: 36,
      column: 9,
    });
    const all = externalLinks(site).map((link) => link.href);
    expect(all).toContain('https://github.com/duarte-salgueiro/trash4goods');
    // The site's own address and its settings are not links that leave it; internal links and mail are not either.
    expect(all.filter((href) => href.startsWith(site.content.config.baseUrl) || !/^https?:/.test(href))).toEqual([]);
  });
});

describe('site check --external against a loopback server', () => {
  let first: Awaited<ReturnType<typeof checkExternalLinks>>;
  let firstOptions: ExternalCheckOptions;
  let firstRequests: Map<string, string[]>;
  let firstSeen: typeof server.seen;

  beforeAll(async () => {
    firstOptions = await options();
    const from = server.seen.length;
    first = await checkExternalLinks(site, firstOptions);
    firstRequests = requestsSince(from);
    firstSeen = server.seen.slice(from);
  });

  it('reports each answer at the link: gone as an error, moved and failing as warnings, good answers not at all', () => {
    const o = server.origin;
    expect(first.diagnostics.map(brief)).toEqual([
      {
        code: 'EXT002',
        severity: 'warning',
        ...inArticle('[Old]'),
        message: `"${o}/moved#setup" has moved for good (301) to "${o}/ok#setup"`,
      },
      {
        code: 'EXT002',
        severity: 'warning',
        ...inArticle('[older]'),
        message: `"${o}/moved-308" has moved for good (308) to "${o}/ok"`,
      },
      { code: 'EXT001', severity: 'error', ...inArticle('[Missing]'), message: `"${o}/missing" answers 404 Not Found` },
      { code: 'EXT001', severity: 'error', ...inArticle('[gone]'), message: `"${o}/gone" answers 410 Gone` },
      {
        code: 'EXT001',
        severity: 'error',
        ...inArticle('[gone too]'),
        message: `"${o}/moved-away" answers 404 Not Found (at "${o}/missing", where it redirects)`,
      },
      {
        code: 'EXT004',
        severity: 'warning',
        ...inArticle('[slow]'),
        message: `"${o}/slow" did not answer within 0.4 s (3 tries)`,
      },
      {
        code: 'EXT003',
        severity: 'warning',
        ...inArticle('[down]'),
        message: `"${o}/down" answers 503 Service Unavailable (3 tries)`,
      },
      {
        code: 'EXT003',
        severity: 'warning',
        ...inArticle('[forbidden]'),
        message: `"${o}/forbidden" answers 403 Forbidden`,
      },
      { code: 'EXT003', severity: 'warning', ...inArticle('[loop]'), message: `"${o}/loop" redirects in a loop` },
      {
        code: 'EXT003',
        severity: 'warning',
        ...inArticle('[Limited]'),
        message: `"${o}/limited" still answers 429 Too Many Requests after 3 tries`,
      },
      {
        code: 'EXT003',
        severity: 'warning',
        ...inArticle('[closed]'),
        message: `"${o}/closed" answers 429 Too Many Requests and asks to be left alone for 3,600 s`,
      },
      {
        code: 'EXT004',
        severity: 'warning',
        ...inArticle('[nobody]'),
        message: `"${closed}/x" refused the connection (3 tries)`,
      },
      {
        code: 'EXT001',
        severity: 'error',
        ...inArticle('<'),
        message: `"${o}/missing?autolink" answers 404 Not Found`,
      },
      {
        code: 'EXT001',
        severity: 'error',
        ...inArticle('[a reference]'),
        message: `"${o}/gone?reference" answers 410 Gone`,
      },
      {
        code: 'EXT001',
        severity: 'error',
        file: PROJECTS,
        line: 64,
        column: 7,
        message: `"${o}/gone?json" answers 410 Gone`,
      },
      {
        code: 'EXT001',
        severity: 'error',
        file: PROFESSIONAL,
        line: 36,
        column: 9,
        message: `"${o}/missing?dialog" answers 404 Not Found`,
      },
    ]);
  });

  it('gives each finding a hint, and a dead link the Wayback Machine address to look at', () => {
    for (const d of first.diagnostics) expect(d.hint.length, d.message).toBeGreaterThan(20);
    const gone = first.diagnostics.find((d) => d.message.startsWith(`"${server.origin}/gone"`));
    expect(gone?.hint).toContain(`https://web.archive.org/web/*/${server.origin}/gone (not asked for you)`);
    const moved = first.diagnostics.find((d) => d.code === 'EXT002');
    expect(moved?.hint).toContain(`Write "${server.origin}/ok#setup"`);
    // The archive is named, never asked: every request went to the loopback server (or to nobody).
    expect(first.summary.requests).toBe(firstSeen.length + 3);
  });

  it('asks with HEAD, and with GET where HEAD is refused', () => {
    expect(firstRequests.get('/ok?image')).toEqual(['HEAD']);
    expect(firstRequests.get('/no-head')).toEqual(['HEAD', 'GET']);
    // A 404 to HEAD is confirmed by GET, as some servers answer HEAD wrongly.
    // (It is asked twice: as linked, and as where /moved-away leads.)
    expect(firstRequests.get('/missing')?.sort()).toEqual(['GET', 'GET', 'HEAD', 'HEAD']);
  });

  it('tries a 503 again and takes its later answer', () => {
    expect(firstRequests.get('/flaky')).toEqual(['HEAD', 'HEAD']);
    expect(first.diagnostics.some((d) => d.message.includes('/flaky'))).toBe(false);
  });

  it("waits as a 429's Retry-After asks before asking again, and never reports a 429 as an error", () => {
    const busy = firstSeen.filter((seen) => seen.path === '/busy');
    expect(busy.map((seen) => seen.method)).toEqual(['HEAD', 'HEAD']);
    expect((busy[1]?.at ?? 0) - (busy[0]?.at ?? 0)).toBeGreaterThanOrEqual(990);
    expect(first.diagnostics.some((d) => d.message.includes('/busy'))).toBe(false);
    expect(first.diagnostics.filter((d) => d.message.includes('429')).map((d) => d.severity)).toEqual([
      'warning',
      'warning',
    ]);
    // Asked to wait an hour, longer than the check waits: asked once, not again.
    expect(firstRequests.get('/closed')).toEqual(['HEAD']);
  });

  it('follows redirects, temporary ones without a word', () => {
    expect(firstRequests.get('/found')).toEqual(['HEAD']);
    expect(first.diagnostics.some((d) => d.message.includes('/found'))).toBe(false);
  });

  it('names the site in its user agent', () => {
    for (const seen of firstSeen)
      expect(seen.userAgent).toBe(
        'Mozilla/5.0 (compatible; link check of duartesalgueiro.pt; +https://duartesalgueiro.pt)',
      );
  });

  it('counts what it did', () => {
    const o = server.origin;
    const addresses = new Set(externalLinks(site).map((link) => link.address));
    const loopback = [...addresses].filter((a) => a.startsWith(o) || a.startsWith(closed)).length;
    expect(first.summary).toEqual({
      links: externalLinks(site).length,
      addresses: addresses.size,
      asked: loopback,
      requests: first.summary.requests,
      cached: 0,
      skipped: addresses.size - loopback,
      silent: 2,
    });
  });

  it('asks nothing fresh a second time, and every failure again', async () => {
    const from = server.seen.length;
    const second = await checkExternalLinks(site, { ...firstOptions });
    const asked = requestsSince(from);
    for (const good of ['/ok', '/found', '/moved', '/moved-308', '/no-head', '/busy', '/flaky', '/ok?image'])
      expect(asked.get(good), good).toBeUndefined();
    for (const failed of [
      '/missing',
      '/gone',
      '/moved-away',
      '/slow',
      '/down',
      '/forbidden',
      '/loop',
      '/limited',
      '/closed',
      '/gone?json',
    ])
      expect(asked.has(failed), failed).toBe(true);
    // The same findings, the moved links' included, from the kept answers.
    expect(second.diagnostics.map(brief)).toEqual(first.diagnostics.map(brief));
    expect(second.summary.cached).toBe(8);
  });

  it('asks again an answer older than the age it is given', async () => {
    const from = server.seen.length;
    await checkExternalLinks(site, { ...firstOptions, maxAgeMs: 0 });
    expect(requestsSince(from).get('/ok?image')).toEqual(['HEAD']);
  });
});

describe('the skip file', () => {
  it('leaves out every address a pattern matches: none of them is asked or reported', async () => {
    const base = await options();
    // A skip file of its own, beside the copy's: the real links and everything under /gone.
    await mkdir(path.join(base.root, 'content'));
    const patterns = [
      { pattern: 'https://*', reason: 'the tests ask only their loopback server' },
      { pattern: `${server.origin.toUpperCase()}/GONE*`, reason: 'a pattern ignores case' },
    ];
    await writeFile(path.join(base.root, SKIP_FILE), JSON.stringify({ skip: patterns }));
    const diagnostics: Diagnostic[] = [];
    const skip = await loadSkipRules(base.root, diagnostics);
    expect(diagnostics).toEqual([]);
    const from = server.seen.length;
    const checked = await checkExternalLinks(site, { ...base, skip });
    const asked = requestsSince(from);
    expect([...asked.keys()].filter((p) => p.startsWith('/gone'))).toEqual([]);
    expect(asked.has('/missing')).toBe(true);
    expect(checked.diagnostics.filter((d) => d.message.includes('/gone'))).toEqual([]);
    const real = new Set(
      externalLinks(site).flatMap((link) => (link.address.startsWith('https://') ? [link.address] : [])),
    );
    // The real links, and /gone, /gone?reference and /gone?json.
    expect(checked.summary.skipped).toBe(real.size + 3);
  });
});

describe('politeness', () => {
  /** Twelve links to one host whose every answer takes 150 ms: a checker without limits would ask them all at once. */
  async function askTwelve(more: Partial<ExternalCheckOptions>) {
    const slow = await startLinkServer({ delayMs: 150 });
    try {
      const links = Array.from({ length: 12 }, (_, n) => ({
        href: `${slow.origin}/ok?n=${n}`,
        address: `${slow.origin}/ok?n=${n}`,
        place: { file: ARTICLE, line: n + 1, column: 1 },
      }));
      const checked = await askLinks(links, { ...(await options(more)), userAgent: 'test' });
      expect(checked.diagnostics).toEqual([]);
      return { most: slow.mostInFlight(), starts: slow.seen.map((seen) => seen.at) };
    } finally {
      await slow.close();
    }
  }

  it('has at most two requests at once in flight to a host, and does have two', async () => {
    expect((await askTwelve({ pauseMs: 0, total: 8 })).most).toBe(2);
  });

  it('holds to the total limit below the per-host one', async () => {
    expect((await askTwelve({ pauseMs: 0, perHost: 4, total: 3 })).most).toBe(3);
  });

  it('pauses between two requests to a host', async () => {
    const { starts } = await askTwelve({ pauseMs: 200, total: 8 });
    const gaps = starts.slice(1).map((at, i) => at - (starts[i] as number));
    // Measured where the requests arrive, a connection made or not adds its own few milliseconds;
    // without a pause two start together.
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(120);
  });
});
