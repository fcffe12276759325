import { mkdtemp, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { serialize } from 'node:v8';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendLog, readLog, rewriteLog } from '../../../src/write/recordLog';

/** The frames of a log: each one's length word's batch flag and its length. */
async function frames(file: string): Promise<{ batch: boolean; length: number }[]> {
  const log = await readFile(file);
  const found: { batch: boolean; length: number }[] = [];
  for (let at = 0; at + 4 <= log.length; ) {
    const word = log.readUInt32LE(at);
    const length = word & 0x7fffffff;
    found.push({ batch: word >= 0x80000000, length });
    at += 4 + length;
  }
  return found;
}

/** A record shaped like a compiled body's: a path, its inputs, a few kilobytes of facts. */
function record(i: number): [string, { inputs: Record<string, string>; value: { words: number; text: string } }] {
  return [
    `content/blog/post${i}.md`,
    { inputs: { text: `hash ${i}` }, value: { words: i, text: 'word '.repeat(400) } },
  ];
}

describe('record logs', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'record-log-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads back every record in order, written as a few large batches', async () => {
    const file = path.join(dir, 'log.bin');
    const records = Array.from({ length: 3000 }, (_, i) => record(i));
    await rewriteLog(file, records);
    await appendLog(file, [record(3000)]);
    const read = await readLog(file);
    expect(read).toEqual({ records: [...records, record(3000)], whole: true });
    // Read as a few texts of hundreds of kilobytes rather than one per record (see BATCH_BYTES).
    const written = await frames(file);
    expect(written.every((frame) => frame.batch)).toBe(true);
    expect(written.length).toBeLessThan(3001 / 50);
    expect(Math.max(...written.map((frame) => frame.length))).toBeGreaterThan(100 * 1024);
  });

  it('reads a log written one record a frame, as logs were before batches', async () => {
    const file = path.join(dir, 'old.bin');
    const records = [record(1), record(2), record(3)];
    const parts = records.flatMap((value) => {
      const text = serialize(value);
      const word = Buffer.alloc(4);
      word.writeUInt32LE(text.length);
      return [word, text];
    });
    await writeFile(file, Buffer.concat(parts));
    await appendLog(file, [record(4)]);
    expect(await readLog(file)).toEqual({ records: [...records, record(4)], whole: true });
  });

  it('keeps the whole batches of a log cut short by a crash, and says it must be written anew', async () => {
    const file = path.join(dir, 'cut.bin');
    await rewriteLog(file, [record(1), record(2)]);
    await appendLog(file, [record(3)]);
    await truncate(file, (await stat(file)).size - 5);
    expect(await readLog(file)).toEqual({ records: [record(1), record(2)], whole: false });
  });

  it('reads nothing, and a whole log, where there is no file', async () => {
    expect(await readLog(path.join(dir, 'none.bin'))).toEqual({ records: [], whole: true });
  });
});
