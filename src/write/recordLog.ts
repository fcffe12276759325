import { open, readFile, rename } from 'node:fs/promises';
import { deserialize, serialize } from 'node:v8';

/** Bytes of records written at a time. */
const WRITE_CHUNK = 4 * 1024 * 1024;

/**
 * A file of records, each a value serialized by v8 after its length: a build appends the few
 * records it changed, and writes the file anew only once most of it is superseded. Each write
 * holds whole records, so two processes appending do not cut into each other's, and a record cut
 * short (a crash while appending) ends the log when it is read.
 */
export interface ReadLog {
  records: unknown[];
  /** False when the log ends in a damaged record: appending after it would be lost, so it must be written anew. */
  whole: boolean;
}

/** The records of the log in `file`; none when there is no file, as many as could be read when one is damaged. */
export async function readLog(file: string): Promise<ReadLog> {
  const records: unknown[] = [];
  let log: Buffer | undefined;
  let at = 0;
  try {
    log = await readFile(file);
    while (at + 4 <= log.length) {
      const length = log.readUInt32LE(at);
      if (at + 4 + length > log.length) break;
      records.push(deserialize(log.subarray(at + 4, at + 4 + length)));
      at += 4 + length;
    }
  } catch {
    // No log yet, or an unreadable record: what was read so far is kept.
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
 * Writes records a few megabytes at a time: a cold build's cache is hundreds of megabytes, which
 * would otherwise be held twice in memory (the records, and the buffer joining them) just as the
 * build's memory is at its peak.
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
    for (const value of records) {
      const record = serialize(value);
      const length = Buffer.alloc(4);
      length.writeUInt32LE(record.length);
      parts.push(length, record);
      bytes += 4 + record.length;
      if (bytes >= WRITE_CHUNK) await flush();
    }
    await flush();
  } finally {
    await handle.close();
  }
}
