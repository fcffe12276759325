import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CardInputsLog, cardHashOf } from '../../../src/cards/inputsLog';
import type { CardPlan } from '../../../src/cards/plan';

/** A planned card as the log reads it: its hash and inputs. */
const card = (hash: string, title: string) => ({ hash, inputs: { lang: 'en', title } }) as unknown as CardPlan;

describe('the inputs of the cards published', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'site-card-inputs-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads the hash in a card’s file name, and none in another file’s', () => {
    expect(cardHashOf('assets/cards/pt/blog/tech/Git.3f9a1c2b7d.png')).toBe('3f9a1c2b7d');
    expect(cardHashOf('blog/tech/Git.html')).toBeUndefined();
    expect(cardHashOf('assets/media/photo.3f9a1c2b7d.jpg')).toBeUndefined();
  });

  it('keeps each card’s inputs for the next build to read by hash', async () => {
    const all = Array.from({ length: 10 }, (_, i) => card(`${i}`.padStart(10, 'a'), `Title ${i}`));
    await new CardInputsLog(path.join(dir, 'inputs.log')).keep(all, all.length, () => all);
    const next = new CardInputsLog(path.join(dir, 'inputs.log'));
    expect(await next.of('aaaaaaaaa3')).toEqual({ lang: 'en', title: 'Title 3' });
    expect(await next.of('bbbbbbbbbb')).toBeUndefined();
  });

  it('appends the few cards of an edit, and writes the log anew once it has grown to about three times the site’s', async () => {
    const file = path.join(dir, 'inputs.log');
    const all = Array.from({ length: 10 }, (_, i) => card(`${i}`.padStart(10, 'a'), `Title ${i}`));
    const log = new CardInputsLog(file);
    await log.keep(all, all.length, () => all);
    const whole = (await stat(file)).size;
    // One title edited at a time: its new card is appended, the old one's inputs still there.
    let current = all;
    let before = whole;
    for (let edit = 1; edit < 100; edit++) {
      const retitled = card(`e${edit}`.padStart(10, 'c'), `Title 0, edit ${edit}`);
      current = [retitled, ...current.slice(1)];
      await log.keep([retitled], current.length, () => current);
      expect(await log.of(retitled.hash)).toEqual({ lang: 'en', title: `Title 0, edit ${edit}` });
      const size = (await stat(file)).size;
      expect(size).toBeLessThanOrEqual(4 * whole);
      if (size < before) {
        // Written anew: only the cards of the build, the earlier edits' gone.
        expect(edit).toBeGreaterThan(10);
        expect(await log.of(`e${edit - 1}`.padStart(10, 'c'))).toBeUndefined();
        expect(await log.of('aaaaaaaaa5')).toEqual({ lang: 'en', title: 'Title 5' });
        return;
      }
      // Appended: the earlier edit's card still there.
      if (edit > 1) expect(await log.of(`e${edit - 1}`.padStart(10, 'c'))).toBeDefined();
      before = size;
    }
    expect.unreachable('the log was never written anew');
  });

  it('keeps nothing for a build without a cache', async () => {
    const log = new CardInputsLog(undefined);
    await log.keep([card('aaaaaaaaaa', 'A')], 1, () => [card('aaaaaaaaaa', 'A')]);
    expect(await log.of('aaaaaaaaaa')).toBeUndefined();
  });
});
