import path from 'node:path';
import { digestAll } from '../load/digest';
import { type ListedEntry, listEntries, relativeBelow } from '../load/files';
import { statSignature } from '../load/stat';
import type { Publication } from '../model/publication';
import type { Codes } from './fingerprint';

/**
 * The environment variables the build's code reads that shape what it makes: React's build, and
 * whether share cards are drawn. A unit test holds this list to the variables the pipeline's code
 * reads (tests/unit/build/footprint.test.ts): one read anywhere else must be named there as one
 * that shapes nothing built.
 */
export const SHAPING_ENVIRONMENT = ['NODE_ENV', 'SITE_CARDS'] as const;

/**
 * Everything a `site build` reads from outside its build cache, as data: the tool's code, what it
 * is asked to build and when, and every file under content/. Two builds with the same footprint
 * make the same output and say the same things, but for the day git gives a content file, which
 * is asked again (see `BuildRecord.days`).
 */
export interface Footprint {
  /** Each kind of work's code, from the import graph (see `WORK`), and the tool's stylesheets. */
  code: Codes;
  styles: string;
  /** Node's version: its zlib and V8 make part of the output. */
  node: string;
  /** What is published, on which day, and the footer's year. */
  publication: Publication;
  year: number;
  /** The output folder, resolved, and the base URL given for this build. */
  outDir: string;
  baseUrl: string | undefined;
  env: Record<(typeof SHAPING_ENVIRONMENT)[number], string | undefined>;
  /** Every entry under content/, by kind, path and stat signature (see `ContentFiles`). */
  content: string;
}

/** The files under content/ as a build starts: the listing, each file's stat signature, and all of them as one digest. */
export interface ContentFiles {
  /** Every entry under content/, in a stable order. */
  entries: readonly ListedEntry[];
  /**
   * Each file's stat signature (links followed), by absolute path; undefined for one that had not
   * settled (see `statSignature`), or that is not a file.
   */
  signatures: ReadonlyMap<string, string | undefined>;
  /** A digest of every entry, folders included; undefined when a file had not settled: no footprint is whole then. */
  digest: string | undefined;
}

/**
 * Every entry under `<root>/content`, looked at once: what the loaders read is among them, and
 * the article files are listed and read from what is taken here (see `ArticleFiles.listed`).
 */
export async function contentFiles(root: string, now = Date.now()): Promise<ContentFiles> {
  const dir = path.join(root, 'content');
  const entries = await listEntries(dir);
  const signatures = new Map<string, string | undefined>();
  const lines: string[] = [];
  let settled = entries.length > 0;
  for (const { absolute, kind } of entries) {
    let signature: string | undefined;
    if (kind === 'file' || kind === 'link') {
      signature = statSignature(absolute, now);
      signatures.set(absolute, signature);
      // A link to a folder, one that leads nowhere, or a file written in the last moments.
      if (signature === undefined) settled = false;
    }
    lines.push(`${kind} ${relativeBelow(dir, absolute)} ${signature ?? ''}`);
  }
  return { entries, signatures, digest: settled ? digestAll(lines) : undefined };
}

/** Whether two footprints are the same: every field, by value. */
export function sameFootprint(a: Footprint, b: Footprint): boolean {
  return JSON.stringify(ordered(a)) === JSON.stringify(ordered(b));
}

/** A value with its objects' keys in one order, so that equal values print alike. */
function ordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(ordered);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, ordered((value as Record<string, unknown>)[key])]),
    );
  return value;
}
