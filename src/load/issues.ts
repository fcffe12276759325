import type { z } from 'zod';
import type { SchemaProblem } from '../diagnostics/codes';
import { type Diagnostic, diagnostic } from '../diagnostics/diagnostic';
import type { Position } from '../diagnostics/position';
import { ADDRESS_RULE } from '../model/schema';

/** One diagnostic per zod issue: "field.path: message", at the line of the failing key. */
export function schemaDiagnostics(
  file: string,
  data: unknown,
  error: z.ZodError,
  locate: (path: readonly PropertyKey[]) => Position,
): Diagnostic[] {
  return error.issues.map((issue) => {
    const fullPath = issue.path;
    const place = { file, ...locate(fullPath) };
    const field = fullPath.length > 0 ? fullPath.map(String).join('.') : '(root)';
    if (issue.code === 'custom' && issue.params?.rule === ADDRESS_RULE) {
      return diagnostic(ADDRESS_RULE, place, { kind: 'field', field, problem: issue.message });
    }
    return diagnostic('SCHEMA001', place, { field, ...describeIssue(issue, data) });
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

/** What is wrong with the field, for SCHEMA001's message. */
function describeIssue(issue: z.core.$ZodIssue, data: unknown): SchemaProblem {
  if (issue.code === 'unrecognized_keys') return { kind: 'unknown', keys: issue.keys };
  if (issue.code === 'invalid_type' && isMissing(data, issue.path))
    return { kind: 'missing', expected: issue.expected };
  return { kind: 'invalid', problem: issue.message };
}
