import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { site } from '../../support/cli';
import { copyOfContent } from '../../support/content';
import { applyFixture, listFixtures } from '../../support/fixtures';

const fixtures = await listFixtures();
const fixture = (name: string) => fixtures.find((f) => f.name === name)!;

const check = (root: string, ...args: string[]) => site(['--root', root, 'check', ...args]);

let content: Awaited<ReturnType<typeof copyOfContent>>;
beforeEach(async () => {
  content = await copyOfContent();
});
afterEach(async () => {
  await content.cleanup();
});

describe('site check', () => {
  it('passes the real content with a one-line summary', async () => {
    const result = await check(content.root, '--strict');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^✓ \d+ routes, \d+ editions checked in \d+ ms \(0 errors, 0 warnings\)\n$/);
  });

  it('prints an error grouped under its file with a code frame and a hint, and exits 1', async () => {
    await applyFixture(content.root, fixture('spec-git-anchor'));
    const result = await check(content.root);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'content/blog/tech/pages2static.pt.md\ncontent/blog/tech/pages2static.pt.md:7:32 error ANCHOR001: "#github-actions" is not an id on /blog/tech/Git (pt)',
    );
    expect(result.stderr).toContain(
      '> 7 | A publicação automática usa as [Github Actions](/blog/tech/Git#github-actions).',
    );
    expect(result.stderr).toMatch(/ {2}hint: /);
    expect(result.stderr).toMatch(/1 error, 0 warnings\n$/);
    expect(result.stderr).not.toContain('\u001b[');
  });

  it('exits 0 on a warning, and 1 under --strict', async () => {
    await applyFixture(content.root, fixture('HTTP001'));
    expect((await check(content.root)).code).toBe(0);
    const strict = await check(content.root, '--strict');
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain('warning HTTP001');
  });

  it('writes JSON and GitHub annotations', async () => {
    await applyFixture(content.root, fixture('LINK001'));
    const json = await check(content.root, '--format', 'json');
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual([
      expect.objectContaining({
        code: 'LINK001',
        severity: 'error',
        file: 'content/blog/tech/Kubernetes.en.md',
        line: 7,
        column: 23,
      }),
    ]);
    const github = await check(content.root, '--format', 'github');
    expect(github.stdout).toMatch(
      /^::error file=content\/blog\/tech\/Kubernetes\.en\.md,line=7,col=23,title=LINK001::"\/blog\/tech\/Helm" is not a page of the site/,
    );
  });
});
