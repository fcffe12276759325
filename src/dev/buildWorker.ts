import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { buildSite } from '../build/pipeline';
import { BuildSession } from '../build/session';
import type { Diagnostic } from '../diagnostics/diagnostic';
import { ContentChangedError } from '../load/articles';
import { describeFailure, type Failure } from './failure';

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

export type WorkerReply = BuiltReply | { type: 'cancelled'; id: number } | { type: 'failed'; id: number; failure: Failure };

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
let first = true;

/** Builds run one after another. */
let queue: Promise<void> = Promise.resolve();

parentPort?.on('message', (request: WorkerRequest) => {
  if (request.type === 'cancel') {
    running?.abort();
    return;
  }
  queue = queue.then(() => runBuild(request.id, request.changes));
});

async function runBuild(id: number, changes: string[]): Promise<void> {
  const controller = new AbortController();
  running = controller;
  session.invalidate(changes);
  try {
    const result = await buildSite(session, { root, outDir, signal: controller.signal, commit: 'in-place' });
    const changed = result.ok ? announce(result.output?.write.manifest.files ?? new Map()) : {};
    reply({ type: 'built', id, ok: result.ok, diagnostics: result.diagnostics, milliseconds: result.milliseconds, stages: result.stages, changed });
    if (first && result.ok) warmUp();
    first = false;
  } catch (error) {
    // Files read by a cancelled build were read after their change: the next build has them. A
    // file saved again while the build read it is such a change, whose event may still be on its
    // way: it is read afresh by the next build, which the cancelled one hands its changes to.
    if (error instanceof ContentChangedError) session.invalidate([path.join(root, error.file)]);
    const cancelled = controller.signal.aborted || error instanceof ContentChangedError;
    reply(cancelled ? { type: 'cancelled', id } : { type: 'failed', id, failure: describeFailure(error) });
  }
}

/**
 * The first build may find everything in the cache and load neither the markdown toolchain nor
 * React; the owner's first save would then wait for them. They are loaded while the owner reads,
 * and what an edit runs is run a number of times, so that the owner's first saves do not pay for
 * V8's first runs of it: the path through the session (one article read again, as if saved
 * unchanged), and the compiling of that article's text (its body is compiled and dropped). These
 * builds find nothing changed and write nothing; a save that arrives meanwhile waits for them,
 * and is announced by its own build.
 */
function warmUp(): void {
  void session.renderer().catch(() => {});
  const site = session.planned?.site;
  const article = site?.content.articles[0];
  if (!site || !article) return;
  queue = queue.then(async () => {
    for (let run = 0; run < WARM_BUILDS; run++) {
      session.invalidate([path.join(root, article.file)]);
      await buildSite(session, { root, outDir, commit: 'in-place' }).catch(() => undefined);
    }
    const compile = await session.compiler().catch(() => undefined);
    const bodySite = { routes: site.routeByPath, imageCdn: site.content.config.imageCdn, mediaDir: path.join(root, 'content', 'media') };
    for (let run = 0; compile && run < WARM_COMPILES; run++) {
      // A body that cannot be read (the file is being saved) is the next build's to find.
      const body = readBody(article);
      if (body === undefined) break;
      compile(body, article.lang, bodySite);
    }
  });
}

function readBody(article: { readonly body: string }): string | undefined {
  try {
    return article.body;
  } catch {
    return undefined;
  }
}

/**
 * How many times `warmUp` runs the path of an edit through the session, and compiles a text: V8
 * optimizes a function after enough runs, and the path of a save through a large site settles
 * after about eight, a text's compiling after about twenty.
 */
const WARM_BUILDS = 8;
const WARM_COMPILES = 20;

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

function reply(message: WorkerReply): void {
  parentPort?.postMessage(message);
}
