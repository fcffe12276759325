import { mkdtemp, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { serialize } from 'node:v8';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendLog, findRecord, logPrefix, readFirstRecord, readLog, rewriteLog } from '../../../src/write/recordLog';

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

  it('finds one record by a text it holds, the last written, deserializing only the frames that hold the text', async () => {
    const file = path.join(dir, 'find.bin');
    const card = (hash: string, title: string) => [hash, { title, date: '2024-03-05' }];
    await rewriteLog(
      file,
      Array.from({ length: 3000 }, (_, i) => card(`c${String(i).padStart(9, '0')}`, `${'A title '.repeat(20)}${i}`)),
    );
    await appendLog(file, [card('c000001234', 'Written again'), card('c000009999', 'Only at the end')]);
    const log = await readFile(file);
    const byHash = (hash: string) => (record: unknown) => (record as [string])[0] === hash;
    expect(findRecord(log, 'c000000007', byHash('c000000007'))).toEqual(
      card('c000000007', `${'A title '.repeat(20)}7`),
    );
    expect(findRecord(log, 'c000001234', byHash('c000001234'))).toEqual(card('c000001234', 'Written again'));
    expect(findRecord(log, 'c000009999', byHash('c000009999'))).toEqual(card('c000009999', 'Only at the end'));
    // A text some records hold in another place: only a record that matches is found.
    expect(findRecord(log, 'A title', byHash('c000002999'))).toEqual(
      card('c000002999', `${'A title '.repeat(20)}2999`),
    );
    expect(findRecord(log, 'cffffffff0', byHash('cffffffff0'))).toBeUndefined();
    // Nothing past a frame cut short, as a read of the whole log.
    expect(findRecord(log.subarray(0, log.length - 5), 'c000009999', byHash('c000009999'))).toBeUndefined();
    // Only frames that hold the text are deserialized: the last frame, alone, when the text is only there.
    const calls: number[] = [];
    findRecord(log, 'c000009999', (record) => {
      calls.push(1);
      return byHash('c000009999')(record);
    });
    expect(calls.length).toBe(2);
  });

  it('reads nothing, and a whole log, where there is no file', async () => {
    expect(await readLog(path.join(dir, 'none.bin'))).toEqual({ records: [], whole: true });
  });

  it('tells how many records the bytes a prefix names hold, while the log still begins with them', async () => {
    const file = path.join(dir, 'grown.bin');
    await rewriteLog(file, [record(1), record(2)]);
    const prefix = await logPrefix(file);
    expect(prefix?.bytes).toBe((await stat(file)).size);
    expect((await readLog(file, prefix)).inPrefix).toBe(2);
    // Grown by appending: the first two records are still the ones the prefix held.
    await appendLog(file, [record(3)]);
    await appendLog(file, [record(4), record(5)]);
    expect(await readLog(file, prefix)).toEqual({
      records: [1, 2, 3, 4, 5].map(record),
      whole: true,
      inPrefix: 2,
    });
  });

  it('tells nothing of a prefix once the log was written anew, even with the same records and length', async () => {
    const file = path.join(dir, 'anew.bin');
    await rewriteLog(file, [record(1), record(2)]);
    const prefix = await logPrefix(file);
    await rewriteLog(file, [record(1), record(7)]);
    expect((await stat(file)).size).toBe(prefix?.bytes);
    expect((await readLog(file, prefix)).inPrefix).toBeUndefined();
    // Nor of one that does not end where a frame does.
    await rewriteLog(file, [record(1), record(2)]);
    const cut = { bytes: (prefix?.bytes ?? 0) - 1, hash: prefix?.hash ?? '' };
    expect((await readLog(file, cut)).inPrefix).toBeUndefined();
    expect((await readLog(file, prefix)).inPrefix).toBe(2);
  });

  it('reads the first record alone, from a batch or a frame of its own', async () => {
    const file = path.join(dir, 'first.bin');
    expect(await readFirstRecord(file)).toBeUndefined();
    await rewriteLog(
      file,
      Array.from({ length: 500 }, (_, i) => record(i)),
    );
    expect(await readFirstRecord(file)).toEqual(record(0));
    const text = serialize(record(9));
    const word = Buffer.alloc(4);
    word.writeUInt32LE(text.length);
    await writeFile(file, Buffer.concat([word, text]));
    expect(await readFirstRecord(file)).toEqual(record(9));
    await truncate(file, 10);
    expect(await readFirstRecord(file)).toBeUndefined();
  });
});
