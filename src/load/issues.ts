import type { z } from 'zod';
import type { Diagnostic } from '../diagnostics/diagnostic';
import { RULES } from '../diagnostics/codes';
import { ADDRESS_RULE } from '../model/schema';
import type { Position } from '../diagnostics/position';

/** One diagnostic per zod issue: "field.path: message", at the line of the failing key. */
export function schemaDiagnostics(
  file: string,
  data: unknown,
  error: z.ZodError,
  locate: (path: readonly PropertyKey[]) => Position,
): Diagnostic[] {
  return error.issues.map((issue) => {
    const fullPath = issue.path;
    const { line, column } = locate(fullPath);
    const field = fullPath.length > 0 ? fullPath.map(String).join('.') : '(root)';
    const code = issue.code === 'custom' && issue.params?.rule === ADDRESS_RULE ? ADDRESS_RULE : 'SCHEMA001';
    return {
      code,
      severity: 'error',
      file,
      line,
      column,
      message: `${field}: ${describeIssue(issue, data)}`,
      hint: RULES[code].hint,
    };
  });
}

/** True when the object at `path`'s parent has no such key (the field was left out). */
function isMissing(data: unknown, path: readonly PropertyKey[]): boolean {
  let node: unknown = data;
  for (const key of path.slice(0, -1)) {
    if (node === null || typeof node !== 'object') return false;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  const last = path[path.length - 1];
  return last !== undefined && node !== null && typeof node === 'object' && !(last in node);
}

function describeIssue(issue: z.core.$ZodIssue, data: unknown): string {
  if (issue.code === 'unrecognized_keys') {
    return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  }
  if (issue.code === 'invalid_type' && isMissing(data, issue.path)) return `required field is missing (expected ${issue.expected})`;
  return issue.message;
}
