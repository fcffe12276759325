import type { z } from 'zod';
import type { Diagnostic } from '../diagnostics/diagnostic';
import { RULES } from '../diagnostics/codes';
import type { Position } from '../diagnostics/position';

/** One diagnostic per zod issue: "field.path: message", at the line of the failing key. */
export function schemaDiagnostics(
  file: string,
  error: z.ZodError,
  locate: (path: readonly PropertyKey[]) => Position,
  prefix: readonly PropertyKey[] = [],
): Diagnostic[] {
  return error.issues.map((issue) => {
    const fullPath = [...prefix, ...issue.path];
    const { line, column } = locate(fullPath);
    const field = fullPath.length > 0 ? fullPath.map(String).join('.') : '(root)';
    return {
      code: 'SCHEMA001',
      severity: 'error',
      file,
      line,
      column,
      message: `${field}: ${describeIssue(issue)}`,
      hint: RULES.SCHEMA001.hint,
    };
  });
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') {
    return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  }
  if (issue.code === 'invalid_type' && issue.input === undefined) return `required field is missing (expected ${issue.expected})`;
  return issue.message;
}
