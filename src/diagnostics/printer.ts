import { styleText } from 'node:util';
import type { Diagnostic } from './diagnostic';

type Style = Parameters<typeof styleText>[0];
/** Paints text when colours are on (a terminal); otherwise returns it unchanged. */
export type Paint = (style: Style, text: string) => string;
export const plain: Paint = (_style, text) => text;
export const colours: Paint = (style, text) => styleText(style, text);

/** The lines around a position, with a caret under the column; empty when there is no text. */
export function codeFrame(source: string | undefined, line: number, column: number): string {
  if (source === undefined || line < 1) return '';
  const lines = source.split('\n');
  const first = Math.max(1, line - 2);
  const last = Math.min(lines.length, line + 1);
  const width = String(last).length;
  // A long line (minified JSON, 50,000 brackets) is shown as a window around the column.
  const from = column > FRAME_WIDTH / 2 ? column - 1 - FRAME_WIDTH / 2 : 0;
  const shown = (text: string) => {
    const cut = text.slice(from, from + FRAME_WIDTH);
    // Control characters are shown, not sent to the terminal (an escape could clear it).
    const safe = cut.replace(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g, '\uFFFD');
    return `${from > 0 ? '…' : ''}${safe}${text.length > from + FRAME_WIDTH ? '…' : ''}`;
  };
  const out: string[] = [];
  for (let n = first; n <= last; n++) {
    const marker = n === line ? '>' : ' ';
    out.push(`${marker} ${String(n).padStart(width)} | ${shown(lines[n - 1] ?? '')}`);
    if (n === line && column > 0)
      out.push(`  ${' '.repeat(width)} | ${' '.repeat(column - 1 - from + (from > 0 ? 1 : 0))}^`);
  }
  return out.join('\n');
}

/** The most characters of a line a code frame shows. */
const FRAME_WIDTH = 120;

export function formatLocation(d: Diagnostic): string {
  if (d.line < 1) return d.file;
  return d.column > 0 ? `${d.file}:${d.line}:${d.column}` : `${d.file}:${d.line}`;
}

/**
 * Human output, grouped by file (diagnostics are expected sorted): per diagnostic its location,
 * severity, code and message, a code frame when the source is at hand, and the hint.
 */
export function formatHuman(
  diagnostics: readonly Diagnostic[],
  readSource: (file: string) => string | undefined,
  paint: Paint = plain,
): string {
  const groups = new Map<string, Diagnostic[]>();
  for (const d of diagnostics) groups.set(d.file, [...(groups.get(d.file) ?? []), d]);
  return [...groups.entries()]
    .map(([file, list]) => {
      const source = readSource(file);
      const blocks = list.map((d) => {
        const severity = d.severity === 'error' ? paint('red', 'error') : paint('yellow', 'warning');
        const head = `${paint('bold', formatLocation(d))} ${severity} ${paint('dim', d.code)}: ${d.message}`;
        const frame = codeFrame(source, d.line, d.column);
        return [head, frame, `  ${paint('cyan', 'hint')}: ${d.hint}`].filter(Boolean).join('\n');
      });
      return `${paint('underline', file)}\n${blocks.join('\n\n')}`;
    })
    .join('\n\n');
}

export function formatJson(diagnostics: readonly Diagnostic[]): string {
  return JSON.stringify(diagnostics, null, 2);
}

/** GitHub Actions workflow commands: each diagnostic becomes an annotation on its line. */
export function formatGithub(diagnostics: readonly Diagnostic[]): string {
  return diagnostics
    .map((d) => {
      const kind = d.severity === 'error' ? 'error' : 'warning';
      const props = [
        `file=${d.file}`,
        d.line > 0 ? `line=${d.line}` : '',
        d.column > 0 ? `col=${d.column}` : '',
        `title=${d.code}`,
      ]
        .filter(Boolean)
        .join(',');
      return `::${kind} ${props}::${escapeGithub(`${d.message} Hint: ${d.hint}`)}`;
    })
    .join('\n');
}

function escapeGithub(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

export function summary(diagnostics: readonly Diagnostic[]): string {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  return `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`;
}
