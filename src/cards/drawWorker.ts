import { rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parentPort, threadId } from 'node:worker_threads';
import type { CardColours, CardText } from '../shared/card';
import { CardDrawer } from './draw';

/** Sent to a drawing thread: cards to draw into a folder, each as `<hash>.png`, answered with the same id. */
export interface DrawBatch {
  id: number;
  /** The folder of drawn cards. */
  into: string;
  colours: CardColours;
  avatar?: string;
  cards: { hash: string; text: CardText }[];
}

/** The answer to a batch: every card written, or why one could not be. */
export interface DrawReply {
  id: number;
  error?: string;
}

// Made once per thread: the fonts are read here, and kept for every card the thread draws.
const drawer = new CardDrawer();

async function draw(batch: DrawBatch): Promise<void> {
  // Drawn together: satori lays out the words of a batch's cards in one drawing.
  const drawn = await drawer.drawAll(batch.cards.map((card) => ({ text: card.text, colours: batch.colours, ...(batch.avatar && { avatar: batch.avatar }) })));
  for (const [i, card] of batch.cards.entries()) {
    const png = (drawn[i] as (typeof drawn)[number]).png;
    // Under a name of its own first: a card found in the folder is always whole.
    const target = path.join(batch.into, `${card.hash}.png`);
    // Named as the build cache's temporaries are (see cacheSweep.ts): one a stopped process left is swept.
    const part = `${target}.${process.pid}.${threadId}.tmp`;
    await writeFile(part, png);
    await rename(part, target);
  }
}

parentPort?.on('message', (batch: DrawBatch) => {
  draw(batch).then(
    () => parentPort?.postMessage({ id: batch.id } satisfies DrawReply),
    (error: unknown) => parentPort?.postMessage({ id: batch.id, error: error instanceof Error ? error.message : String(error) } satisfies DrawReply),
  );
});
