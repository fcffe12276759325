import { createRequire } from 'node:module';
import type * as JsoncParser from 'jsonc-parser';

let jsoncModule: typeof JsoncParser | undefined;

/**
 * jsonc-parser (the JSON parser that places each mistake), loaded on first use: a build that
 * finds every JSON content file in the build cache (see `ValidatedJson`) and reports nothing
 * never loads it.
 */
export function jsoncParser(): typeof JsoncParser {
  jsoncModule ??= createRequire(import.meta.url)('jsonc-parser') as typeof JsoncParser;
  return jsoncModule;
}
