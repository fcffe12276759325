import { isUtf8 } from 'node:buffer';
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import type { DiagnosticArgs } from '../diagnostics/codes';
import { type Diagnostic, diagnostic } from '../diagnostics/diagnostic';
import { systemCode } from '../diagnostics/failure';
import { offsetToPosition } from '../diagnostics/position';
import { MAX_FILE_BYTES } from './limits';

/**
 * A content file as text, or the one diagnostic that says why it cannot be read as text: it is
 * missing, a link to nothing, a folder, unreadable, larger than the limit, not UTF-8, or holds
 * control characters. Nothing after the loader sees a file that failed here.
 */
export type ContentText = { text: string } | { problem: Diagnostic };

/** Control characters other than tab, line feed and carriage return: C0, DEL and C1. */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

/** A content file's bytes, or the one diagnostic that says why they cannot be read. */
export type ContentBytes = { bytes: Buffer } | { problem: Diagnostic };

type TextProblem = 'FILE001' | 'FILE002' | 'TEXT001' | 'TEXT002';

function problemOf<C extends TextProblem>(
  code: C,
  args: DiagnosticArgs<C>,
  { file, line = 0, column = 0 }: { file: string; line?: number; column?: number },
): { problem: Diagnostic } {
  return { problem: diagnostic(code, { file, line, column }, args) };
}

/**
 * Reads `absolute` (shown as `file`) synchronously: content files are small, and a thread-pool trip
 * costs more than the read.
 */
export function readContentText(absolute: string, file: string, limit = MAX_FILE_BYTES): ContentText {
  const read = readContentBytes(absolute, file, limit);
  return 'problem' in read ? read : decodeContentText(read.bytes, file);
}

/** A content file's bytes: it exists, is a file, is readable and within the size limit. */
export function readContentBytes(absolute: string, file: string, limit = MAX_FILE_BYTES): ContentBytes {
  let bytes: Buffer;
  try {
    // One open, one fstat and one read: the fstat tells a folder, and a file too large to read.
    const fd = openSync(absolute, 'r');
    try {
      const info = fstatSync(fd);
      if (info.isDirectory()) return problemOf('FILE001', { file, folder: true }, { file });
      if (info.size > limit) return problemOf('FILE002', { file, bytes: info.size, limit }, { file });
      bytes = readFileSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    return problemOf(
      'FILE001',
      { file, errno: systemCode(error), error: error instanceof Error ? error.message : String(error) },
      { file },
    );
  }
  // The size may have changed between fstat and read.
  if (bytes.length > limit) return problemOf('FILE002', { file, bytes: bytes.length, limit }, { file });
  return { bytes };
}

/** A content file's bytes as text: UTF-8 without control characters, the byte-order mark left out. */
export function decodeContentText(bytes: Buffer, file: string): ContentText {
  if (!isUtf8(bytes)) {
    const offset = firstInvalidUtf8(bytes);
    const before = bytes.subarray(0, offset).toString('utf8');
    const { line, column } = offsetToPosition(before, before.length);
    return problemOf('TEXT001', { byte: bytes[offset] ?? 0, offset }, { file, line, column });
  }
  const text = textOf(bytes);
  const control = CONTROL.exec(text);
  if (control) {
    const { line, column } = offsetToPosition(text, control.index);
    return problemOf('TEXT002', { codePoint: control[0].codePointAt(0) ?? 0 }, { file, line, column });
  }
  return { text };
}

/** Bytes known to be valid text (`decodeContentText` accepted them before) as a string. */
export function textOf(bytes: Buffer): string {
  // The byte-order mark some editors write is not part of the text.
  return bytes.toString('utf8', bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0);
}

/** The offset of the first byte that does not start or continue a valid UTF-8 sequence. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    const more =
      b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (more < 0) return i;
    // The second byte's range rules out overlong forms, surrogates and code points past U+10FFFF.
    const low = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
    const high = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
    for (let k = 1; k <= more; k++) {
      const c = bytes[i + k];
      if (c === undefined || c < (k === 1 ? low : 0x80) || c > (k === 1 ? high : 0xbf)) return i;
    }
    i += more + 1;
  }
  return -1;
}
