import path from 'node:path';

/**
 * Failures of the machine or its surroundings rather than of the content: a folder that cannot be
 * written, a full disk, a port in use, a database that cannot be reached. The owner sees one line
 * saying what failed and one saying what to do, never a stack trace (`--verbose` or DEBUG adds it).
 */
export class OperationalError extends Error {
  /** What to do about it, in one sentence. */
  readonly hint: string;
  constructor(message: string, hint: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OperationalError';
    this.hint = hint;
  }
}

/** What the operating system says for the errors the owner can act on, and what to do. */
const SYSTEM_ERRORS: Record<string, { what: string; hint: string }> = {
  ENOSPC: { what: 'the disk is full', hint: 'Free some space on the disk, then run the command again.' },
  EDQUOT: { what: 'the disk quota is used up', hint: 'Free some space within your quota, then run the command again.' },
  EACCES: { what: 'permission denied', hint: 'Check the permissions of the folder, or choose another one.' },
  EPERM: { what: 'operation not permitted', hint: 'Check the permissions of the folder, or choose another one.' },
  EROFS: { what: 'the file system is read-only', hint: 'Choose a folder on a writable disk.' },
  ENOTDIR: {
    what: 'a part of the path is a file, not a folder',
    hint: 'Choose a path whose every parent is a folder.',
  },
  EISDIR: {
    what: 'a folder stands where a file is expected',
    hint: 'Remove or rename the folder, or choose another path.',
  },
  ENOENT: { what: 'no such file or folder', hint: 'Check the path.' },
  EMFILE: {
    what: 'too many open files',
    hint: 'Raise the limit of open files (ulimit -n), then run the command again.',
  },
  EADDRINUSE: {
    what: 'the address is already in use',
    hint: 'Stop the other server, or choose another port with --port.',
  },
  EADDRNOTAVAIL: {
    what: 'the address is not available on this machine',
    hint: 'Choose an address of this machine with --host (127.0.0.1 by default).',
  },
  ECONNREFUSED: {
    what: 'the connection was refused',
    hint: 'Check that the server is running and the address and port are right.',
  },
  ENOTFOUND: { what: 'the host name was not found', hint: 'Check the host name.' },
  ETIMEDOUT: { what: 'the connection timed out', hint: 'Check that the server is reachable from this machine.' },
};

/** The errno code of a Node system error, if it is one. */
export function systemCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * An OperationalError for a system error met while doing `action` ("cannot write dist/"); other
 * errors are returned as they are.
 */
export function operational(error: unknown, action: string): unknown {
  if (error instanceof OperationalError) return error;
  const code = systemCode(error);
  const known = code ? SYSTEM_ERRORS[code] : undefined;
  if (!known) return error;
  return new OperationalError(`${action}: ${known.what} (${code})`, known.hint, { cause: error });
}

/** Where a file of the tool's own code (a template, a pipeline module) does not compile. */
export interface CompileError {
  /** Absolute. */
  file: string;
  line: number;
  /** From 1. */
  column: number;
  message: string;
}

/**
 * The compile error an exception reports, if it is one: esbuild's (bundling the client script or
 * the command itself) carries its location, and tsx's loader passes the same as text only:
 * "<file>:<line>:<column>: ERROR: <text>".
 */
export function compileError(error: unknown): CompileError | undefined {
  const first = (
    error as { errors?: { text?: string; location?: { file: string; line: number; column: number } | null }[] } | null
  )?.errors?.[0];
  if (first?.location)
    return {
      file: path.resolve(first.location.file),
      line: first.location.line,
      column: first.location.column + 1,
      message: first.text ?? '',
    };
  const text = /(\/[^\s:]+):(\d+):(\d+): ERROR: (.*)/.exec(error instanceof Error ? error.message : String(error));
  if (text)
    return { file: text[1] as string, line: Number(text[2]), column: Number(text[3]) + 1, message: text[4] as string };
  return undefined;
}

/** The one line and the hint the owner sees for any error that ends a command. */
export function describeFailure(error: unknown): { message: string; hint: string } {
  if (error instanceof OperationalError) return { message: error.message, hint: error.hint };
  const compiled = compileError(error);
  if (compiled) {
    const inside = path.relative(process.cwd(), compiled.file);
    const file = inside && !inside.startsWith('..') ? inside : compiled.file;
    return {
      message: `${file}:${compiled.line}:${compiled.column}: ${compiled.message}`,
      hint: "The site's own code (a template or a pipeline file) does not compile: fix it, then run the command again.",
    };
  }
  const code = systemCode(error);
  const known = code ? SYSTEM_ERRORS[code] : undefined;
  const text = error instanceof Error ? error.message : String(error);
  if (known) return { message: `${text.split('\n')[0]} (${known.what})`, hint: known.hint };
  return {
    message: `internal error: ${text.split('\n')[0]}`,
    hint: 'This is a fault of the site tool, not of your content. Run again with --verbose to see where it happened.',
  };
}

/**
 * The message of an error no one foresaw (INTERNAL001), with the first frames of where it happened
 * when the owner asked for them: `--verbose` (which sets SITE_VERBOSE) or DEBUG.
 */
export function faultText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const verbose = Boolean(process.env.SITE_VERBOSE || process.env.DEBUG);
  return verbose && error instanceof Error && error.stack
    ? `${message}\n${error.stack.split('\n').slice(1, 6).join('\n')}`
    : message;
}
