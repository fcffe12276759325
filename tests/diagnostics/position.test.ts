import { expect, it } from 'vitest';
import { frontMatterPosition } from '../../src/diagnostics/position';
const src = ['---','title: T','breadcrumbs:','  - title:','      en: Blog','    path: /blog','  - title:','      en: Museums','    path: /blog/museums','index:','  - id: a','    text: { en: A }','  - id: b','---','body'].join('\n');
it('finds keys inside front-matter lists by item number', () => {
  expect(frontMatterPosition(src, ['breadcrumbs', 1, 'path'])).toEqual({ line: 9, column: 5 });
  expect(frontMatterPosition(src, ['breadcrumbs', 0, 'title', 'en'])).toEqual({ line: 5, column: 7 });
  expect(frontMatterPosition(src, ['index', 1, 'id'])).toEqual({ line: 13, column: 5 });
  expect(frontMatterPosition(src, ['title'])).toEqual({ line: 2, column: 1 });
});
