import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Explain } from '../build/explain';
import { changedInputs, type Inputs } from '../build/inputs';
import { type Diagnostic, diagnostic } from '../diagnostics/diagnostic';
import type { Output } from '../write/output';
import { ENCODER, encodeVariants } from './encode';
import type { RasterCatalogue, RasterImage } from './raster';
import { type Variant, variantsOf } from './variants';

/** What the images stage needs. */
export interface ImageStage {
  images: RasterCatalogue;
  /** content/media, where the sources are read. */
  mediaDir: string;
  /** Fingerprint of the code that names and encodes the variants. */
  code: string;
  /** Where encoded variants are kept between builds (the build cache); undefined: nowhere. */
  cacheDir: string | undefined;
  output: Output;
  explain: Explain;
  progress: (done: number, total: number) => void;
}

/**
 * Publishes every raster image of content/media as its variants (src/images/variants.ts). A
 * variant is carried over while its source and the encoder are unchanged, taken from the build
 * cache when the output lacks it, and encoded otherwise: a warm build encodes nothing. Resolves
 * with an ASSET004 error for each source that cannot be read as an image.
 */
export async function publishImages(stage: ImageStage): Promise<Diagnostic[]> {
  const { images, output, explain } = stage;
  const cache = stage.cacheDir && path.join(stage.cacheDir, 'images', folderName(stage.code));
  const problems: Diagnostic[] = [];
  const kept = new Set<string>();
  let done = 0;
  for (const image of images.values()) {
    stage.progress(done++, images.size);
    const inputs: Inputs = { code: stage.code, encoder: ENCODER, image: image.hash };
    const missing: Variant[] = [];
    for (const variant of variantsOf(image)) {
      kept.add(path.basename(variant.file));
      if (output.carry(variant.file, inputs)) continue;
      const cached = cache && (await readFile(path.join(cache, path.basename(variant.file))).catch(() => undefined));
      if (cached) await output.add(variant.file, cached, inputs);
      else missing.push(variant);
    }
    if (missing.length === 0) continue;
    const made = await encoded(stage.mediaDir, image, missing);
    if (!made) {
      problems.push(diagnostic('ASSET004', { file: `content/media/${image.file}`, line: 0, column: 0 }, { image: image.file }));
      continue;
    }
    if (cache) await mkdir(cache, { recursive: true });
    for (const [i, variant] of missing.entries()) {
      explain(variant.file, changedInputs(output.previousInputs(variant.file), inputs));
      const bytes = made[i] as Buffer;
      if (cache) await writeFile(path.join(cache, path.basename(variant.file)), bytes);
      await output.add(variant.file, bytes, inputs);
    }
  }
  stage.progress(images.size, images.size);
  if (stage.cacheDir) await prune(path.join(stage.cacheDir, 'images'), folderName(stage.code), kept);
  return problems;
}

/** An image's variants encoded, or undefined when its file is not a readable image. */
async function encoded(mediaDir: string, image: RasterImage, variants: readonly Variant[]): Promise<Buffer[] | undefined> {
  try {
    return await encodeVariants(await readFile(path.join(mediaDir, image.file)), variants);
  } catch {
    return undefined;
  }
}

/** The code's fingerprint as a folder name (it is base64url: only letters, digits, "-" and "_"). */
function folderName(code: string): string {
  return code.slice(0, 16);
}

/** Removes the variants of other code, and those of this code no image has any more. */
async function prune(root: string, current: string, kept: ReadonlySet<string>): Promise<void> {
  for (const entry of await readdir(root, { withFileTypes: true }).catch(() => [])) {
    if (entry.name !== current) {
      await rm(path.join(root, entry.name), { recursive: true, force: true });
      continue;
    }
    for (const file of await readdir(path.join(root, entry.name)).catch(() => [])) {
      if (!kept.has(file)) await rm(path.join(root, entry.name, file), { force: true });
    }
  }
}
