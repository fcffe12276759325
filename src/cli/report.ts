import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Diagnostic } from '../diagnostics/diagnostic';
import { sortDiagnostics } from '../diagnostics/diagnostic';
import { colours, formatGithub, formatHuman, formatJson, plain, summary } from '../diagnostics/printer';

export type ReportFormat = 'human' | 'json' | 'github';

/** Prints diagnostics in the chosen format: human on stderr, machine formats on stdout. */
export function report(root: string, diagnostics: readonly Diagnostic[], format: ReportFormat): void {
  const sorted = sortDiagnostics(diagnostics);
  if (format === 'json') {
    process.stdout.write(`${formatJson(sorted)}\n`);
    return;
  }
  if (format === 'github') {
    if (sorted.length > 0) process.stdout.write(`${formatGithub(sorted)}\n`);
    return;
  }
  if (sorted.length === 0) return;
  const read = (file: string) => {
    try {
      return readFileSync(path.join(root, file), 'utf8');
    } catch {
      return undefined;
    }
  };
  const paint = process.stderr.isTTY && !process.env.NO_COLOR ? colours : plain;
  process.stderr.write(`${formatHuman(sorted, read, paint)}\n\n${summary(sorted)}\n`);
}
