import { cp, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
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
