import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CHROMIUM_ARGS } from '../support/chromium';
import { benchTool } from './tools';

/**
 * Lighthouse is installed on first use (see `benchTool`), never a dependency of the site. The
 * version is pinned so that scores from different commits are comparable: a new Lighthouse
 * reweighs categories and changes audits, which would show up as a change of the site.
 */
export const LIGHTHOUSE_SPEC = 'lighthouse@13.5.0';

/** The categories the benchmark reports; Lighthouse skips the others' audits entirely. */
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

/** One page of the site for Lighthouse to load. */
export interface LighthousePage {
  /** The kind of page it stands for (`article`, `gallery`, …), as the benchmark labels it. */
  kind: string;
  /** The path on the served site, starting with `/`. */
  path: string;
  /**
   * The HTTP status the page is served with; 200 unless given. Lighthouse refuses to audit a
   * document with an error status, so a page that is meant to be one (the not-found page) says so
   * here, and any other page that answers with an unexpected status fails the run.
   */
  status?: number;
}

/** An audit that lowers a category's score. */
export interface FailedAudit {
  category: (typeof CATEGORIES)[number];
  /** Lighthouse's audit id, e.g. `meta-description`. */
  id: string;
  /** Lighthouse's title of the failing audit, e.g. "Document does not have a meta description". */
  title: string;
}

/** What Lighthouse measured on one page, with its default mobile settings. */
export interface LighthouseResult {
  kind: string;
  url: string;
  /** Category scores, 0–100. */
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  /** Largest Contentful Paint, simulated on a throttled mobile device, in milliseconds. */
  lcpMs: number;
  /** Cumulative Layout Shift, unitless. */
  cls: number;
  /** Total Blocking Time, simulated, in milliseconds. */
  tbtMs: number;
  /**
   * The weighted audits that fail in accessibility, best practices and SEO, so a score below 100
   * comes with what to fix. Performance audits are left out: its score follows the metrics above.
   */
  failedAudits: FailedAudit[];
}

/** The part of Lighthouse's report (`LH.Result`) read here. */
interface LighthouseReport {
  runtimeError?: { code: string; message: string };
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] } | undefined>;
  audits: Record<
    string,
    { title: string; score: number | null; scoreDisplayMode: string; numericValue?: number } | undefined
  >;
}

/** The part of Lighthouse's module API used here: `lighthouse(url, flags)`. */
interface LighthouseModule {
  default(url: string, flags: Record<string, unknown>): Promise<{ lhr: LighthouseReport } | undefined>;
}

/** The part of chrome-launcher (installed with Lighthouse) used here. */
interface ChromeLauncherModule {
  launch(options: {
    chromePath: string;
    chromeFlags: string[];
    logLevel: 'silent';
  }): Promise<{ port: number; kill(): void }>;
}

/**
 * Runs Lighthouse over each page of `origin` in turn, with Lighthouse's default mobile settings
 * (emulated phone, simulated throttling). Pages run one after the other because the machine has
 * two cores: concurrent runs would steal CPU from each other and skew the timings. One Chromium
 * serves every page; Lighthouse resets storage and cache before each. Throws on the first page
 * Lighthouse cannot audit, naming its URL.
 */
export async function runLighthouse(origin: string, pages: LighthousePage[]): Promise<LighthouseResult[]> {
  assertLoopback(origin);
  const modules = path.join(await benchTool(LIGHTHOUSE_SPEC), 'node_modules');
  const lighthouse = (await import(
    pathToFileURL(path.join(modules, 'lighthouse/core/index.js')).href
  )) as LighthouseModule;
  const launcher = (await import(
    pathToFileURL(path.join(modules, 'chrome-launcher/dist/index.js')).href
  )) as ChromeLauncherModule;
  const chrome = await launcher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', ...CHROMIUM_ARGS],
    logLevel: 'silent',
  });
  try {
    const results: LighthouseResult[] = [];
    for (const page of pages) results.push(await auditPage(lighthouse, chrome.port, origin, page));
    return results;
  } finally {
    chrome.kill();
  }
}

/** The benchmark only ever loads the site it serves itself on this machine. */
function assertLoopback(origin: string): void {
  const host = new URL(origin).hostname;
  if (host !== 'localhost' && host !== '[::1]' && !/^127(\.\d{1,3}){3}$/.test(host)) {
    throw new Error(`Lighthouse runs only against a loopback origin (127.0.0.0/8, localhost, [::1]), not ${origin}`);
  }
}

/**
 * Lighthouse's codes for a page load whose trace came out incomplete ("Something went wrong with
 * recording the trace… Please run Lighthouse again"). On this busy two-core machine about one run
 * in twenty ends in NO_NAVSTART; it says nothing about the page, so such a page is run once more.
 */
const BAD_TRACE_CODES = new Set(['NO_TRACING_STARTED', 'NO_RESOURCE_REQUEST', 'NO_NAVSTART', 'NO_DCL', 'NO_FMP']);

/** One Lighthouse run over `url` in the Chromium listening on `port`. */
async function lighthouseReport(
  lighthouse: LighthouseModule,
  port: number,
  url: string,
  ignoreStatusCode: boolean,
): Promise<LighthouseReport> {
  let result: { lhr: LighthouseReport } | undefined;
  try {
    result = await lighthouse.default(url, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...CATEGORIES],
      ignoreStatusCode,
    });
  } catch (error) {
    throw new Error(`Lighthouse failed on ${url}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  if (!result) throw new Error(`Lighthouse returned no report for ${url}`);
  return result.lhr;
}

/** Lighthouse's scores and metrics for one page, after checking it answers with its expected status. */
async function auditPage(
  lighthouse: LighthouseModule,
  port: number,
  origin: string,
  page: LighthousePage,
): Promise<LighthouseResult> {
  const url = new URL(page.path, origin).href;
  const expected = page.status ?? 200;
  // Lighthouse only tells an error status apart from success, so the exact status is checked here.
  const served = await fetch(url).then(
    (response) => response.status,
    (error: unknown) => {
      throw new Error(
        `Lighthouse: ${url} did not answer: ${error instanceof Error ? String(error.cause ?? error.message) : String(error)}`,
        { cause: error },
      );
    },
  );
  if (served !== expected) throw new Error(`Lighthouse: ${url} answered ${served}, expected ${expected}`);

  let lhr = await lighthouseReport(lighthouse, port, url, expected >= 400);
  if (lhr.runtimeError && BAD_TRACE_CODES.has(lhr.runtimeError.code)) {
    process.stderr.write(`Lighthouse: ${lhr.runtimeError.code} on ${url}, running it again\n`);
    lhr = await lighthouseReport(lighthouse, port, url, expected >= 400);
  }
  if (lhr.runtimeError)
    throw new Error(`Lighthouse could not audit ${url}: ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);

  const score = (category: (typeof CATEGORIES)[number]): number => {
    const value = lhr.categories[category]?.score;
    if (value === null || value === undefined) throw new Error(`Lighthouse gave no ${category} score for ${url}`);
    return Math.round(value * 100);
  };
  const metric = (id: string): number => {
    const value = lhr.audits[id]?.numericValue;
    if (value === undefined) throw new Error(`Lighthouse gave no ${id} value for ${url}`);
    return value;
  };
  const failedAudits = (['accessibility', 'best-practices', 'seo'] as const).flatMap((category) =>
    (lhr.categories[category]?.auditRefs ?? []).flatMap(({ id, weight }) => {
      const audit = lhr.audits[id];
      const failing = weight > 0 && audit !== undefined && audit.score !== null && audit.score < 1;
      return failing ? [{ category, id, title: audit.title }] : [];
    }),
  );

  return {
    kind: page.kind,
    url,
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    lcpMs: Math.round(metric('largest-contentful-paint')),
    cls: Number(metric('cumulative-layout-shift').toFixed(3)),
    tbtMs: Math.round(metric('total-blocking-time')),
    failedAudits,
  };
}
