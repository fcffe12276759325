import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { PageEntry } from '../build/pipeline';
import { formatWeights, pageWeights } from '../build/weight';
import type { OutputFile, ScriptImports } from '../write/assets';
import type { ManifestEntry } from '../write/manifest';

/** Pages of a kind weighed at most; a kind with more is sampled, its largest page always in. */
const SAMPLE = 40;

/**
 * The page-weight table of a finished build, read back from the output folder. A site of
 * thousands of articles is sampled per kind (evenly, plus the largest page by size), so the
 * table reads at most SAMPLE pages a kind, however large the site.
 */
export async function weightTable(
  outDir: string,
  entries: readonly PageEntry[],
  files: ReadonlyMap<string, Pick<ManifestEntry, 'bytes'>>,
  scriptImports: ScriptImports,
): Promise<string> {
  const byKind = new Map<string, PageEntry[]>();
  for (const entry of entries) byKind.set(entry.kind, [...(byKind.get(entry.kind) ?? []), entry]);
  const sample: PageEntry[] = [];
  let sampled = false;
  for (const list of byKind.values()) {
    if (list.length <= SAMPLE) {
      sample.push(...list);
      continue;
    }
    sampled = true;
    const largest = list.reduce((a, b) => ((files.get(b.path)?.bytes ?? 0) > (files.get(a.path)?.bytes ?? 0) ? b : a));
    const picked = new Set([
      largest,
      ...Array.from({ length: SAMPLE - 1 }, (_, i) => list[Math.floor((i * list.length) / (SAMPLE - 1))] as PageEntry),
    ]);
    sample.push(...picked);
  }
  const read = async (file: string): Promise<OutputFile> => ({
    path: file,
    contents: await readFile(path.join(outDir, file)),
  });
  const assets = (await readdir(path.join(outDir, 'assets')))
    .filter((f) => /\.(js|css)$/.test(f))
    .map((f) => `assets/${f}`);
  const outputs = await Promise.all([...sample.map((p) => p.path), ...assets].map(read));
  const note = sampled
    ? `\n(kinds with more than ${SAMPLE} pages: ${SAMPLE} of them weighed, the largest included)`
    : '';
  return formatWeights(pageWeights(outputs, sample, scriptImports)) + note;
}
