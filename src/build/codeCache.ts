import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import path from 'node:path';
import { Script } from 'node:vm';

/** A CommonJS file loaded with V8's code for it, and what keeps that code for the next process. */
export interface CachedModule<T> {
  exports: T;
  /** Whether it was compiled from the code kept for it (V8 took it). */
  fromKeptCode: boolean;
  /**
   * Keeps V8's code for the file, functions compiled so far included, when the cache had none that
   * V8 took: called once the file's work has run, so that the next process starts with it compiled.
   */
  keep(): void;
}

/** Where V8's code for `file` is kept: beside it, named after it (the file is named by its content). */
export function codeFile(file: string): string {
  return `${file}.code`;
}

/**
 * Requires the CommonJS `file` as Node does, but compiled from the code V8 kept for it by an earlier
 * process when there is one: V8 checks it against the source and its own version and flags, and
 * compiles the file as usual when it does not match. Only for a file that never changes under its
 * name (a bundle named by the fingerprint of its content).
 */
export function requireCached<T>(file: string, save: boolean): CachedModule<T> {
  const source = readFileSync(file, 'utf8');
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(codeFile(file));
  } catch {
    // None kept yet.
  }
  const script = new Script(Module.wrap(source), { filename: file, ...(cachedData && { cachedData }) });
  const module = { exports: {} as T };
  const run = script.runInThisContext() as (
    exports: T,
    require: NodeJS.Require,
    module: { exports: T },
    filename: string,
    dirname: string,
  ) => void;
  run.call(module.exports, module.exports, createRequire(file), module, file, path.dirname(file));
  const taken = cachedData !== undefined && !script.cachedDataRejected;
  let kept = taken || !save;
  return {
    exports: module.exports,
    fromKeptCode: taken,
    keep() {
      if (kept) return;
      kept = true;
      const temporary = `${codeFile(file)}.${process.pid}.tmp`;
      try {
        writeFileSync(temporary, script.createCachedData());
        renameSync(temporary, codeFile(file));
      } catch {
        // Without it, the next process compiles the file: nothing is lost.
        rmSync(temporary, { force: true });
      }
    },
  };
}
