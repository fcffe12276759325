import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SKIP_FILE } from '../../../src/check/external/skip';
import { site } from '../../support/cli';
import { copyOfContent } from '../../support/content';
import { startLinkServer } from '../../support/linkServer';

// `site check --external` as the owner runs it, against a loopback server of the test's own; the
// content's real links (all https) are skipped by the copy's skip file, so nothing else is asked.

const ARTICLE = 'content/blog/tech/Links.en.md';

let server: Awaited<ReturnType<typeof startLinkServer>>;
let content: Awaited<ReturnType<typeof copyOfContent>>;

const check = (...args: string[]) => site(['--root', content.root, 'check', ...args]);
/** Where the "[old]" link starts on its line (the port's digits come before it). */
const oldColumn = () => `- [Missing](${server.origin}/missing) and `.length + 1;
/** The paths the server was asked from request `from` on. */
const askedSince = (from: number) => new Set(server.seen.slice(from).map((seen) => seen.path));

beforeAll(async () => {
  server = await startLinkServer();
  content = await copyOfContent({ articles: 'clean' });
  const o = server.origin;
  await writeFile(
    path.join(content.root, ARTICLE),
    `---
title: Links out
description: An article whose links leave the site.
date: 2024-03-11
---

The [guide](${o}/ok) and [a moved one](${o}/found) work.

- [Missing](${o}/missing) and [old](${o}/moved#setup).
- [No HEAD](${o}/no-head).
`,
  );
  await writeFile(
    path.join(content.root, SKIP_FILE),
    JSON.stringify({ skip: [{ pattern: 'https://*', reason: 'the tests ask only their loopback server' }] }),
  );
});

afterAll(async () => {
  await server?.close();
  await content?.cleanup();
});

describe('site check --external', () => {
  it('is off by default: site check asks nothing', async () => {
    const result = await check('--format', 'json');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).filter((d: { code: string }) => d.code.startsWith('EXT'))).toEqual([]);
    expect(server.seen).toEqual([]);
  });

  it('reports a dead link as an error at its file, line and column, in JSON', async () => {
    const result = await check('--external', '--format', 'json');
    expect(result.code).toBe(1);
    const found = JSON.parse(result.stdout).filter((d: { code: string }) => d.code.startsWith('EXT'));
    const o = server.origin;
    expect(found).toEqual([
      {
        code: 'EXT001',
        severity: 'error',
        file: ARTICLE,
        line: 9,
        column: 3,
        message: `"${o}/missing" answers 404 Not Found`,
        hint: `Link to where the page went, or to an archived copy of it: look for one at https://web.archive.org/web/*/${o}/missing (not asked for you).`,
      },
      {
        code: 'EXT002',
        severity: 'warning',
        file: ARTICLE,
        line: 9,
        column: oldColumn(),
        message: `"${o}/moved#setup" has moved for good (301) to "${o}/ok#setup"`,
        hint: `Write "${o}/ok#setup" in the link: the old address works only as long as its site keeps the redirect.`,
      },
    ]);
    expect(askedSince(0)).toEqual(new Set(['/ok', '/found', '/missing', '/moved', '/no-head']));
  });

  it('asks again only what failed, and writes GitHub annotations', async () => {
    const from = server.seen.length;
    const result = await check('--external', '--format', 'github');
    expect(result.code).toBe(1);
    expect(askedSince(from)).toEqual(new Set(['/missing']));
    const o = server.origin;
    expect(result.stdout).toContain(
      `::error file=${ARTICLE},line=9,col=3,title=EXT001::"${o}/missing" answers 404 Not Found Hint: Link to where the page went, or to an archived copy of it: look for one at https://web.archive.org/web/*/${o}/missing (not asked for you).`,
    );
    expect(result.stdout).toContain(
      `::warning file=${ARTICLE},line=9,col=${oldColumn()},title=EXT002::"${o}/moved#setup" has moved for good (301) to "${o}/ok#setup"`,
    );
  });

  it('prints the finding with its lines and hint for the owner, and what it asked', async () => {
    const result = await check('--external');
    expect(result.code).toBe(1);
    const o = server.origin;
    expect(result.stderr).toContain(`${ARTICLE}:9:3 error EXT001: "${o}/missing" answers 404 Not Found\n`);
    expect(result.stderr).toContain(`>  9 | - [Missing](${o}/missing) and [old](${o}/moved#setup).\n     |   ^\n`);
    expect(result.stderr).toContain(
      `  hint: Link to where the page went, or to an archived copy of it: look for one at https://web.archive.org/web/*/${o}/missing (not asked for you).`,
    );
    expect(result.stdout).toMatch(
      /^External links: \d+ links to \d+ addresses; 1 asked \(2 requests\), 4 answered from the cache, \d+ skipped \(content\/external-links\.json\)\.\n$/,
    );
  });

  it('asks everything again under --max-age 0, and refuses an age it cannot read', async () => {
    const from = server.seen.length;
    await check('--external', '--max-age', '0', '--format', 'json');
    expect(askedSince(from)).toEqual(new Set(['/ok', '/found', '/missing', '/moved', '/no-head']));
    const wrong = await check('--external', '--max-age', 'soon');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--max-age takes a number and a unit: 30m, 12h, 7d, 2w (or 0 to ask everything).');
  });
});
