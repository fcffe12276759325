import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { encodeVariants } from './encode';
import type { Variant } from './variants';

/** What the encoder process is sent: the images to encode, and where their variants go. */
export interface EncodeJob {
  mediaDir: string;
  /** The folder the variants are written into, each by the base name of its file. */
  into: string;
  images: { file: string; variants: Variant[] }[];
}

/** Its answer for each image, in order: whether its variants were written. */
export interface EncodeReply {
  file: string;
  ok: boolean;
}

// The build that started it is gone (killed, or interrupted): nothing is left to answer.
process.once('disconnect', () => process.exit(0));

process.once('message', async (job: EncodeJob) => {
  for (const image of job.images) {
    let ok = true;
    try {
      const encoded = await encodeVariants(await readFile(path.join(job.mediaDir, image.file)), image.variants);
      // Each file under a name of its own first: a variant found in the folder is always whole.
      await Promise.all(
        image.variants.map(async (variant, i) => {
          const target = path.join(job.into, path.basename(variant.file));
          await writeFile(`${target}.${process.pid}.part`, encoded[i] as Buffer);
          await rename(`${target}.${process.pid}.part`, target);
        }),
      );
    } catch {
      ok = false;
    }
    if (!process.connected) return;
    process.send?.({ file: image.file, ok } satisfies EncodeReply);
  }
  process.disconnect?.();
});
