import { CODES, type DiagnosticArgs, type DiagnosticCode, type DiagnosticDefinition, type Severity } from './codes';

/** A problem found in the content, located as precisely as the text allows. */
export interface Diagnostic {
  /** Stable rule code, documented in docs/checking.md ("SCHEMA001"). */
  code: DiagnosticCode;
  severity: Severity;
  /** Path relative to the project root, with forward slashes. */
  file: string;
  /** 1-based; 0 when the problem concerns the whole file. */
  line: number;
  /** 1-based; 0 when unknown. */
  column: number;
  message: string;
  hint: string;
}

/** Where a diagnostic points. */
export interface Place {
  /** Path relative to the project root, with forward slashes. */
  file: string;
  /** 1-based; 0 when the problem concerns the whole file. */
  line: number;
  /** 1-based; 0 when unknown. */
  column: number;
}

/**
 * The one way to make a diagnostic: its code, where it is, and the arguments the code's message
 * and hint are made from (TypeScript checks them against the catalogue). Severity, message and
 * hint come from the catalogue.
 */
export function diagnostic<C extends DiagnosticCode>(code: C, place: Place, args: DiagnosticArgs<C>): Diagnostic {
  // The catalogue entry of one code takes that code's arguments; TypeScript cannot see it through the index.
  const entry = CODES[code] as DiagnosticDefinition<DiagnosticArgs<C>>;
  return {
    code,
    severity: entry.severity,
    file: place.file,
    line: place.line,
    column: place.column,
    message: entry.message(args),
    hint: typeof entry.hint === 'string' ? entry.hint : entry.hint(args),
  };
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
