import { parentPort, workerData } from 'node:worker_threads';
import { WorkCache } from '../build/cache';
import { codeFingerprint, forgetCodeFingerprints, TOOL_ROOT } from '../build/fingerprint';
import { OutputWriter } from '../write/output';
import { build, buildMemory, type BuildResult } from '../build/pipeline';
import { quickEdit } from '../build/quickEdit';
import { parsedArticles } from '../load/articles';
import type { Diagnostic } from '../diagnostics/diagnostic';
import { describeFailure, type Failure } from './failure';

/** Asks the worker to build, or to cancel the build it is running. */
export type WorkerRequest = { type: 'build'; id: number; changes: string[] } | { type: 'cancel' };

/** A build's outcome once its pages are written (or it found errors). */
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

export type WorkerReply =
  | BuiltReply
  /**
   * After a quick edit was announced as the build's outcome (`built`), the full build that
   * follows it: its diagnostics, any further pages, or its failure.
   */
  | (Omit<BuiltReply, 'type'> & { type: 'amended'; failure?: Failure })
  | { type: 'cancelled'; id: number }
  /** The search indexes of an announced build are written (the server reads them again). */
  | { type: 'indexed'; id: number }
  | { type: 'failed'; id: number; failure: Failure };

export interface BuildWorkerData {
  root: string;
  outDir: string;
  /** Each file of the output the session was last told about, with its hash. */
  served?: Record<string, string>;
}

/**
 * A build thread of `site dev`. It keeps the pipeline's modules and caches loaded between builds,
 * so a content change costs only the work it causes; a change to templates or pipeline code is
 * picked up by starting a fresh thread, which imports the changed modules anew.
 */
const { root, outDir, served } = workerData as BuildWorkerData;
/** What the session was last told the output holds: only differences are sent after that. */
const announced = new Map(Object.entries(served ?? {}));
WorkCache.retainInMemory = true;
OutputWriter.retainInMemory = true;
codeFingerprint.remember = true;
parsedArticles.keep = true;
let running: AbortController | undefined;
const memory = buildMemory();
/** The first build of a thread looks at every file; later ones at the files the watcher reported. */
let first = true;
const unsettled = new Set<string>();

/** Builds run one after another: a build still replacing its search indexes finishes first. */
let queue: Promise<void> = Promise.resolve();

parentPort?.on('message', (request: WorkerRequest) => {
  if (request.type === 'cancel') {
    running?.abort();
    return;
  }
  queue = queue.then(() => runBuild(request.id, request.changes));
});

async function runBuild(id: number, changes: string[]): Promise<void> {
  if (changes.some((file) => file.startsWith(TOOL_ROOT))) forgetCodeFingerprints();
  const controller = new AbortController();
  running = controller;
  // Files a full build has not yet taken in: this save's, and those of a full build cut short
  // after a quick edit (the session re-sends the changes only of builds it was told were cancelled).
  for (const file of changes) unsettled.add(file);
  const changed = new Set(unsettled);
  const quick = first ? false : await tryQuickEdit(id, [...changed]);
  let told = false;
  const tell = (result: BuildResult) => {
    const changed = result.ok ? announce(result.output?.write.files ?? {}) : {};
    reply({ type: quick ? 'amended' : 'built', id, ok: result.ok, diagnostics: result.diagnostics, milliseconds: result.milliseconds, stages: result.stages, changed });
    told = true;
  };
  try {
    // The pages are announced as soon as they are written; the search indexes follow.
    const result = await build({ root, outDir, signal: controller.signal, inPlace: true, onPagesWritten: tell, memory, ...(first ? {} : { changed }) });
    for (const file of changed) unsettled.delete(file);
    if (first) warmUp();
    first = false;
    if (told) reply({ type: 'indexed', id });
    else tell(result);
  } catch (error) {
    if (told) return;
    // Cut short after a quick edit: a newer build is waiting, and takes `unsettled` in.
    if (quick && controller.signal.aborted) return;
    if (quick) reply({ type: 'amended', id, ok: false, diagnostics: [], milliseconds: 0, stages: {}, changed: {}, failure: describeFailure(error) });
    else reply(controller.signal.aborted ? { type: 'cancelled', id } : { type: 'failed', id, failure: describeFailure(error) });
  }
}

/**
 * An edit of article bodies alone is rebuilt first on its own (quickEdit.ts) and announced as the
 * build's outcome; the full build follows. True when that happened.
 */
async function tryQuickEdit(id: number, changes: string[]): Promise<boolean> {
  const base = memory.base;
  if (!base) return false;
  const started = performance.now();
  const result = await quickEdit(base, new Set(changes), memory.check).catch(() => undefined);
  if (!result) return false;
  // Until a full build has checked the site again, the next save takes the ordinary way.
  memory.base = undefined;
  const milliseconds = performance.now() - started;
  reply({ type: 'built', id, ok: true, diagnostics: [], milliseconds, stages: { quick: milliseconds }, changed: announce(result.write.files) });
  return true;
}

/**
 * The first build may find everything in the cache and load neither the markdown toolchain nor
 * React; the owner's first save would then wait for them. They are loaded while the owner reads.
 */
function warmUp(): void {
  void Promise.all([import('../build/compileEdition'), import('../render/document')]).catch(() => {});
}

/** The files that differ from what was announced, which they now replace. */
function announce(files: Readonly<Record<string, { hash: string }>>): Record<string, string | null> {
  const changed: Record<string, string | null> = {};
  for (const [file, { hash }] of Object.entries(files)) {
    if (announced.get(file) !== hash) {
      changed[file] = hash;
      announced.set(file, hash);
    }
  }
  for (const file of announced.keys()) {
    if (!(file in files)) {
      changed[file] = null;
      announced.delete(file);
    }
  }
  return changed;
}

function reply(message: WorkerReply): void {
  parentPort?.postMessage(message);
}
