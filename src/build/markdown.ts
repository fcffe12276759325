import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { CompiledMarkdown } from '../markdown/compile';
import type { Lang } from '../shared/lang';
import type { Route } from '../shared/route';
import { WorkCache } from './cache';
import { stillResolves, type TrackedBody } from './resolutions';
import type { CompileBatch, CompileWorkerData } from './compileWorker';
import { digest } from './fingerprint';
import { OperationalError } from '../diagnostics/failure';

export interface MarkdownJob {
  markdown: string;
  lang: Lang;
}

/**
 * Below this many bodies to compile, starting worker threads (each loads the markdown toolchain,
 * a few hundred milliseconds) costs more than it saves; the owner's own site stays in-thread.
 */
const PARALLEL_THRESHOLD = 400;
/** Texts sent to a worker at a time. */
const BATCH = 64;

/**
 * In `site dev` the same texts are keyed after every save. Their keys are remembered by the text
 * itself (the engine keeps a string's own hash, so finding the same string again is cheap) for as
 * long as the text is in use.
 */
let rememberedKeys: Record<Lang, Map<string, string>> = { en: new Map(), pt: new Map() };
let rememberedSalt = '';

function keysOf(jobs: readonly MarkdownJob[], imageCdn: string | undefined): string[] {
  const salt = imageCdn ?? '';
  if (!WorkCache.retainInMemory) return jobs.map((job) => digest(job.lang, salt, job.markdown));
  // A change of image CDN changes every key: start over then.
  if (salt !== rememberedSalt) rememberedKeys = { en: new Map(), pt: new Map() };
  rememberedSalt = salt;
  const next: Record<Lang, Map<string, string>> = { en: new Map(), pt: new Map() };
  const keys = jobs.map((job) => {
    const key = rememberedKeys[job.lang].get(job.markdown) ?? digest(job.lang, salt, job.markdown);
    next[job.lang].set(job.markdown, key);
    return key;
  });
  rememberedKeys = next;
  return keys;
}


/**
 * Compiles every markdown body, reusing the cache for bodies whose text, language, image CDN,
 * link targets and image sizes are unchanged (`trusted`: known to be, and not looked at again), and
 * spreading the rest over worker threads when there are many.
 * Results come back in the order of `jobs`.
 */
export async function compileBodies(
  jobs: readonly MarkdownJob[],
  site: { routes: readonly Route[]; imageCdn: string | undefined; mediaDir: string; trusted?: boolean },
  cache: WorkCache<TrackedBody>,
  onProgress?: (done: number) => void,
): Promise<CompiledMarkdown[]> {
  const { routes, imageCdn, mediaDir, trusted } = site;
  const routeByPath = new Map(routes.map((r) => [r.path, r]));
  const keys = keysOf(jobs, imageCdn);
  const results: (TrackedBody | undefined)[] = keys.map((key, i) => {
    const cached = cache.get(key);
    return cached && (trusted || stillResolves(cached, (jobs[i] as MarkdownJob).lang, routeByPath, mediaDir)) ? cached : undefined;
  });
  const misses = results.flatMap((r, i) => (r ? [] : [i]));
  let done = jobs.length - misses.length;
  onProgress?.(done);
  const record = (i: number, tracked: TrackedBody) => {
    results[i] = tracked;
    cache.set(keys[i] as string, tracked);
    onProgress?.(++done);
  };
  const threads = Math.min(os.availableParallelism(), 4);
  if (misses.length === 0) return results.map((r) => (r as TrackedBody).body);
  if (misses.length < PARALLEL_THRESHOLD || threads < 2) {
    // Loaded only when something must be compiled: the markdown toolchain takes a while to load.
    const { compileTracked } = await import('./compileEdition');
    for (const i of misses) record(i, compileTracked((jobs[i] as MarkdownJob).markdown, (jobs[i] as MarkdownJob).lang, routeByPath, imageCdn, mediaDir));
  } else {
    await compileInWorkers(misses, jobs, { routes: [...routes], imageCdn, mediaDir }, threads, record);
  }
  return results.map((r) => (r as TrackedBody).body);
}

const WORKER_HINT = 'Run the command again; if it fails again, check the free memory, and run it with --verbose to see more.';

/** Compiles the texts at `misses` on `threads` worker threads running `entry`. */
export async function compileInWorkers(
  misses: readonly number[],
  jobs: readonly MarkdownJob[],
  data: CompileWorkerData,
  threads: number,
  record: (i: number, tracked: TrackedBody) => void,
  entry: URL = new URL('./compileWorker.mjs', import.meta.url),
): Promise<void> {
  const batches: number[][] = [];
  for (let at = 0; at < misses.length; at += BATCH) batches.push(misses.slice(at, at + BATCH));
  let next = 0;
  const workers = Array.from({ length: threads }, () => new Worker(entry, { workerData: data }));
  try {
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve, reject) => {
            let current: number[] = [];
            const send = () => {
              const batch = batches[next];
              if (!batch) return resolve();
              current = batch;
              const message: CompileBatch = { id: next++, jobs: batch.map((i) => jobs[i] as MarkdownJob) };
              worker.postMessage(message);
            };
            worker.on('message', (reply: { results: TrackedBody[] }) => {
              try {
                reply.results.forEach((tracked, k) => record(current[k] as number, tracked));
                send();
              } catch (error) {
                // A cancelled build (its progress listener throws): stop handing out batches.
                next = batches.length;
                reject(error);
              }
            });
            // Compiling catches every fault of a text (see compileMarkdown): a worker that fails or
            // stops is the machine's trouble (memory, a killed thread), said in one line.
            worker.once('error', (error) => reject(new OperationalError(`a markdown worker thread failed: ${error.message}`, WORKER_HINT, { cause: error })));
            worker.once('exit', (code) => (code === 0 ? resolve() : reject(new OperationalError(`a markdown worker thread stopped (exit code ${code})`, WORKER_HINT))));
            send();
          }),
      ),
    );
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
