import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codeFile, requireCached } from '../../../src/build/codeCache';

type Doubler = { double: (n: number) => number; name: string };

describe('a CommonJS bundle loaded with the code V8 kept for it', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'site-code-cache-'));
    file = path.join(dir, 'bundle.cjs');
    await writeFile(
      file,
      "const path = require('node:path');\nexports.double = (n) => n * 2;\nexports.name = path.basename(__filename);\n",
    );
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('runs as required, keeps its code once asked, and is compiled from that code by the next load', () => {
    const first = requireCached<Doubler>(file, true);
    expect(first.exports.double(21)).toBe(42);
    // Its own require and __filename, as Node gives a module.
    expect(first.exports.name).toBe('bundle.cjs');
    expect(first.fromKeptCode).toBe(false);
    expect(existsSync(codeFile(file))).toBe(false);
    first.keep();
    expect(existsSync(codeFile(file))).toBe(true);
    const second = requireCached<Doubler>(file, true);
    expect(second.fromKeptCode).toBe(true);
    expect(second.exports.double(4)).toBe(8);
  });

  it('compiles the source itself when the kept code is not its own, and runs what the file says now', async () => {
    requireCached<Doubler>(file, true).keep();
    await writeFile(file, 'exports.double = (n) => n * 3;\nexports.name = "other";\n');
    const changed = requireCached<Doubler>(file, true);
    expect(changed.fromKeptCode).toBe(false);
    expect(changed.exports.double(2)).toBe(6);
    // Kept anew for the new text.
    changed.keep();
    expect(requireCached<Doubler>(file, true).fromKeptCode).toBe(true);
  });

  it('writes nothing when it may not (site check)', () => {
    requireCached<Doubler>(file, false).keep();
    expect(existsSync(codeFile(file))).toBe(false);
  });
});
