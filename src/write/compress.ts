import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text files worth compressing; media (video, images but SVG, PDF) are compressed already. */
const COMPRESSIBLE = /\.(html|css|js|json|svg|xml|txt)$/;

/**
 * Settings per file: the hashed assets are few and cached for a year, so they get the densest
 * (brotli 11, gzip 9). Pages and search indexes are many or large and change with content: brotli
 * 5 compresses them many times faster than 11 for a few percent more bytes, and gzip 6 a large
 * search index many times faster than 9 for a few percent more.
 */
function settings(file: string): { brotli: number; gzip: number } {
  return file.startsWith('assets/') ? { brotli: 11, gzip: 9 } : { brotli: 5, gzip: 6 };
}

/** The compressed copies written beside a file, by their suffix, with their sizes; a copy not written has none. */
export interface CopySizes {
  br?: number;
  gz?: number;
}

/**
 * Writes a file and, for text, a brotli (.br) and a gzip (.gz) copy beside it, so the server
 * answers by negotiation without compressing on each request. A copy that would not be smaller is
 * skipped. Returns the size of each copy written. The file's folder must exist.
 */
export async function writeWithCopies(
  dir: string,
  file: string,
  contents: string | Uint8Array,
  compress: boolean,
  threads?: CompressThreads,
): Promise<CopySizes> {
  const target = path.join(dir, file);
  const level = settings(file);
  const compressed = compress && compressible(file);
  if (compressed && threads)
    return threads.write(target, typeof contents === 'string' ? Buffer.from(contents) : contents, level);
  await writeFile(target, contents);
  if (!compressed) return {};
  const raw = typeof contents === 'string' ? Buffer.from(contents) : contents;
  const [br, gzipped] = await Promise.all([
    brotli(raw, {
      params: { [constants.BROTLI_PARAM_QUALITY]: level.brotli, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
    }),
    gz(raw, { level: level.gzip }),
  ]);
  const sizes: CopySizes = {};
  if (br.length < raw.length) {
    await writeFile(`${target}.br`, br);
    sizes.br = br.length;
  }
  if (gzipped.length < raw.length) {
    await writeFile(`${target}.gz`, gzipped);
    sizes.gz = gzipped.length;
  }
  return sizes;
}

/** Whether `file` is written with compressed copies when its output compresses. */
export function compressible(file: string): boolean {
  return COMPRESSIBLE.test(file);
}

const WORKER = new URL('./compressWorker.mjs', import.meta.url);
/**
 * A compressing thread's young generation, in megabytes: its garbage is a few small objects per
 * file (the bytes themselves are outside the heap), and V8's default for a thread lets it grow to
 * tens of megabytes before collecting it, memory the build's peak pays for.
 */
const YOUNG_MB = 2;

/** A file for a thread to write, with the settings of its copies. */
interface WriteJob {
  id: number;
  target: string;
  bytes: Uint8Array;
  brotli: number;
  gzip: number;
}

type WriteAnswer = { id: number; sizes: CopySizes } | { id: number; error: { message: string; code?: string } };

/**
 * Threads that write files with their compressed copies (compressWorker.mjs), for a build that
 * writes many: zlib's synchronous calls on threads of their own cost less CPU than its
 * asynchronous ones (thread pool and streams), and leave the build's own thread to render. The
 * copies are the same bytes either way. Each file goes to the thread with the fewest in hand.
 */
export class CompressThreads {
  private readonly threads: { worker: Worker; waiting: Map<number, (answer: WriteAnswer) => void> }[];
  private next = 0;
  /** The files sent to a thread and not yet written. */
  private readonly inHand = new Set<Promise<CopySizes>>();

  constructor(count: number) {
    this.threads = Array.from({ length: count }, () => {
      const worker = new Worker(WORKER, { resourceLimits: { maxYoungGenerationSizeMb: YOUNG_MB } });
      const waiting = new Map<number, (answer: WriteAnswer) => void>();
      worker.on('message', (answer: WriteAnswer) => {
        waiting.get(answer.id)?.(answer);
        waiting.delete(answer.id);
      });
      // A thread that fails or stops (memory, a killed thread) fails the files it held.
      const fail = (error: Error) => {
        for (const answer of waiting.values()) answer({ id: -1, error: { message: error.message } });
        waiting.clear();
      };
      worker.on('error', fail);
      worker.on('exit', (code) => fail(new Error(`a compressing thread stopped (exit code ${code})`)));
      return { worker, waiting };
    });
  }

  write(target: string, bytes: Uint8Array, level: { brotli: number; gzip: number }): Promise<CopySizes> {
    const thread = this.threads.reduce((best, each) => (each.waiting.size < best.waiting.size ? each : best));
    const job: WriteJob = { id: this.next++, target, bytes, brotli: level.brotli, gzip: level.gzip };
    const written = new Promise<CopySizes>((resolve, reject) => {
      thread.waiting.set(job.id, (answer) => {
        if ('sizes' in answer) resolve(answer.sizes);
        else reject(Object.assign(new Error(answer.error.message), { code: answer.error.code }));
      });
      thread.worker.postMessage(job);
    });
    this.inHand.add(written);
    const settled = () => this.inHand.delete(written);
    written.then(settled, settled);
    return written;
  }

  /** Ends the threads once the files in hand are written (their failures are their writers' to report). */
  async close(): Promise<void> {
    await Promise.allSettled(this.inHand);
    await Promise.all(this.threads.map(({ worker }) => worker.terminate()));
  }
}
