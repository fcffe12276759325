import path from 'node:path';
import type { ParseError } from 'jsonc-parser';
import type { z } from 'zod';
import { type Diagnostic, diagnostic } from '../diagnostics/diagnostic';
import { jsoncParser } from '../diagnostics/jsonc';
import { jsonPathPosition, offsetToPosition } from '../diagnostics/position';
import { relativeFile } from './files';
import { schemaDiagnostics } from './issues';
import { MAX_DEPTH } from './limits';
import { readContentText } from './text';

/** The syntax errors reported per JSON file. */
const MAX_SYNTAX_ERRORS = 10;

/** The text and the validated value of each JSON content file that loaded, by project-relative path. */
export type JsonFiles = Map<string, { text: string; value: unknown }>;

/**
 * Values validated by an earlier build, by file and text (the build cache): the same text through
 * the same schema (the file's path names it, the code fingerprint holds it) gives the same value.
 * Only files that loaded are kept: a file with a problem is read and reported at every load.
 */
export interface ValidatedJson {
  get(file: string, text: string): unknown;
  set(file: string, text: string, value: unknown): void;
  /** Keeps a file's value, as a lookup that found it would: for one the session's last load had. */
  keep(file: string): void;
  /**
   * The value validated for a file that had this stat signature when it was read (see
   * `statSignature`): a large file whose signature is unchanged is neither read nor hashed.
   */
  atSignature?(file: string, signature: string): unknown;
  /** Records that the file, with this stat signature just before it was read, has this text. */
  readAt?(file: string, signature: string, text: string): void;
}

/** Where JSON files are read from, where their problems go, and what is kept of them. */
export interface JsonReading {
  root: string;
  diagnostics: Diagnostic[];
  /** Each file that loads, with its text and value. */
  loaded?: JsonFiles;
  /** The same session's last load. */
  known?: ReadonlyMap<string, { text: string; value: unknown }>;
  /** Values validated by earlier builds. */
  validated?: ValidatedJson;
  /** The largest file read, in bytes (a content file's limit unless told). */
  limit?: number;
}

/**
 * Reads one JSON content file and validates it against its schema. Returns the parsed value,
 * or undefined after pushing diagnostics (file, line and column of each problem). A file whose
 * text is the one it had in `known` (the same session's last load) is that load's value: the same
 * text, through the same schema, gives the same value, and later stages find it by identity. One
 * an earlier build validated (`validated`) is not parsed nor validated again.
 */
export async function loadJsonFile<S extends z.ZodType>(
  { root, diagnostics, loaded, known, validated, limit }: JsonReading,
  relative: string,
  schema: S,
): Promise<z.infer<S> | undefined> {
  const absolute = path.join(root, relative);
  const file = relativeFile(root, absolute);
  const read = readContentText(absolute, file, limit);
  if ('problem' in read) {
    diagnostics.push(read.problem);
    return undefined;
  }
  const { text } = read;
  const before = known?.get(file);
  if (before && before.text === text) {
    validated?.keep(file);
    loaded?.set(file, before);
    return before.value as z.infer<S>;
  }
  const kept = validated?.get(file, text);
  if (kept !== undefined) {
    loaded?.set(file, { text, value: kept });
    return kept as z.infer<S>;
  }
  // The parser recurses once per level: a file nested thousands deep would exhaust the stack.
  const deep = jsonDepthBeyond(text, MAX_DEPTH);
  if (deep !== undefined) {
    const { line, column } = offsetToPosition(text, deep);
    diagnostics.push(diagnostic('DEPTH001', { file, line, column }, { kind: 'json', limit: MAX_DEPTH }));
    return undefined;
  }
  const errors: ParseError[] = [];
  const { parse, printParseErrorCode } = jsoncParser();
  const data: unknown = parse(text, errors, { allowTrailingComma: false, disallowComments: true });
  if (errors.length > 0) {
    // The first errors place the mistake; thousands more (text pasted into a string) say nothing new.
    const shown = errors.slice(0, MAX_SYNTAX_ERRORS);
    shown.forEach((e, i) => {
      const { line, column } = offsetToPosition(text, e.offset);
      const more = i === shown.length - 1 ? errors.length - shown.length : 0;
      diagnostics.push(diagnostic('JSON001', { file, line, column }, { error: printParseErrorCode(e.error), more }));
    });
    return undefined;
  }
  const result = schema.safeParse(data);
  if (!result.success) {
    diagnostics.push(...schemaDiagnostics(file, data, result.error, (p) => jsonPathPosition(text, p)));
    return undefined;
  }
  loaded?.set(file, { text, value: result.data });
  validated?.set(file, text, result.data);
  return result.data;
}

/** The offset of the bracket that opens level `limit + 1`, if the text nests that deep. */
export function jsonDepthBeyond(text: string, limit: number): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return i;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return undefined;
}
