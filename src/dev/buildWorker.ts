import { parentPort, workerData } from 'node:worker_threads';
import { WorkCache } from '../build/cache';
import { codeFingerprint, forgetCodeFingerprints, TOOL_ROOT } from '../build/fingerprint';
import { OutputWriter } from '../write/output';
import { build, buildMemory, type BuildResult } from '../build/pipeline';
import { parsedArticles } from '../load/articles';
import type { Diagnostic } from '../diagnostics/diagnostic';
import { describeFailure, type Failure } from './failure';

/** Asks the worker to build, or to cancel the build it is running. */
export type WorkerRequest = { type: 'build'; id: number; changes: string[] } | { type: 'cancel' };

export type WorkerReply =
  | { type: 'built'; id: number; ok: boolean; diagnostics: Diagnostic[]; milliseconds: number; stages: Record<string, number>; files: Record<string, string> }
  | { type: 'cancelled'; id: number }
  /** The search indexes of an announced build are written (the server reads them again). */
  | { type: 'indexed'; id: number }
  | { type: 'failed'; id: number; failure: Failure };

export interface BuildWorkerData {
  root: string;
  outDir: string;
}

/**
 * A build thread of `site dev`. It keeps the pipeline's modules and caches loaded between builds,
 * so a content change costs only the work it causes; a change to templates or pipeline code is
 * picked up by starting a fresh thread, which imports the changed modules anew.
 */
const { root, outDir } = workerData as BuildWorkerData;
WorkCache.retainInMemory = true;
OutputWriter.retainInMemory = true;
codeFingerprint.remember = true;
parsedArticles.keep = true;
let running: AbortController | undefined;
const memory = buildMemory();
/** The first build of a thread looks at every file; later ones at the files the watcher reported. */
let first = true;

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
  let told = false;
  const tell = (result: BuildResult) => {
    const files = Object.fromEntries(Object.entries(result.output?.write.files ?? {}).map(([file, entry]) => [file, entry.hash]));
    reply({ type: 'built', id, ok: result.ok, diagnostics: result.diagnostics, milliseconds: result.milliseconds, stages: result.stages, files });
    told = true;
  };
  try {
    // The pages are announced as soon as they are written; the search indexes follow.
    const result = await build({ root, outDir, signal: controller.signal, inPlace: true, onPagesWritten: tell, memory, ...(first ? {} : { changed: new Set(changes) }) });
    first = false;
    if (told) reply({ type: 'indexed', id });
    else tell(result);
  } catch (error) {
    if (!told) reply(controller.signal.aborted ? { type: 'cancelled', id } : { type: 'failed', id, failure: describeFailure(error) });
  }
}

function reply(message: WorkerReply): void {
  parentPort?.postMessage(message);
}
