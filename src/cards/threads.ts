import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { CardColours, CardText } from '../shared/card';
import type { DrawBatch, DrawReply } from './drawWorker';

/** Cards sent to a thread at once: few enough that the threads share the last ones evenly. */
const BATCH = 8;

/** Cards to draw past which a second thread is worth its start (about 0.3 s: satori, sharp and the fonts loaded). */
const PER_THREAD = 200;

/** What a set of cards is drawn with besides their words. */
export interface DrawLook {
  colours: CardColours;
  avatar?: string;
}

/**
 * The threads that draw share cards (drawWorker.ts), started when a build first has cards to
 * draw, so that they draw while the build's own thread checks, renders and indexes. One thread,
 * or one per core when there are hundreds of cards. A build session keeps them while it builds
 * again (`site dev`): the fonts are then read once for the session, not once per save.
 */
export class CardThreads {
  private readonly threads: Worker[] = [];
  private next = 0;

  /**
   * Draws `cards` into the folder `into` (each as `<hash>.png`); resolves once every one is
   * written. Rejects when one cannot be drawn, or when `signal` is aborted (the batches not yet
   * sent are dropped; those under way are finished).
   */
  async draw(cards: readonly { hash: string; text: CardText }[], look: DrawLook, into: string, signal?: AbortSignal): Promise<void> {
    if (cards.length === 0) return;
    const wanted = Math.min(Math.max(1, os.availableParallelism()), Math.ceil(cards.length / PER_THREAD));
    while (this.threads.length < wanted) this.threads.push(new Worker(new URL('./drawWorker.mjs', import.meta.url)));
    const batches: DrawBatch[] = [];
    for (let at = 0; at < cards.length; at += BATCH) batches.push({ id: this.next++, into, ...look, cards: cards.slice(at, at + BATCH) });
    // Each thread takes the next batch as it answers the last.
    await Promise.all(this.threads.slice(0, wanted).map((thread) => drawOn(thread, batches, signal)));
  }

  /** Ends the threads (a build session that does not build again). */
  async close(): Promise<void> {
    const threads = this.threads.splice(0);
    await Promise.all(threads.map((thread) => thread.terminate()));
  }
}

/** Sends `batches` to one thread, one at a time, taking each from the shared list. */
function drawOn(thread: Worker, batches: DrawBatch[], signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    // The batch this thread is drawing: an answer to another is one of a draw that stopped before it.
    let sent = -1;
    const send = () => {
      if (signal?.aborted) return finish(signal.reason);
      const batch = batches.shift();
      if (!batch) return finish();
      sent = batch.id;
      thread.postMessage(batch);
    };
    const onMessage = (reply: DrawReply) => {
      if (reply.id !== sent) return;
      if (reply.error) finish(new Error(`a share card could not be drawn: ${reply.error}`));
      else send();
    };
    const onError = (error: Error) => finish(error);
    const onExit = (code: number) => finish(new Error(`a share-card thread stopped (exit code ${code})`));
    const finish = (error?: unknown) => {
      thread.off('message', onMessage).off('error', onError).off('exit', onExit);
      thread.unref();
      if (error === undefined) resolve();
      else reject(error);
    };
    thread.on('message', onMessage).on('error', onError).on('exit', onExit);
    // Only while it draws: an idle thread never keeps the process alive.
    thread.ref();
    send();
  });
}
