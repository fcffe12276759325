// A long-lived `site check --format json`, for the content fuzz test: started once by
// tests/integration/fuzz/runner.ts (node --import tsx, with the project's tsconfig), it answers one
// `{ id, root }` message at a time with what the CLI would have printed and its exit code. Each
// case then costs the check itself, not the second or so the CLI takes to start.
//
// It calls the same function as `site check` (runCheck in src/cli/check.ts), catching what the
// call writes to stdout and stderr. An error thrown by the call, or an uncaught exception or
// unhandled rejection while it runs, is a crash: the CLI's top-level handler would print
// "✗ internal error: ..." on stderr and no JSON at all.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { build } from '../../../src/build/pipeline';
import { runCheck } from '../../../src/cli/check';

export interface CheckRequest {
  id: number;
  root: string;
  /**
   * Instead of a check: build the site once (into a folder that is then removed), which leaves
   * compiled markdown in <root>/.cache/site as after the owner's last `site build`. A check then
   * compiles only the articles a case changed (about 50 ms a case instead of 700).
   */
  warm?: boolean;
}

export interface CheckCrash {
  name: string;
  message: string;
  /** The first lines of the stack, for the report. */
  stack: string;
  /** How it escaped: thrown by runCheck, or an uncaught exception / unhandled rejection. */
  via: 'thrown' | 'uncaughtException' | 'unhandledRejection';
}

export interface CheckReply {
  id: number;
  exitCode: number;
  stdout: string;
  stderr: string;
  crashed?: CheckCrash;
  ms: number;
}

type Write = typeof process.stdout.write;

// Enough frames to reach the project's own code below a library's, for the report.
Error.stackTraceLimit = 50;

function describe(error: unknown, via: CheckCrash['via']): CheckCrash {
  const e = error instanceof Error ? error : new Error(String(error));
  return { name: e.name, message: e.message.slice(0, 2000), stack: e.stack ?? '', via };
}

let current: { crash?: CheckCrash } | undefined;

// Registered once: while a case runs, an escaped error is its crash; between cases it is ignored
// (there is nothing running that could throw).
process.on('uncaughtException', (error) => {
  if (current && !current.crash) current.crash = describe(error, 'uncaughtException');
});
process.on('unhandledRejection', (error) => {
  if (current && !current.crash) current.crash = describe(error, 'unhandledRejection');
});

async function handle(request: CheckRequest): Promise<CheckReply> {
  const out: string[] = [];
  const err: string[] = [];
  const capture = (into: string[]): Write =>
    ((chunk: string | Uint8Array, encoding?: unknown, callback?: unknown) => {
      into.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      const done = typeof encoding === 'function' ? encoding : callback;
      if (typeof done === 'function') queueMicrotask(() => (done as () => void)());
      return true;
    }) as Write;
  const stdoutWrite = process.stdout.write;
  const stderrWrite = process.stderr.write;
  const state: { crash?: CheckCrash } = {};
  current = state;
  const started = performance.now();
  let exitCode = 1;
  process.stdout.write = capture(out);
  process.stderr.write = capture(err);
  try {
    if (request.warm) {
      const outDir = path.join(request.root, '.fuzz-warm-dist');
      const result = await build({ root: request.root, outDir, year: 2026 });
      await rm(outDir, { recursive: true, force: true });
      exitCode = result.ok ? 0 : 1;
      if (!result.ok) out.push(JSON.stringify(result.diagnostics));
    } else {
      exitCode = await runCheck({ root: request.root, format: 'json', strict: false });
    }
  } catch (error) {
    state.crash ??= describe(error, 'thrown');
  } finally {
    process.stdout.write = stdoutWrite;
    process.stderr.write = stderrWrite;
  }
  // An escaped error from a callback of this case (a timer, a stream) surfaces a moment later.
  await new Promise((resolve) => setImmediate(resolve));
  current = undefined;
  const ms = Math.round(performance.now() - started);
  if (state.crash) exitCode = 1;
  return {
    id: request.id,
    exitCode,
    stdout: out.join(''),
    stderr: err.join(''),
    ...(state.crash ? { crashed: state.crash } : {}),
    ms,
  };
}

// One case at a time: the parent waits for each answer before it sends the next.
let queue = Promise.resolve();
process.on('message', (message: CheckRequest) => {
  queue = queue
    .then(async () => {
      const reply = await handle(message);
      await new Promise<void>((resolve, reject) =>
        process.send?.(reply, undefined, {}, (error) => (error ? reject(error) : resolve())),
      );
    })
    // A reply that could not be sent: the parent times the case out; the next case still runs.
    .catch(() => {});
});
// The parent went away (the test run ended or was killed): so does the worker.
process.on('disconnect', () => process.exit(0));
process.send?.({ ready: true });
