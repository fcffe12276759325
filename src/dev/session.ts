import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { TOOL_ROOT } from '../build/fingerprint';
import type { Diagnostic } from '../diagnostics/diagnostic';
import { codeFrame } from '../diagnostics/printer';
import { readTextSync } from '../load/files';
import { pageOfFile } from '../shared/route';
import type { BuildOutcome, BuildWorkerData, BuiltReply, PagesReply, WorkerReply, WorkerRequest } from './buildWorker';
import type { DevEvents, OverlayError } from './events';
import { describeFailure, type Failure } from './failure';

export interface DevSessionOptions {
  root: string;
  outDir: string;
  events: DevEvents;
  /** Prints diagnostics as `site check` does. */
  report: (diagnostics: readonly Diagnostic[]) => void;
  log: (line: string) => void;
  /** Starts a build thread; a real worker thread unless a test stands in for it. */
  startThread?: (data: BuildWorkerData) => BuildThread;
}

/** What the session uses of a build thread (a `Worker` running buildWorker.mjs). */
export interface BuildThread {
  postMessage(request: WorkerRequest): void;
  terminate(): Promise<number>;
  on(event: 'message', listener: (reply: WorkerReply) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'exit', listener: () => void): unknown;
}

function startWorker(data: BuildWorkerData): BuildThread {
  return new Worker(new URL('./buildWorker.mjs', import.meta.url), {
    workerData: data,
    resourceLimits: { maxYoungGenerationSizeMb: BUILD_THREAD_YOUNG_MB },
  });
}

/**
 * The build thread's young generation, in MB: a third of it is the space new objects are made in
 * (V8 keeps two such halves and a space for large objects). A body save's build on a large site
 * makes a little more than V8's default 16 MB of new objects, so one or two collections fell
 * inside it. In 32 MB, emptied while the thread is idle (see buildWorker.ts), a save's build up to
 * its pages being in place runs without one.
 */
const BUILD_THREAD_YOUNG_MB = 96;

/** The outcome of one build of the session, for the terminal and for tests. */
export interface Rebuild {
  ok: boolean;
  milliseconds: number;
  /** Site paths of the pages that changed. */
  pages: string[];
}

/** Saves closer together than this are one change (an editor writing a file in several steps). */
const COALESCE_MS = 4;

/**
 * The rebuild loop of `site dev`. Changes are gathered for a moment, then built on a worker
 * thread. A change that arrives during a build cancels it and starts a new one with everything
 * changed so far. Content changes reuse the warm thread; template and pipeline code changes start
 * a fresh one. After each build the open pages are told what to do: reload, swap CSS, or show the
 * errors (the last good pages keep being served).
 */
export class DevSession {
  private worker: BuildThread | undefined;
  private nextId = 1;
  /** The build under way, and the thread it runs on. */
  private running:
    | { id: number; worker: BuildThread; resolve: (reply: BuildOutcome) => void; early: string[] }
    | undefined;
  private pending = new Set<string>();
  /** Builds started and not yet ended (a thread being restarted for one included). */
  private building = 0;
  /** Whether the thread is warming up (it ends with a build of the output in place). */
  private warming = false;
  private timer: NodeJS.Timeout | undefined;
  private served: Record<string, string> | undefined;
  private failing = false;
  /** The warnings last sent to the tabs, as sent. */
  private warned = '[]';
  private listeners = new Set<(rebuild: Rebuild) => void>();
  /** Set by `close`: no build thread is started after it. */
  private closed = false;

  constructor(private readonly options: DevSessionOptions) {}

  /** The first build; resolves with its outcome. */
  async start(): Promise<Rebuild> {
    const first = await this.build(new Set());
    if (this.pending.size > 0) void this.kick();
    return first;
  }

  /** When the watcher last reported a change (ms since the epoch): what `/__dev/status` says it has heard of. */
  lastChange = 0;

  /** Called for every file the watcher reports (absolute paths). */
  changed(file: string): void {
    this.lastChange = Date.now();
    this.pending.add(file);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.kick(), COALESCE_MS);
  }

  /** Whether a build is running or changes are waiting to be built, or the thread is warming up. */
  busy(): boolean {
    return this.building > 0 || this.pending.size > 0 || this.warming;
  }

  /** Runs `listener` after every completed build (not after a cancelled one). */
  onRebuild(listener: (rebuild: Rebuild) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    // A build cut short by the close hands its changes back (see `build`): none is started again.
    this.closed = true;
    clearTimeout(this.timer);
    await this.worker?.terminate();
    this.worker = undefined;
  }

  private async kick(): Promise<void> {
    if (this.pending.size === 0 || this.closed) return;
    // One build at a time: a build starting (its thread being replaced) counts too. A second one
    // started meanwhile took the first one's place on the thread, and the first never ended.
    if (this.building > 0) {
      // The newer change supersedes the build in progress; it starts again when that one stops.
      if (!this.running) return;
      if ([...this.pending].some(isCode)) await this.restartWorker();
      else this.worker?.postMessage({ type: 'cancel' });
      return;
    }
    const changes = this.pending;
    this.pending = new Set();
    await this.build(changes);
    if (this.pending.size > 0) await this.kick();
  }

  private async build(changes: Set<string>): Promise<Rebuild> {
    this.building++;
    try {
      return await this.buildOnThread(changes);
    } finally {
      this.building--;
    }
  }

  private async buildOnThread(changes: Set<string>): Promise<Rebuild> {
    if ([...changes].some(isCode)) await this.restartWorker();
    const worker = this.ensureWorker();
    const id = this.nextId++;
    const early: string[] = [];
    const reply = await new Promise<BuildOutcome>((resolve) => {
      this.running = { id, worker, resolve, early };
      worker.postMessage({ type: 'build', id, changes: [...changes] });
    });
    this.running = undefined;
    if (reply.type === 'cancelled') {
      // Everything that build was for is built by the next one.
      for (const change of changes) this.pending.add(change);
      return { ok: false, milliseconds: 0, pages: [] };
    }
    const rebuild = reply.type === 'built' ? this.built(reply, changes, early) : this.failed(reply.failure);
    for (const listener of this.listeners) listener(rebuild);
    return rebuild;
  }

  /**
   * The pages of the build under way, put in place before the rest of its output: the open tabs
   * showing them reload now (the check passed before they were rendered, so any errors shown are
   * gone). The build's other changed files follow with its outcome.
   */
  private placed(reply: PagesReply, early: string[]): void {
    if (!this.served) return;
    for (const [file, hash] of Object.entries(reply.changed)) this.served[file] = hash;
    const pages = changedPages(reply.changed);
    if (pages.length === 0) return;
    this.options.events.generation++;
    if (this.failing) this.options.events.send({ type: 'ok' });
    this.failing = false;
    early.push(...pages);
    this.options.events.send({ type: 'reload', pages });
  }

  private built(reply: Omit<BuiltReply, 'type'>, changes: Set<string>, early: readonly string[]): Rebuild {
    const errors = reply.diagnostics.filter((d) => d.severity === 'error');
    if (reply.diagnostics.length) this.options.report(reply.diagnostics);
    if (!reply.ok) {
      this.failing = true;
      this.options.events.send({ type: 'errors', errors: errors.map((d) => this.overlayError(d)) });
      this.options.log(
        `✗ ${errors.length} error${errors.length === 1 ? '' : 's'}: the last good pages are still served`,
      );
      return { ok: false, milliseconds: reply.milliseconds, pages: [] };
    }
    const previous = this.served;
    this.served ??= {};
    for (const [file, hash] of Object.entries(reply.changed)) {
      if (hash === null) delete this.served[file];
      else this.served[file] = hash;
    }
    this.options.events.generation++;
    // After a failed first build every open page is out of date.
    const later = previous ? changedPages(reply.changed) : this.failing ? ['*'] : [];
    const pages = [...early, ...later].sort();
    if (this.failing) this.options.events.send({ type: 'ok' });
    this.failing = false;
    // Warnings change with content, not with every build: sent when they differ from the last.
    // (Their code frames, which read each file, are made only then.)
    const warnings = reply.diagnostics.filter((d) => d.severity === 'warning');
    const said = JSON.stringify(warnings);
    if (said !== this.warned) {
      this.warned = said;
      this.options.events.send({ type: 'warnings', warnings: warnings.map((d) => this.overlayError(d)) });
    }
    if (later.length > 0) {
      const cssOnly = changes.size > 0 && [...changes].every((file) => file.endsWith('.css'));
      this.options.events.send(cssOnly ? { type: 'css' } : { type: 'reload', pages: later });
    }
    const timings = Boolean(process.env.SITE_TIMINGS);
    const stages = timings
      ? ` (${Object.entries(reply.stages)
          .map(([stage, ms]) => `${stage} ${Math.round(ms)} ms`)
          .join(', ')})`
      : '';
    if (previous || pages.length > 0)
      this.options.log(
        `✓ rebuilt in ${Math.round(reply.milliseconds)} ms: ${pages.length} page${pages.length === 1 ? '' : 's'} changed${stages}`,
      );
    return { ok: true, milliseconds: reply.milliseconds, pages };
  }

  private failed(failure: Failure): Rebuild {
    this.failing = true;
    const file = failure.file ? path.relative(TOOL_ROOT, failure.file) : 'build';
    const frame = failure.file ? codeFrame(readTextSync(failure.file), failure.line, failure.column) : '';
    this.options.log(
      `✗ ${file}${failure.line ? `:${failure.line}:${failure.column}` : ''}: ${failure.message}${frame ? `\n${frame}` : ''}`,
    );
    this.options.events.send({
      type: 'errors',
      errors: [
        {
          file,
          line: failure.line,
          column: failure.column,
          message: failure.message,
          hint: 'Fix the file; the page updates when the build succeeds.',
          frame,
        },
      ],
    });
    return { ok: false, milliseconds: 0, pages: [] };
  }

  private overlayError(d: Diagnostic): OverlayError {
    return {
      file: d.file,
      line: d.line,
      column: d.column,
      code: d.code,
      message: d.message,
      hint: d.hint,
      frame: codeFrame(readTextSync(path.join(this.options.root, d.file)), d.line, d.column),
    };
  }

  private ensureWorker(): BuildThread {
    if (!this.worker) {
      const data: BuildWorkerData = {
        root: this.options.root,
        outDir: this.options.outDir,
        ...(this.served ? { served: this.served } : {}),
      };
      const worker = (this.options.startThread ?? startWorker)(data);
      // A thread's messages and end concern the build running on it only: a thread being replaced
      // may end after the next build has started on its successor.
      const settle = (reply: BuildOutcome) => {
        if (this.running?.worker === worker) this.running.resolve(reply);
      };
      worker.on('message', (reply: WorkerReply) => {
        if (reply.type === 'warm-up') {
          if (this.worker === worker) this.warming = reply.running;
          return;
        }
        if (this.running?.worker !== worker || reply.id !== this.running.id) return;
        if (reply.type === 'pages') this.placed(reply, this.running.early);
        else settle(reply);
      });
      // A thread that cannot even load the pipeline (a syntax error in a template) fails here.
      worker.on('error', (error) =>
        settle({ type: 'failed', id: this.running?.id ?? 0, failure: describeFailure(error) }),
      );
      worker.on('exit', () => {
        if (this.worker === worker) {
          this.worker = undefined;
          this.warming = false;
        }
        settle({ type: 'cancelled', id: this.running?.id ?? 0 });
      });
      this.worker = worker;
    }
    return this.worker;
  }

  /** A fresh build thread: the templates and pipeline code are imported anew. */
  private async restartWorker(): Promise<void> {
    const old = this.worker;
    this.worker = undefined;
    this.warming = false;
    await old?.terminate();
  }
}

/** A change to the tool's templates or pipeline code (stylesheets are read at each build). */
function isCode(file: string): boolean {
  if (file.endsWith('.css')) return false;
  // A folder of code written again as a whole (a branch switch) counts as code changed.
  return ['src', 'templates'].some((folder) => {
    const dir = path.join(TOOL_ROOT, folder);
    return file === dir || file.startsWith(dir + path.sep);
  });
}

/** The site paths of the pages among changed files (changed, new or gone). */
export function changedPages(changed: Readonly<Record<string, string | null>>): string[] {
  return Object.keys(changed)
    .filter((file) => file.endsWith('.html'))
    .map(pageOfFile)
    .sort();
}
