import { readFile, stat } from 'node:fs/promises';
import { serialize } from 'node:v8';
import type { Inputs } from '../build/inputs';
import { appendLog, findRecord, rewriteLog } from '../write/recordLog';
import type { CardPlan } from './plan';

/** A card's record in the log: its hash, and the inputs it was drawn from. */
type CardRecord = [hash: string, inputs: Inputs];

/** The hash in a card's file name ("assets/cards/aboutme.e1bf1eb97c.png"), or undefined for another file. */
export function cardHashOf(file: string): string | undefined {
  return /\.([0-9a-f]{10})\.png$/.exec(file)?.[1];
}

/**
 * The inputs of the cards published, by hash, kept beside the drawn cards (`inputs.log`). The
 * output's manifest records none for a card: its name is a hash of its inputs, so the same name
 * is the same inputs (see `Output.carryNamed`), and thousands of records no build reads would
 * weigh on every build's reading of the manifest. They are read only to say which of a card's
 * inputs changed when it is made again (`--explain`), and only then; and only the part of the log
 * that holds such a card's record is deserialized.
 */
export class CardInputsLog {
  /** The log's bytes, read once a build asks: a card made again is looked for in place (`findRecord`). */
  private bytes: Promise<Buffer | undefined> | undefined;

  /** `file` undefined: a build without a cache, which keeps nothing. */
  constructor(private readonly file: string | undefined) {}

  /** The inputs of the card with this hash, when they were kept. */
  async of(hash: string): Promise<Inputs | undefined> {
    if (!this.file) return undefined;
    this.bytes ??= readFile(this.file).catch(() => undefined);
    const log = await this.bytes;
    const record =
      log && (findRecord(log, hash, (record) => (record as CardRecord)[0] === hash) as CardRecord | undefined);
    return record?.[1];
  }

  /**
   * Keeps the inputs of the cards published now (`made`), of the build's `total`. The log is
   * written anew with the build's every card (`all`, worked out then) when most of them are new,
   * or when it has grown to three times their size (the cards of edits since, long gone);
   * otherwise `made` is appended.
   */
  async keep(made: readonly CardPlan[], total: number, all: () => readonly CardPlan[]): Promise<void> {
    const { file } = this;
    if (!file || made.length === 0) return;
    const record = (card: CardPlan): CardRecord => [card.hash, card.inputs];
    const size = await stat(file).then(
      (info) => info.size,
      () => undefined,
    );
    const sample = made[0] as CardPlan;
    const whole = total * (serialize(record(sample)).length + 4);
    if (size === undefined || 2 * made.length >= total || size > 3 * whole) await rewriteLog(file, all().map(record));
    else await appendLog(file, made.map(record));
    this.bytes = undefined;
  }
}
