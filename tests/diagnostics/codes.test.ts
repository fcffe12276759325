import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CODES } from '../../src/diagnostics/codes';
import { codeFrame, formatGithub } from '../../src/diagnostics/printer';
import { PROJECT_ROOT } from '../support/content';

describe('the diagnostic catalogue', () => {
  it('is documented in the README, code for code, with nothing stale', async () => {
    const readme = await readFile(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
    const documented = [...readme.matchAll(/^\| `([A-Z0-9]+\d{3})` \|/gm)].map((m) => m[1]).sort();
    expect(documented).toEqual(Object.keys(CODES).sort());
  });
});

describe('the printer', () => {
  it('frames the offending line with a caret under the column', () => {
    const frame = codeFrame('{\n  "a": 1,\n  "b": "x"\n}\n', 3, 8);
    expect(frame).toBe(['  1 | {', '  2 |   "a": 1,', '> 3 |   "b": "x"', '    |        ^', '  4 | }'].join('\n'));
  });

  it('shows a window of a very long line around the column, and no control characters', () => {
    const frame = codeFrame(`${'['.repeat(50_000)}\n`, 1, 65);
    const [shown, caret] = frame.split('\n');
    expect(shown).toBe(`> 1 | …${'['.repeat(120)}…`);
    expect(caret?.indexOf('^')).toBe(shown!.indexOf('[') + 60);
    expect(codeFrame('a\u0000b\u001b[2Jc', 1, 2)).toBe('> 1 | a\uFFFDb\uFFFD[2Jc\n    |  ^');
  });

  it('writes GitHub annotations with file, line and column', () => {
    const out = formatGithub([{ code: 'SCHEMA001', severity: 'error', file: 'content/owner.json', line: 3, column: 5, message: 'subtitle.pt: bad\nvalue', hint: 'Fix it.' }]);
    expect(out).toBe('::error file=content/owner.json,line=3,col=5,title=SCHEMA001::subtitle.pt: bad%0Avalue Hint: Fix it.');
  });
});
