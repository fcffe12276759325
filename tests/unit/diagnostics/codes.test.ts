import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CODES, type DiagnosticArgs, type DiagnosticCode } from '../../../src/diagnostics/codes';
import { diagnostic } from '../../../src/diagnostics/diagnostic';
import { codeFrame, formatGithub } from '../../../src/diagnostics/printer';
import { PROJECT_ROOT } from '../../support/content';

/** Arguments for every code, one case of each kind its message or hint tells apart. */
const CASES: { [C in DiagnosticCode]: DiagnosticArgs<C>[] } = {
  FILE001: [
    { file: 'content/owner.json', folder: true },
    { file: 'content/owner.json', errno: 'ENOENT', error: 'ENOENT: no such file' },
    { file: 'content/owner.json', errno: undefined, error: 'odd' },
  ],
  FILE002: [{ file: 'content/owner.json', bytes: 300_000, limit: 262_144 }],
  TEXT001: [{ byte: 0xff, offset: 12 }],
  TEXT002: [{ codePoint: 0 }, { codePoint: 0x1b }],
  DEPTH001: [
    { kind: 'json', limit: 64 },
    { kind: 'frontMatter' },
    { kind: 'quotes', depth: 70, limit: 64 },
    { kind: 'indent', columns: 300, limit: 64 },
    { kind: 'run', length: 80, delimiter: '[', limit: 64 },
    { kind: 'paragraph', limit: 1000 },
    { kind: 'text', limit: 10_000 },
    { kind: 'tree', limit: 64 },
  ],
  JSON001: [
    { error: 'CommaExpected', more: 0 },
    { error: 'CommaExpected', more: 41_990 },
  ],
  FM001: [{ kind: 'missing' }, { kind: 'notYaml', opening: '---js' }, { kind: 'invalid', reason: 'bad indentation' }],
  SCHEMA001: [
    { field: 'subtitle.pt', kind: 'unknown', keys: ['x'] },
    { field: 'title', kind: 'missing', expected: 'string' },
    { field: 'date', kind: 'invalid', problem: 'must be a date' },
  ],
  PATH001: [{ file: 'content/blog/tech/x.md' }],
  CAT001: [
    { category: 'food', listedBy: 'folder' },
    { category: 'food', listedBy: 'blogIndex' },
  ],
  CAT002: [{ key: 'tech', blogCategoryName: 'Tech', blogcategory: '/blog/Tech' }],
  MD001: [
    { kind: 'directive', name: 'video' },
    { kind: 'noSource' },
    { kind: 'noCaption' },
    { kind: 'width', width: '300' },
  ],
  MD002: [{ language: 'brainfudge' }],
  MD003: [
    { text: 'Tags', depth: 3 },
    { text: 'Annotated tags', depth: 4, above: { text: 'Branches', depth: 2 } },
  ],
  LINK001: [{ path: '/blog/tech/Gti', near: '/blog/tech/Git' }, { path: '/nowhere' }],
  LINK002: [
    { path: '/blog/tech/git', page: '/blog/tech/Git', hash: 'github-actions' },
    { path: '/blog/tech/git', page: '/blog/tech/Git' },
  ],
  LINK003: [{ path: '/blog/culture/gulbenkian', lang: 'en', offered: ['pt'] }],
  LINK004: [
    { text: 'the .NET article', path: '/blog/tech/Flask', article: { title: '.NET', path: '/blog/tech/DotNet' } },
  ],
  LINK005: [{ path: '/blog/movies', lang: 'en' }],
  DRAFT001: [
    { path: '/blog/tech/Next', lang: 'en' },
    { path: '/blog/tech/Next', lang: 'pt', date: '2027-03-04' },
  ],
  DRAFT002: [{ lang: 'en' }, { lang: 'pt', date: '2027-03-04' }],
  TRANS001: [
    {
      lang: 'pt',
      since: '2026-03-03',
      counterpart: 'content/blog/tech/Git.en.md',
      changed: ['the title', '"Branches"'],
      removed: 1,
      sync: 'content/blog/tech/Git.pt.md',
    },
    {
      lang: 'pt',
      since: '2026-03-03',
      counterpart: 'content/blog/tech/Git.en.md',
      changed: [],
      removed: 0,
      sync: 'content/blog/tech/Git.pt.md',
    },
    { lang: 'en', since: '2026-03-03', sync: 'content/strings.json' },
  ],
  TRANS002: [
    { kind: 'article', sync: 'content/blog/tech/Git.pt.md' },
    { kind: 'text', sync: 'content/strings.json' },
    { kind: 'file', sync: 'content/strings.json' },
  ],
  ANCHOR001: [
    { hash: 'Github-Actions', path: '/blog/tech/Git', lang: 'en', near: 'github-actions', ids: [] },
    { hash: 'x', path: '/blog/tech/Git', lang: 'pt', ids: [] },
  ],
  ANCHOR002: [
    { kind: 'layout', heading: 'Main', id: 'main' },
    { kind: 'twice', id: 'a', path: '/aboutme', lang: 'pt' },
  ],
  INDEX001: [
    { id: 'Setup', near: 'setup', sections: ['setup'] },
    { id: 'x', sections: [] },
  ],
  CRUMB001: [
    {
      path: '/blog/Tech',
      want: '/blog/tech',
      last: false,
      trail: ['/blog', '/blog/tech', '/blog/tech/Git'],
      variant: '/blog/tech',
    },
    { path: '/blog/x', want: '/blog/tech/Git', last: true, trail: ['/blog', '/blog/tech', '/blog/tech/Git'] },
    { path: '/blog/x', want: '/blog/tech', last: false, trail: ['/blog', '/blog/tech', '/blog/tech/Git'] },
  ],
  CRUMB002: [
    { kind: 'afterPage', path: '/blog/x', trail: ['/blog', '/blog/museums'] },
    { kind: 'wrongItem', item: 2, path: '/blog/movies', want: '/blog/museums', trail: ['/blog', '/blog/museums'] },
    { kind: 'stops', items: 1, trail: ['/blog', '/blog/museums'] },
  ],
  CRUMB003: [{ lang: 'pt', title: 'Blogue', path: '/blog', actual: 'Blog' }],
  I18N001: [{ key: 'skipToContent', lang: 'pt' }],
  I18N002: [
    { kind: 'note', lang: 'en', category: '/blog/photos' },
    { kind: 'breadcrumb', lang: 'pt', path: '/blog', edition: false },
    { kind: 'breadcrumb', lang: 'pt', path: '/blog', edition: true },
    { kind: 'indexEntry', lang: 'en', id: 'setup' },
  ],
  I18N003: [{ path: '/blog/tech/Git', lang: 'pt', title: 'Git, do primeiro commit' }],
  I18N004: [
    { words: 'você', form: 'você', places: 12, example: { words: 'Toca', file: 'content/strings.json' } },
    { words: 'tu', form: 'tu', places: 3, example: { words: 'você', file: 'content/strings.json' } },
  ],
  ASSET001: [{ url: '/media/a.PNG', variant: 'a.png' }, { url: '/media/a.png' }],
  ASSET002: [{ image: 'a.png', lang: 'en' }],
  ASSET003: [{ image: 'a.jpg', width: 6000, shown: 728, needed: 1456 }],
  ASSET004: [{ image: 'a.jpg' }],
  ROUTE001: [{ path: '/blog/tech/Git', other: '/blog/tech/git' }],
  ORPHAN001: [{ path: '/blog/tech/Git' }],
  URL001: [
    { kind: 'markdown', href: `javascript:${'a'.repeat(100)}` },
    { kind: 'field', field: 'links.0', problem: 'a ftp: address; this field takes an https:// address' },
  ],
  INTERNAL001: [
    { kind: 'check', rule: 'translations', fault: 'boom' },
    { kind: 'markdown', fault: 'boom' },
  ],
  HTTP001: [{ url: 'http://example.org' }],
  EXT001: [
    { url: 'https://example.org/a', status: 404 },
    { url: 'https://example.org/a', status: 410, at: 'https://example.org/b' },
  ],
  EXT002: [{ url: 'https://example.org/a', to: 'https://example.org/b', status: 301 }],
  EXT003: [
    { url: 'https://example.org/a', kind: 'status', status: 503, reason: 'Service Unavailable', tries: 3 },
    {
      url: 'https://example.org/a',
      at: 'https://example.org/b',
      kind: 'status',
      status: 403,
      reason: 'Forbidden',
      tries: 1,
    },
    { url: 'https://example.org/a', kind: 'limited', tries: 3 },
    { url: 'https://example.org/a', kind: 'limited', tries: 1, wait: 3600 },
    { url: 'https://example.org/a', kind: 'redirects', loop: true, count: 2 },
    { url: 'https://example.org/a', kind: 'redirects', loop: false, count: 10 },
  ],
  EXT004: [
    { url: 'https://example.org/a', tries: 3, kind: 'timeout', seconds: 10 },
    { url: 'https://example.org/a', tries: 3, kind: 'dns', host: 'example.org' },
    { url: 'https://example.org/a', tries: 3, kind: 'refused' },
    { url: 'https://example.org/a', at: 'https://example.org/b', tries: 1, kind: 'reset' },
    { url: 'https://example.org/a', tries: 3, kind: 'tls', detail: 'certificate has expired' },
    { url: 'https://example.org:25/', tries: 1, kind: 'blocked', detail: 'a port the Fetch standard blocks' },
    { url: 'https://example.org/a', tries: 1, kind: 'other', detail: 'odd' },
  ],
};

/** The diagnostics table of docs/checking.md: code and severity of each row. */
async function documentedCodes(): Promise<Map<string, string>> {
  const page = await readFile(path.join(PROJECT_ROOT, 'docs/checking.md'), 'utf8');
  return new Map([...page.matchAll(/^\| `([A-Z0-9]+\d{3})` \| (\w+) \|/gm)].map((m) => [m[1]!, m[2]!]));
}

describe('the diagnostic catalogue', () => {
  it('is documented in docs/checking.md, code for code, with nothing stale', async () => {
    expect([...(await documentedCodes()).keys()].sort()).toEqual(Object.keys(CODES).sort());
  });

  it('gives each code the severity docs/checking.md shows', async () => {
    const documented = await documentedCodes();
    for (const [code, entry] of Object.entries(CODES)) expect(entry.severity, code).toBe(documented.get(code));
  });

  it('makes a message and a hint of text for every case of every code', () => {
    const place = { file: 'content/owner.json', line: 1, column: 1 };
    for (const code of Object.keys(CODES) as DiagnosticCode[]) {
      const cases = CASES[code] as DiagnosticArgs<typeof code>[];
      expect(cases.length, code).toBeGreaterThan(0);
      expect(CODES[code].title, code).not.toBe('');
      for (const args of cases) {
        const { message, hint } = diagnostic(code, place, args);
        for (const text of [message, hint]) {
          expect(text.trim(), `${code} ${JSON.stringify(args)}`).not.toBe('');
          expect(text, `${code} ${JSON.stringify(args)}`).not.toMatch(/undefined|null|NaN|\[object /);
        }
      }
    }
  });

  it('keeps the hint that depends on the case: "Did you mean ...?"', () => {
    const place = { file: 'content/blog/tech/Docker.en.md', line: 7, column: 3 };
    expect(diagnostic('LINK001', place, { path: '/blog/tech/Gti', near: '/blog/tech/Git' }).hint).toBe(
      'Did you mean "/blog/tech/Git"?',
    );
    expect(diagnostic('LINK001', place, { path: '/nowhere' }).hint).toBe(
      'Link to a route path as docs/product.md lists them (Languages and URLs), or create the page.',
    );
  });

  it('names the Wayback Machine list of a dead external link in its hint, and only names it', () => {
    const place = { file: 'content/blog/tech/Docker.en.md', line: 12, column: 5 };
    const gone = diagnostic('EXT001', place, { url: 'https://docs.example.org/old?page=2', status: 410 });
    expect(gone.severity).toBe('error');
    expect(gone.message).toBe('"https://docs.example.org/old?page=2" answers 410 Gone');
    expect(gone.hint).toContain('https://web.archive.org/web/*/https://docs.example.org/old?page=2');
    const lapsed = diagnostic('EXT004', place, {
      url: 'https://lapsed.example/a',
      tries: 3,
      kind: 'dns',
      host: 'lapsed.example',
    });
    expect(lapsed.hint).toContain('https://web.archive.org/web/*/https://lapsed.example/a');
    expect(
      diagnostic('EXT004', place, { url: 'https://slow.example/a', tries: 3, kind: 'timeout', seconds: 10 }).hint,
    ).not.toContain('web.archive.org');
  });

  it('takes severity, message and hint from the catalogue, and the place from the caller', () => {
    const d = diagnostic('HTTP001', { file: 'content/owner.json', line: 3, column: 5 }, { url: 'http://example.org' });
    expect(d).toEqual({
      code: 'HTTP001',
      severity: 'warning',
      file: 'content/owner.json',
      line: 3,
      column: 5,
      message: '"http://example.org" is not https',
      hint: 'Use the https:// address of the page.',
    });
  });

  it('is checked by TypeScript: a code takes its own arguments and no others', () => {
    const place = { file: 'content/owner.json', line: 1, column: 1 };
    // Never called: `tsc` fails if any of these lines is accepted.
    const wrong = () => [
      // @ts-expect-error LINK001 takes a path, not a URL
      diagnostic('LINK001', place, { url: 'http://example.org' }),
      // @ts-expect-error ORPHAN001 needs its path
      diagnostic('ORPHAN001', place, {}),
      // @ts-expect-error no such code
      diagnostic('LINK999', place, { path: '/x' }),
    ];
    expect(wrong).toBeTypeOf('function');
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
    const out = formatGithub([
      {
        code: 'SCHEMA001',
        severity: 'error',
        file: 'content/owner.json',
        line: 3,
        column: 5,
        message: 'subtitle.pt: bad\nvalue',
        hint: 'Fix it.',
      },
    ]);
    expect(out).toBe(
      '::error file=content/owner.json,line=3,col=5,title=SCHEMA001::subtitle.pt: bad%0Avalue Hint: Fix it.',
    );
  });
});
