// A thread that writes output files with their compressed copies (see CompressThreads in
// compress.ts): on a thread of its own, zlib's synchronous calls compress a page for less CPU
// than its asynchronous ones, which hand each page to the thread pool and back through streams
// on the build's own thread. Plain JavaScript with no imports of ours: it starts as Node starts it.
import { writeFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const port = parentPort;
if (!port) throw new Error('compressWorker.mjs runs as a worker thread');

/**
 * Writes `bytes` at `target`, then each copy that comes out smaller beside it (`.br`, `.gz`), and
 * answers the sizes of the copies written; or the error that stopped it.
 * @param {{ id: number, target: string, bytes: Uint8Array, brotli: number, gzip: number }} job
 */
function write({ id, target, bytes, brotli, gzip }) {
  try {
    writeFileSync(target, bytes);
    /** @type {{ br?: number, gz?: number }} */
    const sizes = {};
    const br = brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: brotli, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    });
    if (br.length < bytes.length) {
      writeFileSync(`${target}.br`, br);
      sizes.br = br.length;
    }
    const gzipped = gzipSync(bytes, { level: gzip });
    if (gzipped.length < bytes.length) {
      writeFileSync(`${target}.gz`, gzipped);
      sizes.gz = gzipped.length;
    }
    port?.postMessage({ id, sizes });
  } catch (error) {
    const { message, code } = /** @type {NodeJS.ErrnoException} */ (error);
    port?.postMessage({ id, error: { message: String(message), code } });
  }
}

port.on('message', write);
