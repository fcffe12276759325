import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { CardColours, CardText } from '../shared/card';
import type { DrawnCard, DrawReply, DrawRequest } from './drawCards';

/**
 * The drawing thread's young generation, in megabytes: a card's garbage is short-lived and small
 * (its shaped words, its PNG's segments), and V8's default for a thread lets it grow to tens of
 * megabytes before collecting it, memory the build's peak pays for.
 */
const YOUNG_MB = 8;

/** What a set of cards is drawn with besides their words. */
export interface DrawLook {
  colours: CardColours;
  avatar?: string;
}

/**
 * Cards from which a build's cards are drawn in a process of their own that then ends (a cold
 * build's thousands), rather than on the drawing thread (a save's few in `site dev`).
 */
const PROCESS_AT = 64;

/**
 * Cards below which a build that draws once (`site build`, not `site dev`) draws them on its own
 * thread: a thread of their own would start a second Node (its built-in modules compiled again,
 * the drawing code loaded again) whose start-up outweighs a few cards, and on two cores takes its
 * core from the build's thread as it renders. The build's thread has most of what drawing loads.
 */
const OWN_THREAD_BELOW = 8;

/** A thread or a child process that draws cards, as `ask` talks to it. */
interface Drawing {
  events: NodeJS.EventEmitter;
  post(message: unknown): void;
  /** Whether it keeps the process alive: only while it draws. */
  hold(held: boolean): void;
  end(): Promise<void>;
}

/**
 * Where share cards are drawn (drawWorker.ts), once a build's markdown is compiled: beside the
 * build's own thread, which checks, renders and indexes meanwhile. A build with many cards draws
 * them in a process of its own (`drawingProcess`), which ends when they are drawn, with satori,
 * librsvg and what they held; one with a few, on a thread, which a build session keeps while it
 * builds again (`site dev`): the fonts are then read once for the session, not once per save; or,
 * in a build that draws once, on the build's own thread (`OWN_THREAD_BELOW`). One
 * drawing at a time, not one per core: a second would only take its core from the render's
 * thread and double the memory the drawing holds.
 */
export class CardThreads {
  private thread?: Drawing;
  private next = 0;

  /** `ownThread`: whether a few cards may be drawn on the calling thread (a session that does not build again). */
  constructor(private readonly ownThread = false) {}

  /**
   * Draws `cards` into the folder `into` (each as `<hash>.png`); resolves once every one is
   * written, with each one's digest and length. Rejects when one cannot be drawn, or when `signal`
   * is aborted (the threads are then
   * ended, a card under way left as a temporary file the cache's sweep removes). The cards are
   * sent at once: a thread that waited for this one to hand out each batch would wait for the
   * render, which keeps this thread busy for seconds at a time. `knowledge` is the file of what
   * drawers of this code learnt (see drawWorker.ts), learnt before drawing and written anew once a
   * drawing learnt more: a title edit's card then needs neither satori nor librsvg.
   */
  async draw(
    cards: readonly { hash: string; text: CardText }[],
    look: DrawLook,
    into: string,
    signal?: AbortSignal,
    knowledge?: string,
  ): Promise<DrawnCard[]> {
    if (cards.length === 0) return [];
    const request: DrawRequest = {
      kind: 'draw',
      into,
      ...look,
      cards: cards.map(({ hash, text }) => ({ hash, text })),
      ...(knowledge && { knowledge }),
    };
    if (cards.length >= PROCESS_AT) {
      const drawing = drawingProcess();
      try {
        return (await this.ask(drawing, request, signal)).drawn ?? [];
      } finally {
        await drawing.end();
      }
    }
    if (this.ownThread && !this.thread && cards.length < OWN_THREAD_BELOW) {
      signal?.throwIfAborted();
      const { answer } = await drawingCode();
      return (await answer(request)).drawn ?? [];
    }
    this.thread ??= drawingThread();
    return (await this.ask(this.thread, request, signal)).drawn ?? [];
  }

  /** Ends the drawing thread (a build session that does not build again). */
  async close(): Promise<void> {
    const thread = this.thread;
    this.thread = undefined;
    await thread?.end();
  }

  /**
   * Sends a request to a thread and waits for its answer; rejects with its error, or, ending the
   * thread, when `signal` is aborted.
   */
  private ask(thread: Drawing, request: DrawRequest, signal: AbortSignal | undefined): Promise<DrawReply> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const id = this.next++;
    return new Promise<DrawReply>((resolve, reject) => {
      const onAbort = () => {
        finish(signal?.reason);
        if (thread === this.thread) this.thread = undefined;
        void thread.end();
      };
      const onMessage = (reply: DrawReply) => {
        // An answer to another request is one of a draw that stopped before it.
        if (reply.id !== id) return;
        if (reply.error) finish(new Error(`a share card could not be drawn: ${reply.error}`));
        else finish(undefined, reply);
      };
      const onError = (error: Error) => finish(error);
      const onExit = (code: number) => finish(new Error(`a share-card thread stopped (exit code ${code})`));
      const finish = (error?: unknown, reply?: DrawReply) => {
        thread.events.off('message', onMessage).off('error', onError).off('exit', onExit);
        signal?.removeEventListener('abort', onAbort);
        thread.hold(false);
        if (reply) resolve(reply);
        else reject(error);
      };
      thread.events.on('message', onMessage).on('error', onError).on('exit', onExit);
      signal?.addEventListener('abort', onAbort);
      // Only while it draws: an idle thread never keeps the process alive.
      thread.hold(true);
      thread.post({ id, request });
    });
  }
}

const ENTRY = new URL('./drawWorker.mjs', import.meta.url);

/**
 * The drawing code, loaded on this thread by its path, as a drawing thread loads it (through
 * bin/launch.mjs), not imported: the build's code graph then never reaches it, and a change of the
 * card template or of the drawing moves the cards' fingerprint (drawWorker.ts and what it imports,
 * drawCards.ts among them) alone, not every page's.
 */
async function drawingCode(): Promise<typeof import('./drawCards')> {
  const launcher: { launch(entry: string): Promise<typeof import('./drawCards')> } = await import(
    new URL('../../bin/launch.mjs', import.meta.url).href
  );
  return launcher.launch('src/cards/drawCards.ts');
}

function drawingThread(): Drawing {
  const worker = new Worker(ENTRY, { resourceLimits: { maxYoungGenerationSizeMb: YOUNG_MB } });
  return {
    events: worker,
    post: (message) => worker.postMessage(message),
    hold: (held) => (held ? worker.ref() : worker.unref()),
    end: async () => {
      await worker.terminate();
    },
  };
}

/**
 * The process that draws a build's many cards. A process, not a thread: what librsvg, libvips and
 * satori allocate on its threads, the C allocator keeps in per-thread arenas until the process
 * ends (a thread would leave it in the build's process for the rest of the build), so it is given
 * back when the cards are drawn; with two arenas (`MALLOC_ARENA_MAX`), as the image encoder runs
 * (src/images/publish.ts). Messages are structured clones (`advanced`).
 */
function drawingProcess(): Drawing {
  const child: ChildProcess = fork(fileURLToPath(ENTRY), [], {
    env: { ...process.env, MALLOC_ARENA_MAX: '2' },
    // A young generation of 4 MB a half: its garbage is collected before it fills tens of
    // megabytes, which lowers the process's peak against V8's default; a smaller half makes the
    // collections cost more CPU.
    execArgv: ['--max-semi-space-size=4'],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return {
    events: child,
    post: (message) => child.send(message as never),
    hold: (held) => {
      if (held) child.ref();
      else child.unref();
      const channel = child.channel as { ref(): void; unref(): void } | null | undefined;
      if (held) channel?.ref();
      else channel?.unref();
    },
    end: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        // Held until it has ended: a process waiting only for an unheld child would end first.
        child.ref();
        child.kill();
      }),
  };
}
