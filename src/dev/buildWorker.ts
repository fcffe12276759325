import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { buildSite } from '../build/pipeline';
import { BuildSession } from '../build/session';
import type { Diagnostic } from '../diagnostics/diagnostic';
import { ContentChangedError } from '../load/articles';
import { describeFailure, type Failure } from './failure';
import { rehearsedEdit } from './rehearsal';

/** Asks the worker to build, or to cancel the build it is running. */
export type WorkerRequest = { type: 'build'; id: number; changes: string[] } | { type: 'cancel' };

/** A build's outcome once its output is written (or it found errors). */
export interface BuiltReply {
  type: 'built';
  id: number;
  ok: boolean;
  diagnostics: Diagnostic[];
  milliseconds: number;
  stages: Record<string, number>;
  /**
   * The output's files that differ from what the session was last told (new hash, or null when
   * gone); the whole output when the session has not been told anything yet.
   */
  changed: Record<string, string | null>;
}

/**
 * A build's pages, put in place ahead of the rest of its output (see `BuildOptions.onPages`):
 * those that differ from what the session was last told, with their new hashes.
 */
export interface PagesReply {
  type: 'pages';
  id: number;
  changed: Record<string, string>;
}

/** How a build ended: built, cancelled, or failed. */
export type BuildOutcome =
  | BuiltReply
  | { type: 'cancelled'; id: number }
  | { type: 'failed'; id: number; failure: Failure };

/** The warm-up (see `warmUp`) started or ended: it builds the output in place at its end. */
export interface WarmUpReply {
  type: 'warm-up';
  running: boolean;
}

export type WorkerReply = BuildOutcome | PagesReply | WarmUpReply;

export interface BuildWorkerData {
  root: string;
  outDir: string;
  /** Each file of the output the session was last told about, with its hash. */
  served?: Record<string, string>;
}

/**
 * A build thread of `site dev`: one build session, kept for as long as the thread lives, so a
 * content change costs only the work it causes. A change to templates or pipeline code is picked
 * up by starting a fresh thread, which imports the changed modules anew (and a new session).
 */
const { root, outDir, served } = workerData as BuildWorkerData;
const session = new BuildSession({ root, rebuilds: true });
/** What the dev server was last told the output holds: only differences are sent after that. */
const announced = new Map(Object.entries(served ?? {}));
let running: AbortController | undefined;
/** The warm-up's rehearsal under way (see `warmUp`): a save cancels it. */
let rehearsal: AbortController | undefined;
let first = true;

/** Builds run one after another. */
let queue: Promise<void> = Promise.resolve();

/** Builds asked for and not yet started: the warm-up stops for them. */
let waiting = 0;

parentPort?.on('message', (request: WorkerRequest) => {
  if (request.type === 'cancel') {
    running?.abort();
    return;
  }
  waiting++;
  rehearsal?.abort();
  clearTimeout(idle);
  queue = queue
    .then(() => {
      waiting--;
      return runBuild(request.id, request.changes);
    })
    .then(collectWhenIdle);
});

async function runBuild(id: number, changes: string[]): Promise<void> {
  const controller = new AbortController();
  running = controller;
  session.invalidate(changes);
  try {
    // The pages are reloaded as soon as they are in place; a change of stylesheets alone is swapped
    // into the open tabs once the build is done.
    const early = changes.length > 0 && !changes.every((file) => file.endsWith('.css'));
    const onPages = (pages: ReadonlyMap<string, string>) =>
      postMessage({ type: 'pages', id, changed: announcePages(pages) });
    const result = await buildSite(session, {
      root,
      outDir,
      drafts: true,
      signal: controller.signal,
      commit: 'in-place',
      ...(early && { onPages }),
    });
    const changed = result.ok ? announce(result.output?.write.manifest.files ?? new Map()) : {};
    // Told before the build's end, so that site dev is never idle between the two.
    const warm = first && result.ok;
    if (warm) postMessage({ type: 'warm-up', running: true });
    postMessage({
      type: 'built',
      id,
      ok: result.ok,
      diagnostics: result.diagnostics,
      milliseconds: result.milliseconds,
      stages: result.stages,
      changed,
    });
    if (warm) warmUp();
    first = false;
  } catch (error) {
    // Files read by a cancelled build were read after their change: the next build has them. A
    // file saved again while the build read it is such a change, whose event may still be on its
    // way: it is read afresh by the next build, which the cancelled one hands its changes to.
    if (error instanceof ContentChangedError) session.invalidate([path.join(root, error.file)]);
    const cancelled = controller.signal.aborted || error instanceof ContentChangedError;
    postMessage(cancelled ? { type: 'cancelled', id } : { type: 'failed', id, failure: describeFailure(error) });
  }
}

/**
 * The first build may find everything in the cache and load neither the markdown toolchain nor
 * React; the owner's first saves would then wait for them, and for V8's first runs of what an edit
 * runs. While the owner reads, edits are rehearsed a number of times: an article is built as if
 * a paragraph had been added to it, or its title changed (`BuildSession.rehearse`), through every
 * stage, into a folder that is then dropped; the served output, the files and the build cache are
 * left as they were, and a last build reads the articles from their files again. Then the search
 * terms of every article are counted ahead, so that a first edit does not count those of its whole
 * shard, and a few edits are rehearsed again. A save that arrives meanwhile cancels the rehearsal
 * under way (between two stages) and ends the warm-up; it is built, and announced, by its own build.
 */
function warmUp(): void {
  queue = queue
    .then(async () => {
      await rehearse(0, WARM_BUILDS);
      await session.countAhead(() => waiting > 0).catch(() => undefined);
      // What was counted is still in V8's young generation, and the next collections are long while
      // they copy it out: a few more rehearsals have them made now, not in the owner's first saves.
      await rehearse(WARM_BUILDS, WARM_BUILDS + SETTLING_BUILDS);
    })
    .finally(() => postMessage({ type: 'warm-up', running: false }))
    .then(collectWhenIdle);
}

/** The idle collection to come (see `collectWhenIdle`). */
let idle: NodeJS.Timeout | undefined;

/**
 * Once the thread has been idle for a moment, empties its young generation, as the owner reads:
 * the objects a build left there that live on are moved out now, and the next save's build makes
 * its objects in an empty space rather than paying for a collection midway (see
 * `BUILD_THREAD_YOUNG_MB` in session.ts). Only where `site dev` exposed `gc` to the thread.
 */
function collectWhenIdle(): void {
  clearTimeout(idle);
  const collect = globalThis.gc;
  if (!collect) return;
  idle = setTimeout(() => {
    if (waiting === 0) collect({ type: 'minor' });
  }, IDLE_MS);
}

/** How long the thread is idle before it collects (see `collectWhenIdle`): a burst of saves is over by then. */
const IDLE_MS = 200;

/**
 * Rehearses edits `from` to `to` (see `warmUp`), unless a save is waiting: a body edit then a
 * title edit of each of a few articles spread over the site, since the path of a save, and what
 * V8 learns of it, depends on where its article stands. Then, with no save waiting, builds the
 * output as it is (a save cancels that build too), so that the session's model and plans are
 * those of the output again.
 */
async function rehearse(from: number, to: number): Promise<void> {
  // The articles of the output as it is (the last build was not a rehearsal).
  const articles = session.planned?.site.content.articles ?? [];
  if (articles.length === 0) return;
  const rehearsed = new Set<string>();
  try {
    for (let run = from; run < to && waiting === 0; run++) {
      const article = articles[Math.floor(((run >> 1) * articles.length) / REHEARSED_ARTICLES) % articles.length];
      const text = article && readText(article);
      if (!article || text === undefined) break;
      const file = path.join(root, article.file);
      rehearsed.add(file);
      session.rehearse(file, rehearsedEdit(text, run));
      rehearsal = new AbortController();
      await buildSite(session, { root, outDir, drafts: true, commit: 'none', signal: rehearsal.signal }).catch(
        () => undefined,
      );
    }
  } finally {
    // Each article is read from its file by the next build: a rehearsal cut short may not have read it yet.
    session.invalidate(rehearsed);
  }
  if (waiting === 0) {
    rehearsal = new AbortController();
    await buildSite(session, { root, outDir, drafts: true, commit: 'in-place', signal: rehearsal.signal }).catch(
      () => undefined,
    );
  }
  rehearsal = undefined;
}

function readText(article: { readonly text: string }): string | undefined {
  try {
    return article.text;
  } catch {
    // The file is being saved: the save's own build comes next.
    return undefined;
  }
}

/**
 * How many edits `warmUp` rehearses, body and title edits in turn: V8 optimizes a function after
 * enough runs, and the path of a save through a large site settles within fewer rehearsals than
 * these.
 */
const WARM_BUILDS = 12;

/** The rehearsals after counting ahead (see `warmUp`). */
const SETTLING_BUILDS = 3;

/** The articles whose edits are rehearsed, two each, spread evenly over the site (see `rehearse`). */
const REHEARSED_ARTICLES = WARM_BUILDS / 2;

/** The pages put in place that differ from what was announced, which they now replace. */
function announcePages(pages: ReadonlyMap<string, string>): Record<string, string> {
  const changed: Record<string, string> = {};
  for (const [file, hash] of pages) {
    if (announced.get(file) === hash) continue;
    changed[file] = hash;
    announced.set(file, hash);
  }
  return changed;
}

/** The files that differ from what was announced, which they now replace. */
function announce(files: ReadonlyMap<string, { hash: string }>): Record<string, string | null> {
  const changed: Record<string, string | null> = {};
  for (const [file, { hash }] of files) {
    if (announced.get(file) !== hash) {
      changed[file] = hash;
      announced.set(file, hash);
    }
  }
  for (const file of announced.keys()) {
    if (!files.has(file)) {
      changed[file] = null;
      announced.delete(file);
    }
  }
  return changed;
}

function postMessage(message: WorkerReply): void {
  parentPort?.postMessage(message);
}
