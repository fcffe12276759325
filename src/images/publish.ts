import { fork } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Explain } from '../build/explain';
import type { Inputs } from '../build/inputs';
import { type Diagnostic, diagnostic } from '../diagnostics/diagnostic';
import type { Output } from '../write/output';
import type { EncodeJob, EncodeReply } from './encoder';
import type { RasterCatalogue } from './raster';
import { variantsOf } from './variants';

/** Where a build keeps the encoded variants: the build cache's folder for this encoder, or a folder of its own. */
export interface VariantFolder {
  dir: string;
  /** Removed once the build is done (a build without a cache). */
  temporary: boolean;
}

/** The images and the folder the two steps below share. */
export interface ImageWork {
  images: RasterCatalogue;
  /** content/media, where the sources are read. */
  mediaDir: string;
  /** Fingerprint of the code that names and encodes the variants. */
  code: string;
  folder: VariantFolder;
}

/** The folder of the variants in the build cache (`cacheDir`), by code, or a new temporary one. */
export async function variantFolder(cacheDir: string | undefined, code: string): Promise<VariantFolder> {
  if (cacheDir) {
    const dir = path.join(cacheDir, 'images', folderName(code));
    await mkdir(dir, { recursive: true });
    return { dir, temporary: false };
  }
  // In the system's temporary folder: a build stopped by a signal leaves nothing in the project.
  return { dir: await mkdtemp(path.join(os.tmpdir(), 'site-images-')), temporary: true };
}

/**
 * Encodes every variant the folder lacks (src/images/variants.ts), in a child process: libvips
 * and the AVIF encoder allocate on many threads, and glibc keeps what they free in per-thread
 * arenas, so the memory is given back only when the process ends. The child is started with
 * two arenas (`MALLOC_ARENA_MAX`), which bounds what the allocator keeps and so lowers its peak
 * well below the default's. Nothing is started when every variant is there: a warm build encodes
 * nothing. Resolves with an ASSET004 error for each source that cannot be read as an image;
 * rejects when `signal` stops the encoder first.
 */
export async function encodeMissing(work: ImageWork, explain: Explain, signal?: AbortSignal): Promise<Diagnostic[]> {
  const present = new Set(await readdir(work.folder.dir));
  const jobs: EncodeJob['images'] = [];
  for (const image of work.images.values()) {
    const variants = variantsOf(image).filter((variant) => !present.has(path.basename(variant.file)));
    if (variants.length > 0) jobs.push({ file: image.file, variants });
  }
  const pruned = prune(work, present);
  if (jobs.length === 0) {
    await pruned;
    return [];
  }
  const problems: Diagnostic[] = [];
  let done = 0;
  await new Promise<void>((resolve, reject) => {
    const child = fork(fileURLToPath(new URL('./encoder.mjs', import.meta.url)), [], {
      env: { ...process.env, MALLOC_ARENA_MAX: '2' },
      execArgv: [],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      ...(signal && { signal }),
    });
    lowerPriority(child.pid);
    child.on('message', (reply: EncodeReply) => {
      const job = jobs[done] as EncodeJob['images'][number];
      if (reply.ok) for (const variant of job.variants) explain(variant.file, ['(not in the build cache)']);
      else
        problems.push(
          diagnostic('ASSET004', { file: `content/media/${reply.file}`, line: 0, column: 0 }, { image: reply.file }),
        );
      done++;
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      done === jobs.length
        ? resolve()
        : reject(new Error(`the image encoder stopped (exit code ${code}) after ${done} of ${jobs.length} images`)),
    );
    child.send({ mediaDir: work.mediaDir, into: work.folder.dir, images: jobs } satisfies EncodeJob);
  });
  await pruned;
  return problems;
}

/**
 * The encoder runs alongside the build's other stages (see `encodeAlongside` in pipeline.ts) on
 * the time their threads leave idle: at the lowest priority, the markdown workers and the render
 * stage keep their cores, and the encoder takes what they leave (a core during the render stage).
 */
function lowerPriority(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    os.setPriority(pid, os.constants.priority.PRIORITY_LOW);
  } catch {
    // A system that refuses it: the encoder shares the cores evenly.
  }
}

/**
 * Adds every variant to the output: carried over while its source and the encoder are unchanged,
 * read from the folder `encodeMissing` filled otherwise.
 */
export async function publishImages(work: ImageWork, output: Output): Promise<void> {
  for (const image of work.images.values()) {
    // The encoder's code and the versions of sharp and libvips it runs (the lockfile pins them) are
    // all in `code`: this process never loads sharp unless something is encoded.
    const inputs: Inputs = { code: work.code, image: image.hash };
    for (const variant of variantsOf(image)) {
      if (output.carry(variant.file, inputs)) continue;
      await output.add(variant.file, await readFile(path.join(work.folder.dir, path.basename(variant.file))), inputs);
    }
  }
}

/** The code's fingerprint as a folder name (it is base64url: only letters, digits, "-" and "_"). */
function folderName(code: string): string {
  return code.slice(0, 16);
}

/** Removes, from the build cache, the variants of other code and those no image has any more. */
async function prune(work: ImageWork, present: ReadonlySet<string>): Promise<void> {
  if (work.folder.temporary) return;
  const root = path.dirname(work.folder.dir);
  const current = path.basename(work.folder.dir);
  for (const entry of await readdir(root))
    if (entry !== current) await rm(path.join(root, entry), { recursive: true, force: true });
  const kept = new Set<string>();
  for (const image of work.images.values())
    for (const variant of variantsOf(image)) kept.add(path.basename(variant.file));
  for (const file of present) if (!kept.has(file)) await rm(path.join(work.folder.dir, file), { force: true });
}
