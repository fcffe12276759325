import { execFileSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { isMap, isScalar, LineCounter, parseDocument } from 'yaml';
import { frontMatterPosition } from '../../../src/diagnostics/position';
import { PROJECT_ROOT } from '../../support/content';

const src = [
  '---',
  'title: T',
  'breadcrumbs:',
  '  - title:',
  '      en: Blog',
  '    path: /blog',
  '  - title:',
  '      en: Museums',
  '    path: /blog/museums',
  'index:',
  '  - id: a',
  '    text: { en: A }',
  '  - id: b',
  '---',
  'body',
].join('\n');
it('finds keys inside front-matter lists by item number', () => {
  expect(frontMatterPosition(src, ['breadcrumbs', 1, 'path'])).toEqual({ line: 9, column: 5 });
  expect(frontMatterPosition(src, ['breadcrumbs', 0, 'title', 'en'])).toEqual({ line: 5, column: 7 });
  expect(frontMatterPosition(src, ['index', 1, 'id'])).toEqual({ line: 13, column: 5 });
  expect(frontMatterPosition(src, ['title'])).toEqual({ line: 2, column: 1 });
});

// The same keys written in the other styles YAML allows: a line-based walker placed none of these.
it('finds keys inside flow maps and flow lists', () => {
  const flow = [
    '---',
    'title: T',
    'breadcrumbs: [{ title: { en: Blog }, path: /blog }, { title: { en: Tech }, path: /blog/tech }]',
    'index:',
    '  - { id: a, text: { en: A } }',
    '---',
    'body',
  ].join('\n');
  expect(frontMatterPosition(flow, ['breadcrumbs', 1, 'path'])).toEqual({ line: 3, column: 76 });
  expect(frontMatterPosition(flow, ['breadcrumbs', 0, 'title', 'en'])).toEqual({ line: 3, column: 26 });
  expect(frontMatterPosition(flow, ['breadcrumbs', 1])).toEqual({ line: 3, column: 53 });
  expect(frontMatterPosition(flow, ['index', 0, 'text', 'en'])).toEqual({ line: 5, column: 22 });
  expect(frontMatterPosition(flow, ['index', 0])).toEqual({ line: 5, column: 3 });
});

it('finds quoted keys by their name', () => {
  const quoted = [
    '---',
    '"title": T',
    "'date': 2025-01-01",
    'breadcrumbs:',
    '  - "path": /blog',
    '    \'title\': { "en": Blog }',
    '---',
  ].join('\n');
  expect(frontMatterPosition(quoted, ['title'])).toEqual({ line: 2, column: 1 });
  expect(frontMatterPosition(quoted, ['date'])).toEqual({ line: 3, column: 1 });
  expect(frontMatterPosition(quoted, ['breadcrumbs', 0, 'path'])).toEqual({ line: 5, column: 5 });
  expect(frontMatterPosition(quoted, ['breadcrumbs', 0, 'title', 'en'])).toEqual({ line: 6, column: 16 });
});

it('is not misled by comments that look like keys or list items', () => {
  const commented = [
    '---',
    '# path: /not/this',
    'title: T # title: neither',
    'breadcrumbs:',
    '  # - path: /commented/out',
    '  - path: /blog # - path: /x',
    '  # the next item is the category',
    '  - path: /blog/tech',
    '---',
  ].join('\n');
  expect(frontMatterPosition(commented, ['title'])).toEqual({ line: 3, column: 1 });
  expect(frontMatterPosition(commented, ['breadcrumbs', 1, 'path'])).toEqual({ line: 8, column: 5 });
  expect(frontMatterPosition(commented, ['breadcrumbs', 1])).toEqual({ line: 8, column: 3 });
});

it('points at the deepest key found when the path cannot be followed, and at the start without front matter', () => {
  expect(frontMatterPosition(src, ['breadcrumbs', 5, 'path'])).toEqual({ line: 3, column: 1 });
  expect(frontMatterPosition(src, ['title', 'en'])).toEqual({ line: 2, column: 1 });
  expect(frontMatterPosition('no front matter', ['title'])).toEqual({ line: 1, column: 1 });
});

// A top-level key is found by its line; the parser is the oracle for where it is.
it('places a top-level key where the YAML parser does, whatever comes before it', () => {
  const parsed = (source: string, key: string) => {
    const yaml = source.slice(source.indexOf('\n') + 1, source.indexOf('\n---', 3) + 1);
    const lines = new LineCounter();
    const document = parseDocument(yaml, { lineCounter: lines });
    const pair = isMap(document.contents)
      ? document.contents.items.find((p) => isScalar(p.key) && p.key.value === key)
      : undefined;
    const start = pair && isScalar(pair.key) ? pair.key.range?.[0] : undefined;
    if (start === undefined) return { line: 1, column: 1 };
    const { line, col } = lines.linePos(start);
    return { line: line + 1, column: col };
  };
  const sources = [
    ['---', 'description: "first', 'title: cut short"', '---'],
    ['---', 'tags: [a,', 'title: b]', '---'],
    ['---', 'summary: >', '  folded', 'title: After a block', '---'],
    ['---', 'date: 2024-01-01', 'titles: [not it]', 'title : spaced', '---'],
    ['---', 'title: first', 'title: twice', '---'],
    ['---', "'title': quoted", '---'],
    ['---', 'title:no-space is a plain scalar', 'title:', '  nested: value', '---'],
    ['---', '  title: indented, not top level', 'other: x', '---'],
    ['---', '{ title: flow, date: 2024-01-01 }', '---'],
    ['---\r', 'date: 2024\r', 'title: crlf\r', '---\r'],
  ].map((lines) => `${lines.join('\n')}\nbody\n`);
  for (const source of sources)
    for (const key of ['title', 'date', 'other'])
      expect(frontMatterPosition(source, [key]), `${key} in ${JSON.stringify(source)}`).toEqual(parsed(source, key));
});

it('places a top-level key without loading the YAML parser', () => {
  const script = [
    "import { createRequire } from 'node:module';",
    "const { frontMatterPosition } = await import('./src/diagnostics/position.ts');",
    "const place = frontMatterPosition('---\\ndate: 2024-01-01\\ntitle: T\\n---\\nbody', ['title']);",
    "const loaded = Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes('/node_modules/yaml/'));",
    'console.log(JSON.stringify({ place, loaded }));',
  ].join('\n');
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
  });
  expect(JSON.parse(out)).toEqual({ place: { line: 3, column: 1 }, loaded: false });
});
