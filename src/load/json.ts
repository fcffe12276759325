import path from 'node:path';
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import type { z } from 'zod';
import type { Diagnostic } from '../diagnostics/diagnostic';
import { RULES } from '../diagnostics/codes';
import { jsonPathPosition, offsetToPosition } from '../diagnostics/position';
import { readTextSync, relativeFile } from './files';
import { schemaDiagnostics } from './issues';

/**
 * Reads one JSON content file and validates it against its schema. Returns the parsed value,
 * or undefined after pushing diagnostics (file, line and column of each problem).
 */
export async function loadJsonFile<S extends z.ZodType>(
  root: string,
  relative: string,
  schema: S,
  diagnostics: Diagnostic[],
  sources?: Map<string, string>,
): Promise<z.infer<S> | undefined> {
  const absolute = path.join(root, relative);
  const file = relativeFile(root, absolute);
  // Synchronously: a content file is small, and a trip through the thread pool costs more than the read.
  const text = readTextSync(absolute);
  if (text === undefined) {
    diagnostics.push({ code: 'FILE001', severity: 'error', file, line: 0, column: 0, message: `${file} is missing or unreadable`, hint: RULES.FILE001.hint });
    return undefined;
  }
  sources?.set(file, text);
  const errors: ParseError[] = [];
  const data: unknown = parse(text, errors, { allowTrailingComma: false, disallowComments: true });
  if (errors.length > 0) {
    for (const e of errors) {
      const { line, column } = offsetToPosition(text, e.offset);
      diagnostics.push({ code: 'JSON001', severity: 'error', file, line, column, message: `JSON syntax error: ${printParseErrorCode(e.error)}`, hint: RULES.JSON001.hint });
    }
    return undefined;
  }
  const result = schema.safeParse(data);
  if (!result.success) {
    diagnostics.push(...schemaDiagnostics(file, data, result.error, (p) => jsonPathPosition(text, p)));
    return undefined;
  }
  return result.data;
}
