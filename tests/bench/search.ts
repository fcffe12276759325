import { readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { LANGUAGES, type Lang } from '../../src/shared/lang';
import { loadSearchIndex, searchIn } from '../../src/shared/search';
import { quantile, stats } from './measure';
import { serveSite } from './serve';

/**
 * A fixed set of queries per language: whole words, accents left out, plurals and other inflections,
 * a prefix being typed, a typo and two-word queries, so the figures are comparable between commits.
 */
export const QUERIES: Record<Lang, string[]> = {
  en: [
    'container',
    'containers',
    'concert',
    'garden museum',
    'brows',
    'reviews',
    'deploying',
    'contaner',
    'coffee bread recipe',
    'harbour',
  ],
  pt: [
    'música',
    'musica',
    'corrida',
    'correr',
    'orcamento',
    'azulej',
    'publicacao',
    'contentores',
    'jardim museu',
    'guitrra',
  ],
};

export interface IndexFigures {
  lang: Lang;
  documents: number;
  bytes: number;
  gzipBytes: number;
  brotliBytes: number;
  loadMs: number;
  /** Per-query latency in the process, over every query of the set repeated. */
  queryMedianMs: number;
  queryP99Ms: number;
}

/** Size of each language's index in dist/ and the latency of the query set against it, in process. */
export async function indexFigures(distDir: string, repeat = 200): Promise<IndexFigures[]> {
  const figures: IndexFigures[] = [];
  for (const lang of LANGUAGES) {
    const files: string[] = [];
    const read = async (url: string) => {
      const text = await readFile(path.join(distDir, url.slice(1)), 'utf8');
      files.push(text);
      return text;
    };
    const started = performance.now();
    const index = await loadSearchIndex(lang, read);
    const loadMs = performance.now() - started;
    const latencies: number[] = [];
    for (let round = 0; round < repeat; round++) {
      for (const query of QUERIES[lang]) {
        const t = performance.now();
        searchIn(index, query);
        latencies.push(performance.now() - t);
      }
    }
    // Each file is compressed on its own, as it is served.
    const raw = files.map((text) => Buffer.from(text));
    const sum = (sizes: number[]) => sizes.reduce((a, b) => a + b, 0);
    figures.push({
      lang,
      documents: index.documentCount,
      bytes: sum(raw.map((b) => b.length)),
      gzipBytes: sum(raw.map((b) => gzipSync(b, { level: 9 }).length)),
      brotliBytes: sum(raw.map((b) => brotliCompressSync(b).length)),
      loadMs,
      queryMedianMs: stats(latencies).median,
      queryP99Ms: quantile(latencies, 0.99),
    });
  }
  return figures;
}

export interface ApiFigures {
  connections: number;
  /** Requests per second offered in the steady run. */
  offeredRate: number;
  requests: number;
  errors: number;
  non2xx: number;
  medianMs: number;
  p99Ms: number;
  /** Requests per second answered when the connections send as fast as they can. */
  capacityPerSecond: number;
  saturatedP99Ms: number;
}

/**
 * `site serve` over the built site, with 50 keep-alive connections open on loopback sending the
 * query set in both languages through `/api/blog_posts/search`. First each connection acts like a
 * reader typing: a request, its answer, then a pause (exponential, so the 50 together offer about
 * `rate` requests a second without moving in step); the latency is measured per request. Then
 * autocannon sends on every connection as fast as answers come back: the server's capacity.
 */
export async function apiFigures(
  siteRoot: string,
  options: { connections?: number; seconds?: number; rate?: number } = {},
): Promise<ApiFigures> {
  const connections = options.connections ?? 50;
  // The search box sends at most one request per debounce interval (250 ms) while a reader types:
  // 50 readers typing at once offer at most 200 requests a second.
  const rate = options.rate ?? 200;
  // Ten seconds: about 2000 requests, so the 99th percentile rests on some twenty of them.
  const seconds = options.seconds ?? 10;
  const server = await serveSite(siteRoot);
  try {
    const paths = LANGUAGES.flatMap((lang) =>
      QUERIES[lang].map((query) => `/api/blog_posts/search?searchWord=${encodeURIComponent(query)}&language=${lang}`),
    );
    const requests = paths.map((p) => ({ method: 'GET' as const, path: p }));
    await autocannon({ url: server.origin, connections, duration: 1, requests }); // warm-up: JIT, the indexes' first use
    const steady = await readersTyping(server.origin, paths, connections, rate, seconds);
    const saturated = await autocannon({ url: server.origin, connections, duration: seconds, requests });
    return {
      connections,
      offeredRate: rate,
      requests: steady.latencies.length,
      errors: steady.errors + saturated.errors + saturated.timeouts,
      non2xx: steady.non2xx + saturated.non2xx,
      medianMs: quantile(steady.latencies, 0.5),
      p99Ms: quantile(steady.latencies, 0.99),
      capacityPerSecond: saturated.requests.average,
      saturatedP99Ms: saturated.latency.p99,
    };
  } finally {
    await server.stop();
  }
}

/** `connections` loops of request, answer, pause, each on its own keep-alive socket. */
async function readersTyping(
  origin: string,
  paths: readonly string[],
  connections: number,
  rate: number,
  seconds: number,
): Promise<{ latencies: number[]; errors: number; non2xx: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const meanPauseMs = (connections / rate) * 1000;
  const until = performance.now() + seconds * 1000;
  const latencies: number[] = [];
  let errors = 0;
  let non2xx = 0;
  const pause = () => new Promise((resolve) => setTimeout(resolve, -Math.log(1 - Math.random()) * meanPauseMs));
  await Promise.all(
    Array.from({ length: connections }, async (_, loop) => {
      // Readers start at random moments, not all in the same millisecond.
      await pause();
      for (let n = loop; performance.now() < until; n++) {
        const started = performance.now();
        try {
          const status = await get(agent, origin + (paths[n % paths.length] as string));
          latencies.push(performance.now() - started);
          if (status < 200 || status >= 300) non2xx++;
        } catch {
          errors++;
        }
        await pause();
      }
    }),
  );
  agent.destroy();
  return { latencies, errors, non2xx };
}

function get(agent: http.Agent, url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      })
      .on('error', reject);
  });
}
