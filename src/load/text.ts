import { isUtf8 } from 'node:buffer';
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import type { Diagnostic } from '../diagnostics/diagnostic';
import { RULES, type RuleCode } from '../diagnostics/codes';
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

/** Reads `absolute` (shown as `file`) synchronously: content files are small, and a thread-pool trip costs more than the read. */
export function readContentText(absolute: string, file: string): ContentText {
  const problem = (code: RuleCode, message: string, line = 0, column = 0): ContentText => ({
    problem: { code, severity: 'error', file, line, column, message, hint: RULES[code].hint },
  });
  let bytes: Buffer;
  try {
    // One open, one fstat and one read: the fstat tells a folder, and a file too large to read.
    const fd = openSync(absolute, 'r');
    try {
      const info = fstatSync(fd);
      if (info.isDirectory()) return problem('FILE001', `${file} is a folder, not a file`);
      if (info.size > MAX_FILE_BYTES) return problem('FILE002', `${file} is ${kib(info.size)}; a content file may be at most ${kib(MAX_FILE_BYTES)}`);
      bytes = readFileSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    return problem('FILE001', `${file} cannot be read: ${unreadable(error)}`);
  }
  // The size may have changed between fstat and read.
  if (bytes.length > MAX_FILE_BYTES) return problem('FILE002', `${file} is ${kib(bytes.length)}; a content file may be at most ${kib(MAX_FILE_BYTES)}`);
  if (!isUtf8(bytes)) {
    const offset = firstInvalidUtf8(bytes);
    const before = bytes.subarray(0, offset).toString('utf8');
    const { line, column } = offsetToPosition(before, before.length);
    return problem('TEXT001', `byte 0x${(bytes[offset] ?? 0).toString(16).padStart(2, '0').toUpperCase()} at offset ${offset} is not valid UTF-8`, line, column);
  }
  // The byte-order mark some editors write is not part of the text.
  const text = bytes.toString('utf8', bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0);
  const control = CONTROL.exec(text);
  if (control) {
    const { line, column } = offsetToPosition(text, control.index);
    const code = (control[0].codePointAt(0) ?? 0).toString(16).padStart(4, '0').toUpperCase();
    return problem('TEXT002', `the text holds the control character U+${code}${code === '0000' ? ' (NUL)' : ''}`, line, column);
  }
  return { text };
}

/** What the system said, in words: a dangling link, a permission, … */
function unreadable(error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === 'ENOENT') return 'it does not exist (or is a link to a file that does not)';
  if (code === 'ELOOP') return 'it is a link that leads back to itself';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'it is a folder';
  return error instanceof Error ? error.message : String(error);
}

function kib(bytes: number): string {
  return `${Math.ceil(bytes / 1024).toLocaleString('en')} KiB`;
}

/** The offset of the first byte that does not start or continue a valid UTF-8 sequence. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    const more = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
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
