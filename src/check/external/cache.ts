/**
 * The answers `site check --external` keeps between runs, in .cache/site/external-links.json:
 * only good ones (the address works, perhaps after moving), each with when it was asked. A later
 * run asks again an address whose answer is older than its --max-age, and every failure, always.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

export const CACHE_FILE = path.join('.cache', 'site', 'external-links.json');

/** Raised when what an answer records changes: a cache of another shape is ignored, not misread. */
const FORMAT = 1;

const KeptAnswer = z.object({
  /** When it was asked, in ms since the epoch. */
  checked: z.number(),
  /** The final status, below 400. */
  status: z.number().int(),
  /** Where permanent redirects lead from it. */
  moved: z.object({ to: z.string(), status: z.number().int() }).optional(),
  /** The address that answered, when redirects led there. */
  at: z.string().optional(),
});

const Kept = z.object({ format: z.literal(FORMAT), answers: z.record(z.string(), KeptAnswer) });

export type KeptAnswer = z.infer<typeof KeptAnswer>;

/** The kept answers by address; empty when there is no cache, or one this version cannot read. */
export async function readAnswers(root: string): Promise<Map<string, KeptAnswer>> {
  try {
    const kept = Kept.safeParse(JSON.parse(await readFile(path.join(root, CACHE_FILE), 'utf8')));
    return new Map(kept.success ? Object.entries(kept.data.answers) : []);
  } catch {
    return new Map();
  }
}

/**
 * Writes the kept answers anew, atomically (a reader sees the old file or the new one). A cache
 * that cannot be written costs the next run its requests, not this one its result: the failure is
 * returned, for a line in the output, and never thrown.
 */
export async function writeAnswers(root: string, answers: ReadonlyMap<string, KeptAnswer>): Promise<Error | undefined> {
  const file = path.join(root, CACHE_FILE);
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(
      temporary,
      `${JSON.stringify({ format: FORMAT, answers: Object.fromEntries([...answers].sort(([a], [b]) => a.localeCompare(b))) }, null, 1)}\n`,
    );
    await rename(temporary, file);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}
