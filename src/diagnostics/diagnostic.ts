/** A problem found in the content, located as precisely as the text allows. */
export interface Diagnostic {
  /** Stable rule code, documented in the README ("SCHEMA001"). */
  code: string;
  severity: 'error' | 'warning';
  /** Path relative to the project root, with forward slashes. */
  file: string;
  /** 1-based; 0 when the problem concerns the whole file. */
  line: number;
  /** 1-based; 0 when unknown. */
  column: number;
  message: string;
  hint: string;
}

/** Thrown by a stage that cannot go on; carries every diagnostic found so far. */
export class ContentError extends Error {
  readonly diagnostics: Diagnostic[];
  constructor(diagnostics: Diagnostic[]) {
    super(`${diagnostics.length} content error(s)`);
    this.name = 'ContentError';
    this.diagnostics = diagnostics;
  }
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/** Sorted by file, then position, so output is stable between runs. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column || a.code.localeCompare(b.code),
  );
}
