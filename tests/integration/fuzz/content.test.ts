// Issue 15: no content, however damaged, makes `site check` crash, hang or fail silently.
//
// Starting from a copy of the real content, each case applies one damage (tests/integration/fuzz/damage.ts),
// runs `site check --format json` on it (in a long-lived worker, tests/integration/fuzz/runner.ts) and asserts
// that the check ends within the time limit with exit 0 or 1, prints a JSON array of well-formed
// diagnostics (at least one error when it exits 1, one of them naming the damaged file, or for a
// removed or renamed file, the files referring to it), and no stack trace. Some damages must be
// reported (see `expectationOf`): invalid JSON, invalid UTF-8, control characters, nesting deeper
// than 10,000 levels, a content file over 2 MB, an empty file, a symbolic link or folder where a
// content file is, a .md file under content/blog at a wrong path, a javascript:/data:/vbscript:/
// file: address in a link field or appended to an article as a link.
//
// Environment:
//   FUZZ_CONTENT        random cases to run (default 150: about 30 s for the whole file on 2 cores)
//   FUZZ_SEED           fast-check seed, to replay a run (printed on failure with the path)
//   FUZZ_PATH           fast-check path, with FUZZ_SEED, to replay one shrunk counterexample
//   FUZZ_CASE_TIMEOUT   time limit of one check in ms (default 20000); over it, the case is a hang
//   FUZZ_KEEP_GOING=1   do not stop at the first failing case: run them all, then fail with every
//                       distinct problem found (no shrinking)
//   FUZZ_REPORT         a file to write the run's figures to (JSON: cases, time, slowest case, problems)
import { writeFile } from 'node:fs/promises';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ContentSnapshot,
  type Damage,
  damageArbitrary,
  describeDamage,
  type Expectation,
  snapshotContent,
} from './damage';
import { type CaseResult, FuzzSession, formatFigures } from './runner';

const CASES = Number(process.env.FUZZ_CONTENT ?? 150);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
const PATH = process.env.FUZZ_PATH || undefined;
const CASE_TIMEOUT = Number(process.env.FUZZ_CASE_TIMEOUT ?? 20_000);
const KEEP_GOING = process.env.FUZZ_KEEP_GOING === '1';

let session: FuzzSession;
let tree: ContentSnapshot;

beforeAll(async () => {
  session = await FuzzSession.open({ timeoutMs: CASE_TIMEOUT });
  tree = await snapshotContent(session.pristine);
}, 300_000);

afterAll(async () => {
  if (!session) return;
  const figures = session.report();
  console.log(formatFigures(figures));
  if (process.env.FUZZ_REPORT) await writeFile(process.env.FUZZ_REPORT, JSON.stringify(figures, null, 2));
  await session.close();
}, 60_000);

/** What went wrong in one case, readably: the damage, each problem, and what the check printed. */
function explain(result: CaseResult): string {
  const { outcome } = result;
  const printed = outcome.timedOut
    ? `(no answer within ${outcome.ms} ms)`
    : `exit ${outcome.exitCode} in ${outcome.ms} ms; stdout ${outcome.stdout.length > 600 ? `${outcome.stdout.slice(0, 600)}…` : outcome.stdout}${outcome.stderr ? `; stderr ${outcome.stderr.slice(0, 600)}` : ''}`;
  return [
    `damage: ${describeDamage(result.damage)}`,
    `expected: ${result.expectation.report} (${result.expectation.because})`,
    ...result.problems.map((p) => `✗ ${p.kind}: ${p.detail}`),
    `check: ${printed}`,
  ].join('\n');
}

async function expectReported(damage: Damage, report: Expectation['report'], because: string): Promise<void> {
  const result = await session.run(damage, { report, because });
  expect(result.problems, explain(result)).toEqual([]);
}

describe('site check on the damaged content that issue 15 lists', () => {
  // Each is expected to fail until issue 15 is fixed.
  it('a category JSON cut short: JSON001 on it, not a SyntaxError from checkAssets', async () => {
    await expectReported(
      { kind: 'truncate', file: 'content/categories/music.json', offset: 200 },
      'error',
      'a category JSON cut short',
    );
  });

  it('a category JSON with one character deleted: JSON001 on it', async () => {
    // The colon after "blogcategory".
    const text = tree.json.find((f) => f.file === 'content/categories/music.json')?.text ?? '';
    await expectReported(
      {
        kind: 'delete',
        file: 'content/categories/music.json',
        offset: text.indexOf('"blogcategory":') + '"blogcategory"'.length,
        length: 1,
      },
      'error',
      'a category JSON missing a colon',
    );
  });

  it('a JSON file nested 50,000 levels: a diagnostic on it, not a RangeError', async () => {
    await expectReported(
      { kind: 'json-nest', file: 'content/navigation.json', path: [], shape: 'array', depth: 50_000 },
      'diagnostic',
      'JSON nested 50,000 levels',
    );
  });

  it('a category JSON holding a value nested 50,000 levels: a diagnostic on it', async () => {
    await expectReported(
      {
        kind: 'json-nest',
        file: 'content/categories/tech.json',
        path: ['description', 'en'],
        shape: 'object',
        depth: 50_000,
      },
      'diagnostic',
      'JSON nested 50,000 levels',
    );
  });

  it('an article with 20,000 nested blockquotes: a diagnostic on it, not a RangeError', async () => {
    const text = tree.articles.find((f) => f.file === 'content/blog/tech/Git.en.md')?.text ?? '';
    await expectReported(
      { kind: 'nest', file: 'content/blog/tech/Git.en.md', offset: text.length, pattern: 'blockquote', depth: 20_000 },
      'diagnostic',
      '20,000 nested blockquotes',
    );
  });

  it('a dangling symbolic link content/blog/<category>/<Slug>.en.md: a diagnostic on it, not silence', async () => {
    await expectReported(
      { kind: 'symlink', file: 'content/blog/tech/Dangling.en.md', target: 'dangling', replaces: false },
      'diagnostic',
      'a dangling link where an article is',
    );
  });

  it('bytes that are not UTF-8 in an article: a diagnostic on it', async () => {
    const text = tree.articles.find((f) => f.file === 'content/blog/tech/Git.en.md')?.text ?? '';
    await expectReported(
      {
        kind: 'bytes',
        file: 'content/blog/tech/Git.en.md',
        offset: Buffer.byteLength(text.slice(0, text.indexOf('\n## ') + 1)),
        hex: 'c3 28',
      },
      'diagnostic',
      'invalid UTF-8 in an article',
    );
  });

  it('a NUL byte in an article: a diagnostic on it', async () => {
    const text = tree.articles.find((f) => f.file === 'content/blog/tech/Git.en.md')?.text ?? '';
    await expectReported(
      {
        kind: 'bytes',
        file: 'content/blog/tech/Git.en.md',
        offset: Buffer.byteLength(text.slice(0, text.indexOf('\n## ') + 1)),
        hex: '00',
      },
      'diagnostic',
      'a NUL byte in an article',
    );
  });

  it('javascript: as a social link in content/owner.json: an error on it', async () => {
    await expectReported(
      { kind: 'json-type', file: 'content/owner.json', path: ['socials', 0, 'url'], value: 'javascript:alert(1)' },
      'error',
      'a javascript: URL in a link field',
    );
  });

  it('javascript: as an in-media link in content/pages/aboutme.json: an error on it', async () => {
    await expectReported(
      {
        kind: 'json-type',
        file: 'content/pages/aboutme.json',
        path: ['media', 0, 'link'],
        value: 'javascript:alert(1)',
      },
      'error',
      'a javascript: URL in a link field',
    );
  });

  it('ftp: as a social link: an error (external links are https)', async () => {
    await expectReported(
      { kind: 'json-type', file: 'content/owner.json', path: ['socials', 1, 'url'], value: 'ftp://example.com/cv.pdf' },
      'error',
      'an ftp: URL in a link field',
    );
  });

  it('javascript: as a markdown link in an article: an error on it', async () => {
    const text = tree.articles.find((f) => f.file === 'content/blog/tech/Git.en.md')?.text ?? '';
    await expectReported(
      {
        kind: 'insert',
        file: 'content/blog/tech/Git.en.md',
        offset: text.length,
        text: '\n\n[Click me](javascript:alert(1))\n',
      },
      'error',
      'a javascript: link in an article',
    );
  });

  it('data: as a markdown image in an article: an error on it', async () => {
    const text = tree.articles.find((f) => f.file === 'content/blog/tech/Git.en.md')?.text ?? '';
    await expectReported(
      {
        kind: 'insert',
        file: 'content/blog/tech/Git.en.md',
        offset: text.length,
        text: '\n\n![A dot](data:image/svg+xml,<svg/onload=alert(1)>)\n',
      },
      'error',
      'a data: image in an article',
    );
  });

  it('http: as a social link: the HTTP001 warning on it, as today', async () => {
    await expectReported(
      { kind: 'json-type', file: 'content/owner.json', path: ['socials', 2, 'url'], value: 'http://example.com/' },
      'diagnostic',
      'an http: URL in a link field',
    );
  });
});

describe('site check on content missing a file it can do without', () => {
  it('the translations lock removed: no error, and each pair of editions is told it was never brought in line', async () => {
    // No override: what the random cases expect of this damage.
    const result = await session.run({ kind: 'remove', file: 'content/translations.json' });
    expect(result.problems, explain(result)).toEqual([]);
    expect(result.outcome.exitCode, explain(result)).toBe(0);
    expect(result.outcome.stdout, explain(result)).toContain('TRANS002');
  });

  it('the translations lock grown by megabytes of whitespace: no diagnostic, as its limit is its own (64 MB)', async () => {
    // CI drew this case at fa1ec3d, when a content file's 2 MB was expected of the lock as well.
    const result = await session.run({
      kind: 'huge',
      file: 'content/translations.json',
      megabytes: 3,
      fill: 'whitespace',
    });
    expect(result.problems, explain(result)).toEqual([]);
    expect(result.outcome.exitCode, explain(result)).toBe(0);
    expect(result.expectation.report).toBe('any');
  });
});

describe('the damages do what they describe', () => {
  it('huge repeat on an article of front matter only (content/blog/tech/orm.en.md): the file is several MB, and FILE002 is on it', async () => {
    // Repeating its empty body once rewrote the 36-byte file unchanged: a "silent" check that was right.
    const file = 'content/blog/tech/orm.en.md';
    expect(tree.articles.find((f) => f.file === file)?.text).toMatch(/^---\n[\s\S]*\n---\n$/);
    const result = await session.run({ kind: 'huge', file, megabytes: 3, fill: 'repeat' });
    expect(result.problems, explain(result)).toEqual([]);
    expect(result.expectation.because).toBe('a content file over 2 MB');
    const diagnostics = JSON.parse(result.outcome.stdout) as { code: string; file: string }[];
    expect(diagnostics.filter((d) => d.file === file).map((d) => d.code)).toEqual(['FILE002']);
  });
});

describe('site check on randomly damaged content', () => {
  it(
    `${CASES} random damages: no crash, no hang, JSON diagnostics naming the damaged file, no stack trace`,
    async () => {
      const property = fc.asyncProperty(damageArbitrary(tree), async (damage) => {
        const result = await session.run(damage);
        // Keep going: every case is recorded in the session's figures, failing or not.
        if (result.problems.length > 0 && !KEEP_GOING) throw new Error(explain(result));
      });
      await fc.assert(property, {
        numRuns: CASES,
        ...(SEED !== undefined ? { seed: SEED } : {}),
        ...(PATH ? { path: PATH } : {}),
        // The failure's own description (damage, problems, output) in fast-check's report, after
        // seed, path and counterexample.
        includeErrorInReport: true,
        // Shrinking a hang costs a time limit a step: stop shrinking after a while (the seed and path replay it).
        skipAllAfterTimeLimit: Math.max(240_000, CASES * 1_500),
      });
      const figures = session.report();
      if (KEEP_GOING) expect(figures.problems, formatFigures(figures)).toEqual([]);
    },
    Math.max(300_000, CASES * 2_000),
  );

  it('leaves the working copy as it found it: the same files, and the check of it is still clean', async () => {
    expect(await session.differences()).toEqual([]);
    const again = await session.runner.check(session.root);
    expect(again.timedOut || again.crashed ? again : JSON.parse(again.stdout)).toEqual(session.baseline);
  });
});
