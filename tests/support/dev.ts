import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { freePort } from './ports';

/** A server-sent event as the dev client receives it. */
export interface ReceivedEvent {
  type: string;
  data: Record<string, unknown>;
  /** performance.now() when it arrived. */
  at: number;
}

/** A listener on `site dev`'s event stream that keeps every event, to wait for the next one of a kind. */
export interface EventLog {
  events: ReceivedEvent[];
  /** The next event of `type` arriving after this call (or already arrived since `since`). */
  next(type: string, options?: { since?: number; timeoutMs?: number }): Promise<ReceivedEvent>;
  close(): void;
}

export async function listen(url: string): Promise<EventLog> {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal });
  if (!response.body) throw new Error('no event stream');
  const events: ReceivedEvent[] = [];
  const waiting = new Set<() => void>();
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        // Events end with a blank line; the text after the last one waits for the next chunk.
        const blocks = buffer.split('\n\n');
        buffer = blocks.pop() ?? '';
        for (const block of blocks) {
          const type = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (type && data)
            events.push({ type, data: JSON.parse(data) as Record<string, unknown>, at: performance.now() });
          for (const wake of waiting) wake();
        }
      }
    } catch {
      // closed
    }
  })();
  return {
    events,
    next(type, options = {}) {
      const from = options.since ?? events.length;
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.slice(from).find((e) => e.type === type);
          if (found) {
            waiting.delete(check);
            clearTimeout(timer);
            resolve(found);
          }
        };
        const timer = setTimeout(() => {
          waiting.delete(check);
          reject(
            new Error(
              `no "${type}" event within ${options.timeoutMs ?? 20_000} ms; received: ${
                events
                  .slice(from)
                  .map((e) => e.type)
                  .join(', ') || 'nothing'
              }`,
            ),
          );
        }, options.timeoutMs ?? 20_000);
        waiting.add(check);
        check();
      });
    },
    close: () => controller.abort(),
  };
}

export interface RunningDev {
  origin: string;
  output: () => string;
  /** Sends SIGTERM and waits for the process to end. */
  stop: () => Promise<void>;
  /** Ends the process at once (SIGKILL), if it is still there. */
  kill: () => void;
}

/** Starts `site dev` (the tool at `toolRoot`) on a site root and waits until it serves. */
export async function startDev(toolRoot: string, siteRoot: string): Promise<RunningDev> {
  // A port found free may be taken before `site dev` listens on it (another test, or another
  // process of the machine, given it meanwhile): `site dev` then says so and ends, and another port
  // is tried. Any other failure to start is the test's.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startDevOn(toolRoot, siteRoot, await freePort());
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt === 3) throw error;
    }
  }
}

/** `site dev` ended at start because its port was taken meanwhile. */
class PortTaken extends Error {}

async function startDevOn(toolRoot: string, siteRoot: string, port: number): Promise<RunningDev> {
  const command = [
    process.execPath,
    path.join(toolRoot, 'bin', 'site'),
    '--root',
    siteRoot,
    'dev',
    '--port',
    String(port),
    '--db',
    path.join(siteRoot, 'dev-test.db'),
  ];
  // Its errors and its other lines through one pipe, in the order it wrote them, as a terminal
  // shows them: a build's diagnostics (stderr) come before its outcome line (stdout), and the
  // tests read which build said what from that order. Two pipes are read in whatever order their
  // data arrives. The shell gives its process to `site dev` (exec): signals reach it.
  const child: ChildProcess = spawn('/bin/sh', ['-c', 'exec "$@" 2>&1', 'sh', ...command], {
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const stop = async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  };
  const started = Date.now();
  while (!output.includes('watching for changes')) {
    if (child.exitCode !== null || Date.now() - started > 60_000) {
      await stop();
      if (output.includes('EADDRINUSE'))
        throw new PortTaken(`port ${port} was taken before site dev listened:\n${output}`);
      throw new Error(`site dev did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    origin: `http://127.0.0.1:${port}`,
    output: () => output,
    stop,
    kill: () => child.exitCode === null && child.kill('SIGKILL'),
  };
}
