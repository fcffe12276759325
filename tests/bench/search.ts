import { readFile } from 'node:fs/promises';
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
  en: ['container', 'containers', 'concert', 'garden museum', 'brows', 'reviews', 'deploying', 'contaner', 'coffee bread recipe', 'harbour'],
  pt: ['música', 'musica', 'corrida', 'correr', 'orcamento', 'azulej', 'publicacao', 'contentores', 'jardim museu', 'guitrra'],
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
    const json = await readFile(path.join(distDir, 'search', `${lang}.json`), 'utf8');
    const started = performance.now();
    const index = loadSearchIndex(lang, json);
    const loadMs = performance.now() - started;
    const latencies: number[] = [];
    for (let round = 0; round < repeat; round++) {
      for (const query of QUERIES[lang]) {
        const t = performance.now();
        searchIn(index, query);
        latencies.push(performance.now() - t);
      }
    }
    const raw = Buffer.from(json);
    figures.push({
      lang,
      documents: index.documentCount,
      bytes: raw.length,
      gzipBytes: gzipSync(raw, { level: 9 }).length,
      brotliBytes: brotliCompressSync(raw).length,
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
 * `site serve` over the built site, with 50 connections open on loopback sending the query set
 * in both languages through `/api/blog_posts/search`: first at a steady offered rate (the latency
 * a visitor sees while the server is busy but not overloaded), then as fast as it answers (its
 * capacity; latency there is mostly queueing).
 */
export async function apiFigures(siteRoot: string, options: { connections?: number; seconds?: number; rate?: number } = {}): Promise<ApiFigures> {
  const connections = options.connections ?? 50;
  const rate = options.rate ?? 1000;
  const server = await serveSite(siteRoot);
  try {
    const requests = LANGUAGES.flatMap((lang) =>
      QUERIES[lang].map((query) => ({ method: 'GET' as const, path: `/api/blog_posts/search?searchWord=${encodeURIComponent(query)}&language=${lang}` })),
    );
    const load = (extra: Partial<autocannon.Options>) => autocannon({ url: server.origin, connections, duration: options.seconds ?? 5, requests, ...extra });
    await load({ duration: 1 }); // warm-up: JIT, the indexes' first use
    const steady = await load({ overallRate: rate });
    const saturated = await load({});
    return {
      connections,
      offeredRate: rate,
      requests: steady.requests.total,
      errors: steady.errors + steady.timeouts + saturated.errors + saturated.timeouts,
      non2xx: steady.non2xx + saturated.non2xx,
      medianMs: steady.latency.p50,
      p99Ms: steady.latency.p99,
      capacityPerSecond: saturated.requests.average,
      saturatedP99Ms: saturated.latency.p99,
    };
  } finally {
    await server.stop();
  }
}
