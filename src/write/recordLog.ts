import { readFileSync } from 'node:fs';
import { open, readFile, rename } from 'node:fs/promises';
import { deserialize, serialize } from 'node:v8';

/** Bytes of records written at a time. */
const WRITE_CHUNK = 4 * 1024 * 1024;

/**
 * Bytes a batch of records aims at. V8 makes the values of a serialized text larger than 100 KiB
 * straight in its old generation (`kPretenureThreshold` in its value deserializer), where they
 * would end anyway: a cache read as many small texts is made in the young generation and copied
 * by the collector twice on its way there, which was a large share of a build with nothing to do.
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
}

/** The records of the log in `file`; none when there is no file, as many as could be read when one is damaged. */
export async function readLog(file: string): Promise<ReadLog> {
  return parseLog(await readFile(file).catch(() => undefined));
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

function parseLog(log: Buffer | undefined): ReadLog {
  const records: unknown[] = [];
  let at = 0;
  try {
    while (log && at + 4 <= log.length) {
      const word = log.readUInt32LE(at);
      const length = word & ~BATCH_FLAG;
      if (at + 4 + length > log.length) break;
      const value = deserialize(log.subarray(at + 4, at + 4 + length));
      if (word & BATCH_FLAG) for (const record of value as unknown[]) records.push(record);
      else records.push(value);
      at += 4 + length;
    }
  } catch {
    // An unreadable record: what was read so far is kept.
  }
  return { records, whole: !log || at === log.length };
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
