import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSkipRules, SKIP_FILE, skippedBy } from '../../../../src/check/external/skip';
import type { Diagnostic } from '../../../../src/diagnostics/diagnostic';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'site-skip-'));
  await mkdir(path.join(root, 'content'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function rulesOf(text: string) {
  await writeFile(path.join(root, SKIP_FILE), text);
  const diagnostics: Diagnostic[] = [];
  return { rules: await loadSkipRules(root, diagnostics), diagnostics };
}

describe('content/external-links.json', () => {
  it('skips nothing when there is no such file, and says nothing of it', async () => {
    const diagnostics: Diagnostic[] = [];
    expect(await loadSkipRules(root, diagnostics)).toEqual([]);
    expect(diagnostics).toEqual([]);
  });

  it('matches whole addresses, each * standing for any characters, case ignored', async () => {
    const { rules, diagnostics } = await rulesOf(
      JSON.stringify({
        skip: [
          { pattern: 'https://www.linkedin.com/*', reason: 'answers robots with 999' },
          { pattern: 'https://*.example.org/login*', reason: 'a login page' },
        ],
      }),
    );
    expect(diagnostics).toEqual([]);
    expect(skippedBy(rules, 'https://www.linkedin.com/in/someone')?.reason).toBe('answers robots with 999');
    expect(skippedBy(rules, 'https://WWW.LinkedIn.com/')?.pattern).toBe('https://www.linkedin.com/*');
    expect(skippedBy(rules, 'https://accounts.example.org/login?next=/')?.reason).toBe('a login page');
    // Whole addresses: no match inside another one, and "." is a dot.
    expect(skippedBy(rules, 'https://example.com/?u=https://www.linkedin.com/x')).toBeUndefined();
    expect(skippedBy(rules, 'https://wwwxlinkedin.com/')).toBeUndefined();
    expect(skippedBy(rules, 'https://accounts.example.org/logout')).toBeUndefined();
  });

  it('reports a mistake in the file at its line and column, as any content file', async () => {
    const { rules, diagnostics } = await rulesOf('{\n  "skip": [\n    { "pattern": "https://a.example/*" }\n  ]\n}\n');
    expect(rules).toEqual([]);
    expect(diagnostics.map((d) => [d.code, d.file, d.line, d.message])).toEqual([
      ['SCHEMA001', SKIP_FILE, 3, 'skip.0.reason: required field is missing (expected string)'],
    ]);
    const broken = await rulesOf('{ "skip": [ }');
    expect(broken.diagnostics.map((d) => [d.code, d.line, d.column])[0]).toEqual(['JSON001', 1, 13]);
  });

  it('reports a link to nowhere in its place rather than skipping nothing in silence', async () => {
    await symlink(path.join(root, 'nowhere.json'), path.join(root, SKIP_FILE));
    const diagnostics: Diagnostic[] = [];
    expect(await loadSkipRules(root, diagnostics)).toEqual([]);
    expect(diagnostics.map((d) => [d.code, d.file])).toEqual([['FILE001', SKIP_FILE]]);
  });
});
