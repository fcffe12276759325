import { EventEmitter } from 'node:events';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TOOL_ROOT } from '../../../src/build/fingerprint';
import type { BuildWorkerData, WorkerReply, WorkerRequest } from '../../../src/dev/buildWorker';
import { DevEvents } from '../../../src/dev/events';
import { type BuildThread, DevSession, type Rebuild } from '../../../src/dev/session';

/**
 * A stand-in for the build thread that ends the way a busy machine has a worker thread end:
 * `terminate()` resolves first, and the thread's `exit` event follows a moment later, when the
 * session may already have started the next build on a fresh thread.
 */
class LateExitingThread extends EventEmitter implements BuildThread {
  readonly requests: WorkerRequest[] = [];
  private ended = false;

  postMessage(request: WorkerRequest): void {
    this.requests.push(request);
    if (request.type !== 'build') return;
    setTimeout(() => {
      if (this.ended) return;
      const reply: WorkerReply = {
        type: 'built',
        id: request.id,
        ok: true,
        diagnostics: [],
        milliseconds: 1,
        stages: {},
        changed: { 'blog/tech/Site.html': `hash ${request.id}` },
      };
      this.emit('message', reply);
    }, 20);
  }

  terminate(): Promise<number> {
    this.ended = true;
    setTimeout(() => this.emit('exit', 1), 5);
    return Promise.resolve(1);
  }
}

/** A dev session whose build threads are stand-ins made by `make`, kept in `threads` in the order they started. */
function sessionOn<T extends BuildThread>(make: () => T): { session: DevSession; threads: T[] } {
  const threads: T[] = [];
  const session = new DevSession({
    root: TOOL_ROOT,
    outDir: path.join(TOOL_ROOT, 'dist'),
    events: new DevEvents(),
    report: () => undefined,
    log: () => undefined,
    startThread: (_data: BuildWorkerData) => {
      const thread = make();
      threads.push(thread);
      return thread;
    },
  });
  return { session, threads };
}

describe('the rebuild loop of site dev', () => {
  it('builds a template change on a fresh thread once, however late the replaced thread ends', async () => {
    const { session, threads } = sessionOn(() => new LateExitingThread());
    expect((await session.start()).ok).toBe(true);

    const rebuilt = new Promise<Rebuild>((resolve) => session.onRebuild(resolve));
    session.changed(path.join(TOOL_ROOT, 'templates', 'pages', 'Article.tsx'));
    const rebuild = await Promise.race([
      rebuilt,
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 2000)),
    ]);
    await session.close();

    expect(rebuild, 'the template change is built within 2 s').toMatchObject({ ok: true, pages: ['/blog/tech/Site'] });
    // The first thread, and one fresh thread for the change: not a new one for every late exit.
    expect(threads).toHaveLength(2);
    expect(threads[1]?.requests.filter((request) => request.type === 'build')).toHaveLength(1);
  });
});

/** A thread whose end takes a while after `terminate()` is asked, and whose builds take longer still. */
class SlowEndingThread extends LateExitingThread {
  private stopped = false;
  /** Builds asked for and not answered yet, and the most there ever were at once. */
  private unanswered = 0;
  most = 0;
  /** The changes of each build asked for. */
  readonly built: string[][] = [];

  override postMessage(request: WorkerRequest): void {
    this.requests.push(request);
    if (request.type !== 'build') return;
    this.built.push(request.changes);
    this.most = Math.max(this.most, ++this.unanswered);
    setTimeout(() => {
      this.unanswered--;
      if (this.stopped) return;
      const reply: WorkerReply = {
        type: 'built',
        id: request.id,
        ok: true,
        diagnostics: [],
        milliseconds: 1,
        stages: {},
        changed: {},
      };
      this.emit('message', reply);
    }, 100);
  }

  override terminate(): Promise<number> {
    this.stopped = true;
    return new Promise((resolve) => setTimeout(() => resolve(super.terminate()), 50));
  }
}

describe('the rebuild loop of site dev, one build at a time', () => {
  it('builds the saves that come while a thread is being replaced after it, and is idle once they are built', async () => {
    const { session, threads } = sessionOn(() => new SlowEndingThread());
    await session.start();
    const rebuilds: Rebuild[] = [];
    session.onRebuild((rebuild) => rebuilds.push(rebuild));
    // A pipeline constant saved, then content saved while the old thread is still ending.
    session.changed(path.join(TOOL_ROOT, 'src', 'load', 'limits.ts'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    session.changed(path.join(TOOL_ROOT, 'content', 'strings.json'));
    session.changed(path.join(TOOL_ROOT, 'content', 'site.json'));
    const started = Date.now();
    while (session.busy() && Date.now() - started < 3000) await new Promise((resolve) => setTimeout(resolve, 10));
    const busy = session.busy();
    await session.close();
    expect(busy, 'idle within 3 s of the last save').toBe(false);
    // Never two builds at once on a thread: each was asked for once the one before it was answered.
    expect(threads.map((thread) => thread.most)).toEqual([1, 1]);
    // The content saves were built on the fresh thread, after the pipeline edit that replaced it.
    const last = threads[1]?.built.at(-1) ?? [];
    expect(last).toEqual(
      expect.arrayContaining([
        path.join(TOOL_ROOT, 'content', 'strings.json'),
        path.join(TOOL_ROOT, 'content', 'site.json'),
      ]),
    );
    expect(rebuilds.at(-1)?.ok).toBe(true);
  });
});

/**
 * A thread that, after its first build, warms up (rehearsals ending in a build in place) until
 * `endWarmUp` is called.
 */
class WarmingThread extends EventEmitter implements BuildThread {
  constructor(private readonly warms = true) {
    super();
  }

  postMessage(request: WorkerRequest): void {
    if (request.type !== 'build') return;
    setTimeout(() => {
      // As the real thread does: the warm-up is told of before the first build's end.
      if (this.warms) this.emit('message', { type: 'warm-up', running: true } satisfies WorkerReply);
      this.emit('message', {
        type: 'built',
        id: request.id,
        ok: true,
        diagnostics: [],
        milliseconds: 1,
        stages: {},
        changed: {},
      } satisfies WorkerReply);
    }, 5);
  }

  endWarmUp(): void {
    this.emit('message', { type: 'warm-up', running: false } satisfies WorkerReply);
  }

  terminate(): Promise<number> {
    setTimeout(() => this.emit('exit', 1), 1);
    return Promise.resolve(1);
  }
}

describe('what site dev says of itself (/__dev/status)', () => {
  it('is busy while its thread warms up after the first build, which ends by building the output in place, and idle after', async () => {
    const { session, threads } = sessionOn(() => new WarmingThread());
    expect((await session.start()).ok).toBe(true);
    expect(session.busy()).toBe(true);
    threads[0]?.endWarmUp();
    expect(session.busy()).toBe(false);
    await session.close();
  });

  it('is not held busy by the warm-up of a thread it replaced', async () => {
    let made = 0;
    // The first thread warms up and never says it ended; the fresh one has nothing to warm.
    const { session, threads } = sessionOn(() => new WarmingThread(made++ === 0));
    await session.start();
    const rebuilt = new Promise<Rebuild>((resolve) => session.onRebuild(resolve));
    // A template change starts a fresh thread; the old one never says its warm-up ended.
    session.changed(path.join(TOOL_ROOT, 'templates', 'pages', 'Article.tsx'));
    await rebuilt;
    expect(threads).toHaveLength(2);
    // Once the build that answered has ended.
    await expect.poll(() => session.busy()).toBe(false);
    await session.close();
  });
});
