/**
 * content/external-links.json: the addresses `site check --external` never asks, each with why
 * (a site that keeps robots out, a login page). Content like the rest: validated by its schema,
 * every mistake a diagnostic at its line and column. Absent, nothing is skipped.
 */
import { lstat, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { Diagnostic } from '../../diagnostics/diagnostic';
import { loadJsonFile } from '../../load/json';

export const SKIP_FILE = 'content/external-links.json';

const SkipEntry = z
  .object({
    /** An address in which each `*` stands for any run of characters: "https://www.linkedin.com/*". */
    pattern: z
      .string()
      .regex(
        /^\S+$/,
        'must be an address pattern without spaces, "*" standing for any characters (https://www.linkedin.com/*)',
      ),
    /** Why it is not asked, for whoever reads the list later. */
    reason: z.string().min(1),
  })
  .strict();

const SkipFile = z
  .object({
    $comment: z.string().optional(),
    skip: z.array(SkipEntry),
  })
  .strict();

/** One entry of the skip file, ready to match addresses. */
export interface SkipRule {
  pattern: string;
  reason: string;
  /** The whole address, without its #fragment, matched ignoring case. */
  matches: (address: string) => boolean;
}

/**
 * The skip file of a site root, as rules: none when the file does not exist; none, and its
 * problems added to `diagnostics`, when it cannot be read or does not match its schema.
 */
export async function loadSkipRules(root: string, diagnostics: Diagnostic[]): Promise<SkipRule[]> {
  const absolute = path.join(root, SKIP_FILE);
  const exists = await stat(absolute).then(
    () => true,
    // A link that leads nowhere is a mistake the loader names (FILE001); no file at all is no list.
    () =>
      lstat(absolute).then(
        () => true,
        () => false,
      ),
  );
  if (!exists) return [];
  const file = await loadJsonFile({ root, diagnostics }, SKIP_FILE, SkipFile);
  return (file?.skip ?? []).map(({ pattern, reason }) => ({ pattern, reason, matches: matcherOf(pattern) }));
}

/** The first rule that matches `address`, if any. */
export function skippedBy(rules: readonly SkipRule[], address: string): SkipRule | undefined {
  return rules.find((rule) => rule.matches(address));
}

/**
 * "https://*.example.com/*" as a test of a whole address: `*` any run of characters, the rest as
 * written, case ignored.
 */
function matcherOf(pattern: string): (address: string) => boolean {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\/]/g, '\\$&'))
    .join('.*');
  const regex = new RegExp(`^${source}$`, 'i');
  return (address) => regex.test(address);
}
