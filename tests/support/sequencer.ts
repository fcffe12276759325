import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The slowest test files, slowest first (seconds in CI, beside another file on two cores). Vitest starts the
 * longest files first when it has their durations from an earlier run, and the largest otherwise:
 * on a fresh clone the accessibility file, short to read and two minutes to run, came last and
 * ran alone for most of its two minutes.
 */
const SLOWEST = [
  'tests/integration/build/stale.test.ts', // about 155 s (26 steps, each four builds and a settled site dev), measured alone
  'tests/integration/build/session.test.ts', // 33 s alone on a busy machine (28 s of CPU, half of it 13 builds from nothing)
  'tests/integration/build/cache.test.ts', // 30 s alone on a busy machine (24 s of CPU, 15 builds from nothing)
  'tests/browser/accessibility.test.ts', // 70 s
  'tests/browser/pages-content.test.ts', // 67 s
  'tests/integration/cli/robustness.test.ts', // 34 s
  'tests/browser/behaviour.test.ts', // 32 s
];

/** Vitest's order, with the slowest files (above) started first. */
export class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const index = SLOWEST.findIndex((slow) => file.moduleId.endsWith(`/${slow}`));
      return index === -1 ? SLOWEST.length : index;
    };
    // Within each project: Vitest runs the projects one after another, in the order it gave them.
    const projects = [...new Set(sorted.map((file) => file.project.name))];
    const project = (file: TestSpecification) => projects.indexOf(file.project.name);
    return sorted.sort((a, b) => project(a) - project(b) || rank(a) - rank(b));
  }
}
