import { access, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Explain } from '../build/explain';
import { changedInputs, sameInputs } from '../build/inputs';
import { agrees } from '../build/shortcuts';
import { digest } from '../load/digest';
import type { Site } from '../model/site';
import { type PagePlan, planCard } from '../render/plan';
import type { OutputManifest } from '../write/manifest';
import type { FileFacts, Output } from '../write/output';
import type { DrawnCard } from './drawCards';
import { CardInputsLog, cardHashOf } from './inputsLog';
import type { CardLook } from './look';
import type { CardBasis, CardPlan } from './plan';
import type { CardThreads } from './threads';

/**
 * `SITE_CARDS=off` builds without drawing or publishing any card (the pages still name theirs):
 * only to measure what the cards cost a build (docs/share-cards.md), never for a site.
 */
const CARDS_OFF = process.env.SITE_CARDS === 'off';

/**
 * Cards missing from the output from which the folder of drawn cards is listed to find which it
 * holds, rather than each looked for.
 */
const LIST_FROM = 64;

/**
 * Where a build keeps the drawn cards, each as `<hash>.png`: the build cache's folder of them, or a
 * folder of its own.
 */
export interface CardFolder {
  dir: string;
  /** Removed once the build is done (a build without a cache). */
  temporary: boolean;
}

/** The folder of drawn cards in the build cache (`cacheDir`), or a new temporary one. */
export async function cardFolder(cacheDir: string | undefined): Promise<CardFolder> {
  if (cacheDir) {
    const dir = path.join(cacheDir, 'cards');
    await mkdir(dir, { recursive: true });
    return { dir, temporary: false };
  }
  // In the system's temporary folder: a build stopped by a signal leaves nothing in the project.
  return { dir: await mkdtemp(path.join(os.tmpdir(), 'site-cards-')), temporary: true };
}

/** A build's cards, and their drawing under way. */
export interface CardWork {
  /** Each page's plan (see `planCard` for its card). */
  plans: readonly PagePlan[];
  site: Site;
  basis: CardBasis;
  folder: CardFolder;
  look: CardLook;
  threads: CardThreads;
  /**
   * The drawing of the cards the previous output and the folder lack; settled with their outcome
   * and the cards drawn.
   */
  drawing: Promise<{ error?: unknown; drawn?: readonly DrawnCard[] }>;
  /** The file of what the drawers of this code learnt (`knowledgeFile`). */
  knowledge: string | undefined;
  /** The inputs of the cards published, for `--explain` (the output's manifest records none). */
  inputs: CardInputsLog;
}

/** What `startCards` reads. */
export interface CardStart {
  plans: readonly PagePlan[];
  /** The site the plans were made for, and what its cards are drawn with. */
  site: Site;
  basis: CardBasis;
  /** The output the build will replace or update, whose cards are carried over while their inputs are the same. */
  previous: OutputManifest | undefined;
  folder: CardFolder;
  look: CardLook;
  threads: CardThreads;
  signal?: AbortSignal;
}

/**
 * Starts drawing, on the card threads, every card of the build that neither the previous output
 * (by its inputs) nor the folder of drawn cards (by its hash) holds: they draw while this thread
 * checks, renders and indexes, and `publishCards` waits for them. A page carried over keeps its
 * card (its inputs determine it, see `planCard`): only the cards of the other pages are worked out.
 */
export async function startCards({
  plans,
  site,
  basis,
  previous,
  folder,
  look,
  threads,
  signal,
}: CardStart): Promise<CardWork> {
  const kept = (plan: PagePlan) => {
    const entry = previous?.files.get(plan.file);
    if (entry?.card === undefined || !previous?.files.has(entry.card) || !sameInputs(entry.inputs, plan.inputs))
      return false;
    // The very record from now on, as `Output.carry` makes it: the render stage compares it by identity.
    entry.inputs = plan.inputs;
    return true;
  };
  // Named by a hash of its inputs: the previous output's card of the same name was drawn from the same.
  let missing = CARDS_OFF
    ? []
    : plans
        .filter((plan) => !kept(plan))
        .map((plan) => planCard(plan, site, basis))
        .filter((card) => !previous?.files.has(card.file));
  if (missing.length >= LIST_FROM) {
    const drawn = new Set(await readdir(folder.dir));
    missing = missing.filter((card) => !drawn.has(`${card.hash}.png`));
  } else if (missing.length > 0) {
    // A few (an edit's): each looked for, rather than the folder of every card listed.
    const found = await Promise.all(
      missing.map((card) =>
        access(path.join(folder.dir, `${card.hash}.png`)).then(
          () => true,
          () => false,
        ),
      ),
    );
    missing = missing.filter((_, i) => !found[i]);
  }
  const knowledge = knowledgeFile(folder, basis.code);
  const inputs = new CardInputsLog(folder.temporary ? undefined : path.join(folder.dir, 'inputs.log'));
  const drawing = threads
    .draw(
      missing,
      { colours: look.colours, ...(look.avatar && { avatar: look.avatar }) },
      folder.dir,
      signal,
      knowledge,
    )
    .then(
      (drawn) => ({ drawn }),
      (error: unknown) => ({ error }),
    );
  return { plans, site, basis, folder, look, threads, drawing, knowledge, inputs };
}

/**
 * Where the build cache keeps what the drawers of the cards' code learnt (frames, shapes of words,
 * glyphs: see `DrawerKnowledge`), named by that code's fingerprint, which every card's inputs name:
 * code that draws otherwise never reads what other code drew. None for a build without a cache.
 */
function knowledgeFile(folder: CardFolder, code: string): string | undefined {
  return folder.temporary || !code ? undefined : path.join(folder.dir, `drawer.${code}.bin`);
}

/**
 * Adds every page's card to the output: carried over while its inputs are unchanged, read from the
 * folder of drawn cards otherwise (drawn now if it went missing meanwhile: another build's prune).
 * `--explain` names the inputs that differ from those of the card the page named last time ("title").
 * With `prune`, the folder then keeps only this build's cards.
 */
export async function publishCards(work: CardWork, output: Output, explain: Explain, prune: boolean): Promise<void> {
  const { error, drawn } = await work.drawing;
  if (error) throw error;
  if (CARDS_OFF) return;
  const { folder, look, threads } = work;
  // The bytes of the cards this build drew, as their thread wrote them: not read back to be published.
  const facts = new Map<string, FileFacts>((drawn ?? []).map(({ card, hash, bytes }) => [card, { hash, bytes }]));
  const made: CardPlan[] = [];
  const cardOf = (plan: PagePlan) => planCard(plan, work.site, work.basis);
  // The file of each page's card, in the order of the pages.
  const names: string[] = [];
  for (const plan of work.plans) {
    // The card its page names: recorded with the page when it was made, and carried over with it.
    const named = output.files.get(plan.file)?.card;
    if (named !== undefined) agrees(`the card ${plan.file} names`, named, () => cardOf(plan).file);
    const name = named ?? cardOf(plan).file;
    names.push(name);
    if (output.carryNamed(name)) continue;
    const card = cardOf(plan);
    const before = cardHashOf(output.previous?.files.get(plan.file)?.card ?? '');
    explain(card.file, changedInputs(before === undefined ? undefined : await work.inputs.of(before), card.inputs));
    const file = path.join(folder.dir, `${card.hash}.png`);
    const known: FileFacts =
      facts.get(card.hash) ??
      factsOf(
        await readFile(file).catch(async () => {
          await threads.draw(
            [card],
            { colours: look.colours, ...(look.avatar && { avatar: look.avatar }) },
            folder.dir,
            undefined,
            work.knowledge,
          );
          return readFile(file);
        }),
      );
    // Linked, not written again: the cache's card and the output's are one file on disk.
    await output.addLinked(card.file, file, known);
    made.push(card);
  }
  await work.inputs.keep(made, work.plans.length, () => work.plans.map(cardOf));
  // Cards alone: a temporary file is another process's, or swept once its process has ended (cacheSweep.ts).
  // None to drop when no card was made and the previous output had as many.
  if (prune && !folder.temporary && (made.length > 0 || cardFiles(output.previous) !== work.plans.length)) {
    const kept = new Set(names.map((name) => `${cardHashOf(name)}.png`));
    // With the knowledge of other code than this build's.
    const knowledge = work.knowledge && path.basename(work.knowledge);
    const dropped = (name: string) =>
      (name.endsWith('.png') && !kept.has(name)) || (/^drawer\..*\.bin$/.test(name) && name !== knowledge);
    for (const name of await readdir(folder.dir))
      if (dropped(name)) await rm(path.join(folder.dir, name), { force: true });
  }
}

/** How many share cards an output holds. */
function cardFiles(manifest: OutputManifest | undefined): number {
  let cards = 0;
  for (const file of manifest?.files.keys() ?? []) if (file.startsWith('assets/cards/')) cards++;
  return cards;
}

/** A card's bytes as the output records them. */
function factsOf(bytes: Buffer): FileFacts {
  return { hash: digest(bytes), bytes: bytes.byteLength };
}
