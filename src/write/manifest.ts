import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Inputs } from '../build/inputs';

/** One file of an output folder, as the build cache remembers it. */
export interface ManifestEntry {
  /** Content hash. */
  hash: string;
  /** What the file was made from (rendered pages): equal inputs, equal file. */
  inputs?: Inputs;
  bytes: number;
  /** Size of the precompressed gzip copy, when one was written. */
  gzipBytes?: number;
}

/** What a build wrote into an output folder. */
export interface OutputManifest {
  outDir: string;
  /** The output folder's inode after the swap: another folder at the same path is not ours. */
  inode: number;
  files: Record<string, ManifestEntry>;
  /** Signature (paths, sizes, times) of every copied folder, by destination. */
  copies: Record<string, string>;
}

/** The manifest of `outDir` kept in `file`, when it still describes that very folder. */
export async function readManifest(file: string, outDir: string): Promise<OutputManifest | undefined> {
  try {
    return stillDescribes(JSON.parse(await readFile(file, 'utf8')) as OutputManifest, outDir);
  } catch {
    return undefined;
  }
}

/** The manifest, when the folder at `outDir` is still the one it was written for. */
export async function stillDescribes(manifest: OutputManifest, outDir: string): Promise<OutputManifest | undefined> {
  try {
    const current = await stat(outDir);
    return manifest.outDir === path.resolve(outDir) && manifest.inode === current.ino ? manifest : undefined;
  } catch {
    return undefined;
  }
}

export async function writeManifest(file: string, manifest: OutputManifest): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify(manifest));
  await rename(temporary, file);
}
