import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { OperationalError } from '../diagnostics/failure';
import { digest } from '../load/digest';
import type { CompiledMarkdown } from '../markdown/compile';
import { routeTable } from '../model/routes';
import { LANGUAGES, type Lang } from '../shared/lang';
import type { Route } from '../shared/route';
import { type BodyContents, type BodyFacts, splitBody } from './bodyContents';
import { markOnAllocatingThreads } from './collector';
import type { CompileBatch, CompiledBody, CompileWorkerData, CompileWorkerStart } from './compileWorker';
import type { Explain } from './explain';
import { type BodySite, type FoundInputs, foundValue } from './found';
import { changedInputs, type Inputs } from './inputs';
import type { Memo } from './memo';
import { agrees } from './shortcuts';

/** A markdown text to compile: an article's body, or a text inside a JSON file. */
export interface MarkdownJob {
  /** The output it makes, by name: the article file, or "<json file>#<card>/<lang>". */
  output: string;
  markdown: string;
  lang: Lang;
  /** A content hash of the text's source (the whole article file, or the text itself). */
  hash: string;
  /** What the text was read from, the same object for as long as its file is unchanged (an article's source). */
  source?: object;
}

/**
 * Below this many bodies to compile, starting worker threads (each loads the markdown toolchain
 * anew) costs more than it saves; the owner's own site stays in-thread.
 */
const PARALLEL_THRESHOLD = 400;
/** Texts sent to a worker at a time. */
const BATCH = 64;

/** A compiled body as the markdown cache keeps it: its facts, with its content kept apart. */
export interface StoredBody {
  body: BodyFacts;
  found: FoundInputs;
}

/**
 * A text's body as a session's last build found it valid: under which routes and image CDN, and
 * its images' found values, the only ones that can move while its source and the routes stay.
 */
export interface SeenBody {
  stored: StoredBody;
  routes: readonly Route[];
  cdn: string;
  /** The media folder's signature then: while it holds, no image's size can have moved. */
  media: string;
  /** Its found inputs that are images', as `found` lists them. */
  images: FoundInputs;
}

/** What a session remembers of its builds' markdown stages (see `compileBodies`). */
export interface MarkdownMemory {
  /** Each text's body by its source object, while the source lives. */
  seen: WeakMap<object, SeenBody>;
  /** The texts of the last build and their bodies, in order, with what they were found under. */
  last?: {
    jobs: readonly MarkdownJob[];
    bodies: readonly CompiledMarkdown[];
    routes: readonly Route[];
    cdn: string;
    media: string;
  };
  /** The route table of each route list, as its links resolve against it. */
  tables: WeakMap<readonly Route[], string>;
}

/** What the markdown stage needs besides the texts. */
export interface MarkdownStage {
  site: BodySite;
  /** The routes `site.routes` maps: the same list from one build to the next while no route changed. */
  routes: readonly Route[];
  /** The media folder's signature (see `BuildSession.mediaFolder`). */
  media: string;
  /** Compiled bodies by text, with their declared and found inputs; their content is kept in `contents`. */
  memo: Memo<StoredBody>;
  contents: BodyContents;
  /** A session's memory of its last builds' bodies, when it builds again. */
  memory?: MarkdownMemory;
  /** Fingerprint of the markdown compiler's code. */
  code: string;
  /** The compiler (see `BuildSession.compiler`), asked for only when a text must be compiled in this thread. */
  compiler: () => Promise<typeof import('./compileEdition').compileTracked>;
  /** The worker threads' script (see `LoadedModules.workerCode`), asked for only when texts are compiled on workers. */
  workerCode: () => Promise<WorkerScript>;
  /** Told of each body compiled again, with the inputs that changed. */
  explain: Explain;
  progress: (done: number, total: number) => void;
}

/**
 * Compiles every markdown text, or finds it in the memo: a body is reused when its text,
 * language, image CDN and compiler code are unchanged and each of its found inputs (link
 * resolutions, image sizes) has the same value now. The rest is spread over worker threads when
 * there are many. Results come back in the order of `jobs`.
 *
 * In a session that builds again, a text read from the same source object as in an earlier build,
 * under the same route table, has the same text and the same link resolutions: its body is the one
 * found then, with only its images looked at again if the media folder changed since. When the
 * texts are those of the last build, in the same order, each one unchanged is taken by its place.
 */
export async function compileBodies(jobs: readonly MarkdownJob[], stage: MarkdownStage): Promise<CompiledMarkdown[]> {
  const { site, memo, contents, explain, memory } = stage;
  const cdn = site.imageCdn ?? '';
  const declared = (job: MarkdownJob): Inputs => ({ code: stage.code, text: job.hash, lang: job.lang, cdn });
  const now = currentValues(site);
  const table = (routes: readonly Route[]) => {
    let known = memory?.tables.get(routes);
    if (known === undefined) {
      known = digest(routeTable(routes));
      memory?.tables.set(routes, known);
    }
    return known;
  };
  const remember = (job: MarkdownJob, stored: StoredBody) => {
    if (!memory || !job.source) return;
    const images: string[] = [];
    const { found } = stored;
    for (let i = 0; i < found.length; i += 2)
      if (!(found[i] as string).startsWith('link ')) images.push(found[i] as string, found[i + 1] as string);
    memory.seen.set(job.source, { stored, routes: stage.routes, cdn, media: stage.media, images });
  };
  // The names among `found` whose value is not the current one; undefined when none (no array made
  // for the thousands that hold).
  const movedOf = (found: FoundInputs, lang: Lang) => {
    let moved: string[] | undefined;
    for (let i = 0; i < found.length; i += 2) {
      const name = found[i] as string;
      if (now(name, lang) === found[i + 1]) continue;
      moved ??= [];
      moved.push(name);
    }
    return moved;
  };
  // The body the data gives a text: the one the memo keeps under its declared inputs, each of its
  // found inputs as it is now. The two shortcuts below (by source object, by place) stand for it,
  // and are checked against it under SITE_CHECK_SHORTCUTS=1.
  const fromData = (job: MarkdownJob): string | undefined => {
    const cached = memo.get(job.output, declared(job));
    return cached && !movedOf(cached.found, job.lang) ? cached.body.hash : undefined;
  };
  const find = (job: MarkdownJob): StoredBody | undefined => {
    const seen = job.source && memory?.seen.get(job.source);
    if (seen && seen.cdn === cdn && (seen.routes === stage.routes || table(seen.routes) === table(stage.routes))) {
      const moved = seen.media === stage.media ? undefined : movedOf(seen.images, job.lang);
      if (moved) {
        explain(job.output, moved);
        return undefined;
      }
      agrees(`the body of ${job.output}, found by its source`, seen.stored.body.hash, () => fromData(job));
      memo.keep(job.output);
      if (seen.routes !== stage.routes || seen.media !== stage.media)
        memory?.seen.set(job.source as object, { ...seen, routes: stage.routes, media: stage.media });
      return seen.stored;
    }
    const inputs = declared(job);
    const cached = memo.get(job.output, inputs);
    if (!cached) {
      explain(job.output, changedInputs(memo.previous(job.output), inputs));
      return undefined;
    }
    const moved = movedOf(cached.found, job.lang);
    if (moved) {
      explain(job.output, moved);
      return undefined;
    }
    if (!contents.has(cached.body.hash)) {
      explain(job.output, ['(content not in the cache)']);
      return undefined;
    }
    remember(job, cached);
    return cached;
  };
  // The last build's texts, when they are these in the same order under the same routes, CDN and media.
  const last = memory?.last;
  const aligned =
    last &&
    last.jobs.length === jobs.length &&
    last.cdn === cdn &&
    last.media === stage.media &&
    (last.routes === stage.routes || table(last.routes) === table(stage.routes))
      ? last
      : undefined;
  const results: (StoredBody | undefined)[] = [];
  const bodies: (CompiledMarkdown | undefined)[] = [];
  const misses: number[] = [];
  // Whether each text makes the output it made last time: then every entry the memo holds is still in use.
  let sameOutputs = aligned !== undefined;
  for (let i = 0; i < jobs.length; i++) {
    const job = jobs[i] as MarkdownJob;
    const before = aligned?.jobs[i];
    if (
      aligned &&
      before &&
      (job.source !== undefined
        ? job.source === before.source
        : job.output === before.output && job.hash === before.hash)
    ) {
      results.push(undefined);
      bodies.push(aligned.bodies[i]);
      agrees(`the body of ${job.output}, found by its place`, aligned.bodies[i]?.hash, () => fromData(job));
      continue;
    }
    if (before && job.output !== before.output) sameOutputs = false;
    const stored = find(job);
    results.push(stored);
    bodies.push(undefined);
    if (!stored) misses.push(i);
  }
  if (aligned && sameOutputs) memo.keepAll();
  else if (aligned) for (let i = 0; i < jobs.length; i++) if (bodies[i]) memo.keep((jobs[i] as MarkdownJob).output);
  const total = jobs.length;
  let done = total - misses.length;
  stage.progress(done, total);
  const record = (i: number, { facts, found, content, place }: CompiledBody) => {
    // The content is stored as it arrives (by the worker that compiled it, when it could): a cold
    // build does not hold every body's HTML at once.
    if (place) contents.adopt(facts.hash, place);
    else if (content) contents.put(facts.hash, content);
    const stored: StoredBody = { body: facts, found };
    results[i] = stored;
    const job = jobs[i] as MarkdownJob;
    memo.set(job.output, declared(job), stored);
    remember(job, stored);
    stage.progress(++done, total);
  };
  const threads = Math.min(os.availableParallelism(), 4);
  if (misses.length > 0 && (misses.length < PARALLEL_THRESHOLD || threads < 2)) {
    const compileTracked = await stage.compiler();
    for (const i of misses) {
      const { body, found } = compileTracked((jobs[i] as MarkdownJob).markdown, (jobs[i] as MarkdownJob).lang, site);
      record(i, { ...splitBody(body), found });
    }
  } else if (misses.length > 0) {
    // A build of its own whose workers take every core (a cold build) collects on its own threads.
    if (!memory && threads === os.availableParallelism()) markOnAllocatingThreads();
    const data: CompileWorkerData = {
      routes: [...site.routes.values()],
      imageCdn: site.imageCdn,
      mediaDir: site.mediaDir,
      images: site.images,
      ...(contents.folder && { contentsDir: contents.folder }),
    };
    await compileInWorkers({ misses, jobs, data, threads, script: await stage.workerCode() }, record);
  }
  const compiled = results.map((r, i) => bodies[i] ?? contents.body((r as StoredBody).body));
  if (memory) memory.last = { jobs, bodies: compiled, routes: stage.routes, cdn, media: stage.media };
  return compiled;
}

/**
 * The current value of a found input, worked out once per build for each name and language: many
 * bodies link to the same pages.
 */
function currentValues(site: BodySite): (name: string, lang: Lang) => string {
  // By language, then name: the names are the found records' own keys, looked up without building a string.
  const known = new Map<Lang, Map<string, string>>(LANGUAGES.map((lang) => [lang, new Map()]));
  return (name, lang) => {
    const byName = known.get(lang) as Map<string, string>;
    let value = byName.get(name);
    if (value === undefined) {
      value = foundValue(name, lang, site);
      byName.set(name, value);
    }
    return value;
  };
}

const WORKER_HINT =
  'Run the command again; if it fails again, check the free memory, and run it with --verbose to see more.';

/** Texts to compile on worker threads. */
export interface WorkerRun {
  /** The places in `jobs` of the texts to compile. */
  misses: readonly number[];
  jobs: readonly Pick<MarkdownJob, 'markdown' | 'lang'>[];
  /** What every worker is given at its start. */
  data: CompileWorkerData;
  threads: number;
  script: WorkerScript;
}

/**
 * The script each worker runs (see workerCode.ts): the compiler's bundle as a file, or as code when
 * there is no file of it.
 */
export type WorkerScript = { file: string } | { code: string };

/**
 * Compiles the texts at `misses` on `threads` worker threads, each running `script`; `record` gets
 * each body as it comes.
 */
export async function compileInWorkers(
  { misses, jobs, data, threads, script }: WorkerRun,
  record: (i: number, compiled: CompiledBody) => void,
): Promise<void> {
  const batches: number[][] = [];
  for (let at = 0; at < misses.length; at += BATCH) batches.push(misses.slice(at, at + BATCH));
  let next = 0;
  const workerData: CompileWorkerStart = { markdownCompiler: data };
  const workers = Array.from({ length: threads }, () =>
    'file' in script ? new Worker(script.file, { workerData }) : new Worker(script.code, { eval: true, workerData }),
  );
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
              const message: CompileBatch = {
                id: next++,
                jobs: batch.map((i) => {
                  const job = jobs[i] as MarkdownJob;
                  return { markdown: job.markdown, lang: job.lang };
                }),
              };
              worker.postMessage(message);
            };
            worker.on('message', (reply: { results: CompiledBody[] }) => {
              try {
                for (const [k, tracked] of reply.results.entries()) record(current[k] as number, tracked);
                send();
              } catch (error) {
                // A cancelled build (its signal is checked as each text is recorded): no more batches.
                next = batches.length;
                reject(error);
              }
            });
            // Compiling catches every fault of a text (see compileMarkdown): a worker that fails or
            // stops is the machine's trouble (memory, a killed thread), said in one line.
            worker.once('error', (error) =>
              reject(
                new OperationalError(`a markdown worker thread failed: ${error.message}`, WORKER_HINT, {
                  cause: error,
                }),
              ),
            );
            worker.once('exit', (code) =>
              code === 0
                ? resolve()
                : reject(new OperationalError(`a markdown worker thread stopped (exit code ${code})`, WORKER_HINT)),
            );
            send();
          }),
      ),
    );
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
