import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeState } from '../../../src/build/fingerprint';
import { loadSite } from '../../../src/build/pipeline';
import { CODES } from '../../../src/diagnostics/codes';
import type { Diagnostic } from '../../../src/diagnostics/diagnostic';
import { copyOfContent, PROJECT_ROOT } from '../../support/content';
import { applyFixture, type Fixture, listFixtures } from '../../support/fixtures';

const fixtures = await listFixtures();

type Found = Fixture['expected'][number];
const byPlace = (a: Found, b: Found) => a.file.localeCompare(b.file) || a.line - b.line || a.code.localeCompare(b.code);
const found = (diagnostics: Diagnostic[]): Found[] =>
  diagnostics.map(({ code, file, line }) => ({ code, file, line })).sort(byPlace);

/**
 * The tool's code graph (what .cache/site/code.json keeps: which files each kind of work reads),
 * walked once and given to each copy, as coldCheck (tests/support/cold.ts) does: it holds no work,
 * so what a check reports cannot depend on it, and each check is spared an esbuild walk of the tool.
 */
let graphFolder: string;
const CODE_GRAPH = path.join('.cache', 'site', 'code.json');

beforeAll(async () => {
  graphFolder = await mkdtemp(path.join(os.tmpdir(), 'site-test-graph-'));
  await codeState(path.join(graphFolder, 'code.json'), true);
});

afterAll(async () => {
  await rm(graphFolder, { recursive: true, force: true });
});

async function checkWith(apply: Fixture[]): Promise<Found[]> {
  const content = await copyOfContent({ articles: 'clean' });
  try {
    await mkdir(path.dirname(path.join(content.root, CODE_GRAPH)), { recursive: true });
    await copyFile(path.join(graphFolder, 'code.json'), path.join(content.root, CODE_GRAPH));
    for (const fixture of apply) await applyFixture(content.root, fixture);
    return found((await loadSite(content.root)).diagnostics);
  } finally {
    await content.cleanup();
  }
}

describe('site check rules, each on its fixture (tests/fixtures/checks)', () => {
  it('reports nothing on the real content, not even a warning', async () => {
    expect(found((await loadSite(PROJECT_ROOT)).diagnostics)).toEqual([]);
  });

  it('reports nothing on the clean fixture (the real site-wide files with fixed articles)', async () => {
    expect(await checkWith([])).toEqual([]);
  });

  for (const fixture of fixtures) {
    it(`${fixture.name}: ${fixture.description}`, async () => {
      expect(fixture.expected.length).toBeGreaterThan(0);
      expect(await checkWith([fixture])).toEqual([...fixture.expected].sort(byPlace));
    });
  }

  it('has a fixture for every rule of the catalogue', () => {
    const covered = new Set(fixtures.flatMap((f) => f.expected.map((e) => e.code)));
    // INTERNAL001 is a fault of the tool, which no content causes once the fault is fixed:
    // tests/unit/markdown/compile.test.ts and tests/unit/check/guard.test.ts provoke it from inside.
    covered.add('INTERNAL001');
    // DRAFT002 is reported only where drafts are shown (site dev, --drafts), which the fixtures'
    // check is not: tests/integration/authoring/drafts.test.ts triggers it.
    covered.add('DRAFT002');
    // A fixture's translations start in line (applyFixture): tests/integration/authoring/translations.test.ts
    // makes them fall behind, and never brings them in line, to trigger TRANS001 and TRANS002.
    covered.add('TRANS001');
    covered.add('TRANS002');
    // The external links are asked only under --external, which the fixtures' check is not:
    // tests/integration/check/external/check.test.ts asks a loopback server for each answer.
    for (const code of ['EXT001', 'EXT002', 'EXT003', 'EXT004']) covered.add(code);
    expect([...covered].sort()).toEqual(Object.keys(CODES).sort());
  });
});

describe('the mutation test', () => {
  it('finds every mistake when all of them are made at once, and nothing else', async () => {
    // A broken site-wide file stops modelling (every page needs it), so those fixtures stand alone.
    const combined = fixtures.filter((f) => !f.fatal);
    const expected = combined.flatMap((f) => f.expected).sort(byPlace);
    expect(await checkWith(combined)).toEqual(expected);
  });
});
