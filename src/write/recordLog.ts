import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { open, readFile, rename } from 'node:fs/promises';
import { deserialize, serialize } from 'node:v8';

/** Bytes of records written at a time. */
const WRITE_CHUNK = 4 * 1024 * 1024;

/**
 * Bytes a batch of records aims at: one deserialization and one frame for many records. Node 20's
 * v8 makes what it deserializes in the young generation whatever the text's size (the markdown
 * cache of 4,000 articles read as 43 KB or as 433 KB batches: 27.7 MB promoted by the collector
 * either way), so every object read from a log is copied twice on its way to the old generation:
 * a record kept as fewer objects (a JSON text parsed when asked for, see packedFacts) costs less.
 */
const BATCH_BYTES = 256 * 1024;
/** Records in the first batch of a write, before their size is known. */
const FIRST_BATCH = 64;
/** Set in the length word of a frame holding a batch (an array of records) rather than one record. */
const BATCH_FLAG = 0x80000000;

/**
 * A file of records: frames, each a length word and a value serialized by v8, either one record
 * (as every log was once written) or, with `BATCH_FLAG` set in its length word, an array of
 * records. A build appends the few records it changed, and writes the file anew only once most of
 * it is superseded. Each write holds whole frames, so two processes appending do not cut into
 * each other's, and a frame cut short (a crash while appending) ends the log when it is read.
 */
export interface ReadLog {
  records: unknown[];
  /** False when the log ends in a damaged record: appending after it would be lost, so it must be written anew. */
  whole: boolean;
  /**
   * When the log was read for a `LogPrefix` and still begins with those very bytes, ending with a
   * whole frame: how many of its records they hold.
   */
  inPrefix?: number;
}

/**
 * The first bytes of a log, by their length and hash. A log only grows by appending whole frames
 * until it is written anew, so while it still begins with these bytes, its first records are the
 * ones they held: what the log said then can be read back from the log as it is now.
 */
export interface LogPrefix {
  bytes: number;
  hash: string;
}

/**
 * The records of the log in `file`; none when there is no file, as many as could be read when one
 * is damaged. With `prefix`, also how many records the log's first bytes hold when they are still
 * those bytes (`inPrefix`).
 */
export async function readLog(file: string, prefix?: LogPrefix): Promise<ReadLog> {
  return parseLog(await readFile(file).catch(() => undefined), prefix);
}

/** The whole log in `file` as it is now, as a prefix of what it may grow to; undefined when there is none. */
export async function logPrefix(file: string): Promise<LogPrefix | undefined> {
  const log = await readFile(file).catch(() => undefined);
  return log && { bytes: log.length, hash: hashOf(log) };
}

function hashOf(bytes: Uint8Array): string {
  return createHash('sha1').update(bytes).digest('base64url');
}

/**
 * The first record of the log in `file`, read alone (a log may be megabytes long); undefined when
 * there is none, or it cannot be read.
 */
export async function readFirstRecord(file: string): Promise<unknown> {
  const handle = await open(file, 'r').catch(() => undefined);
  if (!handle) return undefined;
  try {
    const word = Buffer.alloc(4);
    if ((await handle.read(word, 0, 4, 0)).bytesRead < 4) return undefined;
    const length = word.readUInt32LE() & ~BATCH_FLAG;
    const frame = Buffer.alloc(length);
    if ((await handle.read(frame, 0, length, 4)).bytesRead < length) return undefined;
    const value = deserialize(frame);
    return word.readUInt32LE() & BATCH_FLAG ? (value as unknown[])[0] : value;
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

/** `readLog`, for a reader that cannot wait: a few records, read when something was not where it was. */
export function readLogSync(file: string): ReadLog {
  let log: Buffer | undefined;
  try {
    log = readFileSync(file);
  } catch {
    // No log yet.
  }
  return parseLog(log);
}

function parseLog(log: Buffer | undefined, prefix?: LogPrefix): ReadLog {
  const records: unknown[] = [];
  let at = 0;
  let inPrefix: number | undefined;
  // Looked at where each frame ends: a prefix ends with a whole frame.
  const ended = () => {
    if (log && at === prefix?.bytes && hashOf(log.subarray(0, at)) === prefix.hash) inPrefix = records.length;
  };
  try {
    ended();
    while (log && at + 4 <= log.length) {
      const word = log.readUInt32LE(at);
      const length = word & ~BATCH_FLAG;
      if (at + 4 + length > log.length) break;
      const value = deserialize(log.subarray(at + 4, at + 4 + length));
      if (word & BATCH_FLAG) for (const record of value as unknown[]) records.push(record);
      else records.push(value);
      at += 4 + length;
      ended();
    }
  } catch {
    // An unreadable record: what was read so far is kept.
  }
  return { records, whole: !log || at === log.length, ...(inPrefix !== undefined && { inPrefix }) };
}

/**
 * The last record of `log` (a log's bytes) for which `matches` holds, looked for only in the frames
 * whose bytes hold `needle`, a text every such record holds: v8 writes a Latin-1 text as its very
 * bytes, so a log of thousands of records is searched in place for one, and only a frame that
 * holds the text is deserialized. Undefined when none matches; frames after a damaged one are
 * not read, as `readLog` reads none.
 */
export function findRecord(log: Buffer, needle: string, matches: (record: unknown) => boolean): unknown {
  const bytes = Buffer.from(needle, 'latin1');
  let found: unknown;
  let at = 0;
  // Where the text is next, from the frame at `at` on: frames before it are stepped over by their length words.
  let hit = log.indexOf(bytes);
  try {
    while (hit !== -1 && at + 4 <= log.length) {
      const word = log.readUInt32LE(at);
      const end = at + 4 + (word & ~BATCH_FLAG);
      if (end > log.length) break;
      if (hit < at + 4) {
        hit = log.indexOf(bytes, at + 4);
        continue;
      }
      if (hit + bytes.length <= end) {
        const value = deserialize(log.subarray(at + 4, end));
        for (const record of word & BATCH_FLAG ? (value as unknown[]) : [value]) if (matches(record)) found = record;
        hit = log.indexOf(bytes, end);
      }
      at = end;
    }
  } catch {
    // An unreadable record: what was found before it stands.
  }
  return found;
}

/** Adds `records` to the end of the log in `file`. */
export function appendLog(file: string, records: Iterable<unknown>): Promise<void> {
  return writeRecords(file, 'a', records);
}

/** Writes the log in `file` anew with `records`, atomically (a reader sees the old log or the new one). */
export async function rewriteLog(file: string, records: Iterable<unknown>): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeRecords(temporary, 'w', records);
  await rename(temporary, file);
}

/**
 * Writes records in batches of about `BATCH_BYTES`, a few megabytes at a time: a cold build's
 * cache is hundreds of megabytes, which would otherwise be held twice in memory (the records, and
 * the buffer joining them) just as the build's memory is at its peak.
 */
async function writeRecords(file: string, flags: 'w' | 'a', records: Iterable<unknown>): Promise<void> {
  const handle = await open(file, flags);
  try {
    let parts: Buffer[] = [];
    let bytes = 0;
    const flush = async () => {
      if (parts.length > 0) await handle.write(Buffer.concat(parts, bytes));
      parts = [];
      bytes = 0;
    };
    let batch: unknown[] = [];
    let size = FIRST_BATCH;
    const frame = () => {
      const text = serialize(batch);
      if (text.length >= BATCH_FLAG)
        throw new RangeError(`a batch of records too large for a log: ${text.length} bytes`);
      const word = Buffer.alloc(4);
      word.writeUInt32LE((text.length | BATCH_FLAG) >>> 0);
      parts.push(word, text);
      bytes += 4 + text.length;
      // The next batch holds as many records as make about BATCH_BYTES at this batch's average.
      size = Math.max(1, Math.round((BATCH_BYTES * batch.length) / text.length));
      batch = [];
    };
    for (const value of records) {
      batch.push(value);
      if (batch.length < size) continue;
      frame();
      if (bytes >= WRITE_CHUNK) await flush();
    }
    if (batch.length > 0) frame();
    await flush();
  } finally {
    await handle.close();
  }
}
