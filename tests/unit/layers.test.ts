import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../support/content';

/**
 * A test file's folder decides its layer (vitest.config.ts), with no list kept by hand:
 * tests/unit runs in-process without a built site, a process of the CLI, a browser or a database;
 * tests/integration and tests/browser run after the one build of the real content. These tests
 * keep a file out of a layer it does not belong to, and the paths of tests the repository names
 * pointing at files that exist.
 */
const LAYERS = ['tests/unit/', 'tests/integration/', 'tests/browser/'];

/**
 * What a unit test may not reach for, each with what it needs: the helpers of tests/support that
 * start one of these, the build's provided folder, Chromium's driver and the command itself.
 */
const NEEDS_MORE: [RegExp, string][] = [
  [/\binject\(\s*'distDir'/, 'the build of the real content (the folder global-build.ts provides)'],
  [/from '[./]*support\/global-build'/, 'the build of the real content (global-build.ts)'],
  [/from '[./]*support\/cli'/, 'a process of the CLI (support/cli.ts)'],
  [/from '[./]*support\/dev'/, 'a running site dev (support/dev.ts)'],
  [/from '[./]*support\/stale'/, 'processes of the CLI and site dev (support/stale.ts)'],
  [/from '[./]*support\/(browser|chromium)'/, 'Chromium (support/browser.ts, support/chromium.ts)'],
  [/from 'playwright(-core)?'/, 'Chromium (playwright-core)'],
  [/from '[./]*support\/postgres'/, 'a PostgreSQL server (support/postgres.ts)'],
  [/\bbin\/site\b/, 'a process of the CLI (the site command)'],
];

/** Every file under `dir` (a path below the project), as paths below the project. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(path.join(PROJECT_ROOT, dir), { withFileTypes: true, recursive: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(PROJECT_ROOT, path.join(entry.parentPath, entry.name)))
    .filter((file) => !file.split(path.sep).includes('node_modules'));
}

const isTest = (file: string) => /\.test\.tsx?$/.test(file);

describe('the test layers', () => {
  it('holds every test file in tests/unit, tests/integration or tests/browser', async () => {
    const tests = (await filesUnder('tests')).filter(isTest);
    expect(tests.length).toBeGreaterThan(0);
    expect(tests.filter((file) => !LAYERS.some((layer) => file.startsWith(layer)))).toEqual([]);
  });

  it('keeps out of tests/unit every file that needs the built site, the CLI, a browser or a database', async () => {
    const unit = (await filesUnder('tests/unit')).filter(isTest);
    const misplaced: string[] = [];
    for (const file of unit) {
      const text = await readFile(path.join(PROJECT_ROOT, file), 'utf8');
      for (const [pattern, need] of NEEDS_MORE)
        if (pattern.test(text)) misplaced.push(`${file} needs ${need}: move it to tests/integration`);
    }
    expect(misplaced).toEqual([]);
  });

  it('names in the code, scripts and documents only test files that exist', async () => {
    const named = /\btests\/[\w./-]+\.test\.tsx?\b/g;
    const sources = [
      ...['README.md', 'CONTRIBUTING.md', 'package.json', 'vitest.config.ts'],
      ...(await Promise.all(['docs', 'scripts', 'src', 'server', 'bin', 'tests'].map(filesUnder))).flat(),
    ].filter((file) => !file.startsWith(`tests${path.sep}fixtures`) && /\.(md|json|ts|tsx|mjs|cjs|js)$/.test(file));
    const missing: string[] = [];
    for (const file of sources) {
      const text = await readFile(path.join(PROJECT_ROOT, file), 'utf8').catch(() => '');
      for (const [test] of text.matchAll(named)) {
        const exists = await readFile(path.join(PROJECT_ROOT, test)).then(
          () => true,
          () => false,
        );
        if (!exists) missing.push(`${file}: ${test}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
