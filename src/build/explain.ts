/** Told of each output made again, with the names of the inputs that differ from last time. */
export type Explain = (output: string, changed: readonly string[]) => void;

/** An output made again by a build, and why: the inputs that changed (`site build --explain`). */
export interface Remade {
  output: string;
  changed: readonly string[];
}

/** Outputs shown one by one before the rest of a group is counted. */
const SHOWN = 12;

/**
 * The report of `--explain`: outputs grouped by the inputs that changed, so that a template
 * change reads as one line for thousands of pages, and one edit as a few lines naming it.
 */
export function formatExplanation(remade: readonly Remade[]): string {
  if (remade.length === 0) return 'Nothing was made again: every output was found in the cache.';
  const groups = new Map<string, string[]>();
  for (const { output, changed } of remade) {
    const reason = changed.join(', ') || '(no input recorded)';
    groups.set(reason, [...(groups.get(reason) ?? []), output]);
  }
  const lines: string[] = [`Made again: ${remade.length} output${remade.length === 1 ? '' : 's'}`];
  // Largest first; equal ones by reason, since the image encoder's run alongside the build and report in no set order.
  for (const [reason, outputs] of [...groups].sort(
    (a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0),
  )) {
    lines.push(`  changed: ${reason}`);
    for (const output of outputs.slice(0, SHOWN)) lines.push(`    ${output}`);
    if (outputs.length > SHOWN) lines.push(`    … and ${outputs.length - SHOWN} more`);
  }
  return lines.join('\n');
}
