import path from 'node:path';
import { TOOL_ROOT } from '../build/fingerprint';
import { compileError } from '../diagnostics/failure';

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
  const compiled = compileError(error);
  if (compiled) return compiled;
  const stack = error instanceof Error ? (error.stack ?? '') : '';
  for (const match of stack.matchAll(/(?:file:\/\/)?(\/[^\s():]+\.(?:tsx?|mts)):(\d+):(\d+)/g)) {
    const file = match[1] as string;
    if (file.startsWith(path.join(TOOL_ROOT, 'templates')) || file.startsWith(path.join(TOOL_ROOT, 'src'))) {
      return { message, file, line: Number(match[2]), column: Number(match[3]) };
    }
  }
  return { message, line: 0, column: 0 };
}
