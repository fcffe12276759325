import path from 'node:path';
import { TOOL_ROOT } from '../build/fingerprint';

/** An exception from a template or the pipeline, placed at the first line of ours it names. */
export interface Failure {
  message: string;
  /** Absolute file, when the error names one of the tool's files. */
  file?: string;
  line: number;
  column: number;
}

/**
 * Where a thrown error points: the location esbuild gives a syntax error (tsx compiles with it),
 * or the first stack frame in the tool's templates/ or src/.
 */
export function describeFailure(error: unknown): Failure {
  const message = error instanceof Error ? error.message : String(error);
  const syntax = (error as { errors?: { text?: string; location?: { file: string; line: number; column: number } }[] }).errors?.[0];
  if (syntax?.location) {
    return { message: syntax.text ?? message, file: path.resolve(TOOL_ROOT, syntax.location.file), line: syntax.location.line, column: syntax.location.column + 1 };
  }
  // From tsx's loader thread the error arrives as text only: "<file>:<line>:<column>: ERROR: <text>".
  const compiled = /(\/[^\s:]+):(\d+):(\d+): ERROR: (.*)/.exec(message);
  if (compiled) return { message: compiled[4] as string, file: compiled[1] as string, line: Number(compiled[2]), column: Number(compiled[3]) + 1 };
  const stack = error instanceof Error ? (error.stack ?? '') : '';
  for (const match of stack.matchAll(/(?:file:\/\/)?(\/[^\s():]+\.(?:tsx?|mts)):(\d+):(\d+)/g)) {
    const file = match[1] as string;
    if (file.startsWith(path.join(TOOL_ROOT, 'templates')) || file.startsWith(path.join(TOOL_ROOT, 'src'))) {
      return { message, file, line: Number(match[2]), column: Number(match[3]) };
    }
  }
  return { message, line: 0, column: 0 };
}
