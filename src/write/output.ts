import { cp, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { OutputFile } from './assets';

/**
 * Writes a complete site into a fresh folder beside `outDir`, then swaps it in with renames.
 * Until the swap, `outDir` is untouched; if anything fails the temporary folder is removed and
 * the previous output stays exactly as it was.
 */
export async function writeAtomically(outDir: string, files: readonly OutputFile[], copies: readonly { from: string; to: string }[]): Promise<void> {
  const parent = path.dirname(path.resolve(outDir));
  const stamp = `${process.pid}-${Date.now()}`;
  const staging = path.join(parent, `.dist-new-${stamp}`);
  const retired = path.join(parent, `.dist-old-${stamp}`);
  try {
    await mkdir(staging, { recursive: true });
    for (const copy of copies) await cp(copy.from, path.join(staging, copy.to), { recursive: true });
    const dirs = new Set(files.map((f) => path.dirname(path.join(staging, f.path))));
    await Promise.all([...dirs].map((d) => mkdir(d, { recursive: true })));
    await Promise.all(files.map((f) => writeFile(path.join(staging, f.path), f.contents)));
    await precompress(staging, files);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  let hadPrevious = true;
  try {
    await rename(outDir, retired);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      await rm(staging, { recursive: true, force: true });
      throw error;
    }
    hadPrevious = false;
  }
  try {
    await rename(staging, outDir);
  } catch (error) {
    if (hadPrevious) await rename(retired, outDir);
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  if (hadPrevious) await rm(retired, { recursive: true, force: true });
}

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text files worth compressing; media (video, images but SVG, PDF) are compressed already. */
const COMPRESSIBLE = /\.(html|css|js|json|svg|xml|txt)$/;

/**
 * Writes a brotli (.br) and a gzip (.gz) copy next to every text file, so the server can answer
 * by negotiation without compressing on each request. Copies that would not be smaller are skipped.
 */
async function precompress(dir: string, files: readonly OutputFile[]): Promise<void> {
  await Promise.all(
    files
      .filter((f) => COMPRESSIBLE.test(f.path))
      .map(async (f) => {
        const raw = typeof f.contents === 'string' ? Buffer.from(f.contents) : f.contents;
        const [br, gzipped] = await Promise.all([
          brotli(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
          gz(raw, { level: 9 }),
        ]);
        const target = path.join(dir, f.path);
        if (br.length < raw.length) await writeFile(`${target}.br`, br);
        if (gzipped.length < raw.length) await writeFile(`${target}.gz`, gzipped);
      }),
  );
}
