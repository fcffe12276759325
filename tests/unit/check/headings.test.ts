import { describe, expect, it } from 'vitest';
import { editionHeadingProblems } from '../../../src/check/headings';
import { compileMarkdown } from '../../../src/markdown/compile';
import type { ArticleEdition } from '../../../src/model/site';

const options = { lang: 'en' as const, localizeHref: (href: string) => href, mediaUrl: (path: string) => path };

/** An edition of `body`, whose body starts on line 6 of its file (after five lines of front matter). */
function editionOf(body: string): ArticleEdition {
  return {
    lang: 'en',
    url: '/blog/tech/Headings',
    source: { file: 'content/blog/tech/Headings.en.md', bodyLine: 6 },
    body: compileMarkdown(body, options),
  } as unknown as ArticleEdition;
}

const found = (body: string) =>
  editionHeadingProblems(editionOf(body)).map(({ code, line, column, message }) => ({ code, line, column, message }));

describe('headings that skip a level (MD003)', () => {
  it('takes a first heading at level 2, each level down one at a time, and any step back up', () => {
    expect(found('Intro.\n\n## A\n\n### B\n\n#### C\n\n## D\n\n### E\n')).toEqual([]);
  });

  it('places a skipped level at its heading, in a quote too, and names the heading above', () => {
    expect(found('## Setup\n\n> #### Note\n')).toEqual([
      {
        code: 'MD003',
        line: 8,
        column: 3,
        message: 'the heading "Note" is level 4 (####) right under "Setup", a level 2 heading: level 3 is skipped',
      },
    ]);
  });

  it('reports a first heading below level 2, under the page title', () => {
    expect(found('Intro.\n\n### Details\n').map((d) => [d.line, d.column])).toEqual([[8, 1]]);
  });

  it('ignores what only looks like a heading in a code block', () => {
    expect(found('## A\n\n```sh\n#### not a heading\n```\n')).toEqual([]);
  });
});
