// Drawing share cards into the folder of drawn cards: what a drawing thread or process runs for
// each request (drawWorker.ts), and what a build with a few cards and no thread runs itself
// (CardThreads in threads.ts).
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { threadId } from 'node:worker_threads';
import { digest } from '../load/digest';
import type { CardColours, CardText } from '../shared/card';
import type { FileFacts } from '../write/output';
import { CardDrawer, type DrawerKnowledge } from './draw';

/** Cards to draw into a folder, each as `<hash>.png`, with what they are drawn with besides their words. */
interface Cards {
  /** The folder of drawn cards. */
  into: string;
  colours: CardColours;
  avatar?: string;
  cards: { hash: string; text: CardText }[];
  /**
   * The file of what drawers of this code have learnt (`DrawerKnowledge`), in the build cache:
   * learnt before drawing, once per file, and written anew after a drawing that learnt more.
   */
  knowledge?: string;
}

/** Sent to a drawing thread or process, answered with the same id: cards to draw. */
export type DrawRequest = { kind: 'draw' } & Cards;

/** A card drawn: the hash it is named by, and its bytes' digest and length as the output records them. */
export interface DrawnCard extends FileFacts {
  card: string;
}

/** The answer to a request: the cards drawn, or why not. */
export interface DrawReply {
  id: number;
  error?: string;
  drawn?: DrawnCard[];
}

// Made once per thread (or process) that draws: the fonts are read here, and kept for every card it draws.
const drawer = new CardDrawer();

const propsOf = (request: Cards) =>
  request.cards.map((card) => ({
    text: card.text,
    colours: request.colours,
    ...(request.avatar && { avatar: request.avatar }),
  }));

/** Cards drawn together: satori lays out the words of those it lays out in one drawing. */
const BATCH = 8;

async function draw(request: Cards): Promise<DrawnCard[]> {
  const written: DrawnCard[] = [];
  for (let at = 0; at < request.cards.length; at += BATCH)
    await drawBatch({ ...request, cards: request.cards.slice(at, at + BATCH) }, written);
  return written;
}

/**
 * Draws cards and writes each; tells `written` of each card's bytes, which the build then need
 * not read back from the file to publish it.
 */
async function drawBatch(request: Cards, written: DrawnCard[]): Promise<void> {
  const drawn = await drawer.drawAll(propsOf(request));
  for (const [i, card] of request.cards.entries()) {
    const png = (drawn[i] as (typeof drawn)[number]).png;
    // Under a name of its own first: a card found in the folder is always whole.
    const target = path.join(request.into, `${card.hash}.png`);
    // Named as the build cache's temporaries are (see cacheSweep.ts): one a stopped process left is swept.
    const part = `${target}.${process.pid}.${threadId}.tmp`;
    await writeFile(part, png);
    await rename(part, target);
    written.push({ card: card.hash, hash: digest(png), bytes: png.byteLength });
  }
}

/** Draws the cards of a request in this thread, learning from and keeping to its knowledge file. */
export async function answer(request: DrawRequest): Promise<Omit<DrawReply, 'id'>> {
  const { knowledge } = request;
  if (knowledge) await learnFrom(knowledge);
  const before = await drawer.known();
  const drawn = await draw(request);
  if (knowledge && (await drawer.known()) > before) await keepIn(knowledge);
  return { drawn };
}

/** The knowledge file this drawer has learnt from. */
let learnt: string | undefined;

/** Learns what the file holds, once; a file missing or unreadable teaches nothing (what it would hold is drawn). */
async function learnFrom(file: string): Promise<void> {
  if (learnt === file) return;
  learnt = file;
  const bytes = await readFile(file).catch(() => undefined);
  let knowledge: DrawerKnowledge | undefined;
  try {
    knowledge = bytes && (deserialize(bytes) as DrawerKnowledge);
  } catch {
    // Damaged: drawn again, and written anew by the next build with many cards.
  }
  if (knowledge) drawer.learn(knowledge);
}

/** Writes what this drawer knows into the file, under a name of its own first (a reader finds it whole). */
async function keepIn(file: string): Promise<void> {
  const part = `${file}.${process.pid}.${threadId}.tmp`;
  await writeFile(part, serialize(await drawer.knowledge()));
  await rename(part, file);
}
