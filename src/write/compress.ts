import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
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
): Promise<CopySizes> {
  const target = path.join(dir, file);
  await writeFile(target, contents);
  if (!compress || !COMPRESSIBLE.test(file)) return {};
  const raw = typeof contents === 'string' ? Buffer.from(contents) : contents;
  const level = settings(file);
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
