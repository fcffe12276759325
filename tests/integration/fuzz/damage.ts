// Damage to a copy of the real content, for the content fuzz test (tests/integration/fuzz/content.test.ts).
//
// Each damage is a plain, serialisable description (kind, file, offset, text, ...) so that a
// failing case prints readably and can be replayed by hand; `applyDamage` carries one out in a
// site folder, `restoreDamage` puts the touched paths back from a pristine copy, and
// `expectationOf` says what `site check` must report for it.
//
// Offsets: `truncate` and `bytes` count bytes of the file; `delete`, `insert` and `nest` count
// UTF-16 code units of its text decoded as UTF-8 (moved forward by one when they would split a
// surrogate pair). Every offset is within the file it names, in the pristine content the
// arbitraries were made from.
import { chmod, cp, lstat, mkdir, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { LOCK_FILE, LOCK_LIMIT } from '../../../src/translations/lock';

// ---------------------------------------------------------------------------------------------
// The content tree the arbitraries are made from

export type FileKind = 'json' | 'article' | 'media' | 'other';

export interface SnapshotFile {
  /** Project-relative path with forward slashes: "content/categories/tech.json". */
  file: string;
  kind: FileKind;
  bytes: number;
  /** The text of JSON files and articles. */
  text?: string;
  /** Every path to a value of a JSON file (the root is []), and the paths to its objects. */
  jsonPaths?: JsonPath[];
  objectPaths?: JsonPath[];
}

export interface ContentSnapshot {
  files: SnapshotFile[];
  json: SnapshotFile[];
  articles: SnapshotFile[];
  media: SnapshotFile[];
  /** content/blog/<category> folders that exist. */
  categoryFolders: string[];
}

export type JsonPath = (string | number)[];
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

function kindOf(file: string): FileKind {
  if (file.startsWith('content/media/')) return 'media';
  if (file.endsWith('.json')) return 'json';
  if (file.startsWith('content/blog/') && file.endsWith('.md')) return 'article';
  return 'other';
}

function pathsOf(value: unknown, at: JsonPath, all: JsonPath[], objects: JsonPath[]): void {
  all.push(at);
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) pathsOf(v, [...at, i], all, objects);
  } else if (value && typeof value === 'object') {
    objects.push(at);
    for (const [k, v] of Object.entries(value)) pathsOf(v, [...at, k], all, objects);
  }
}

/** Reads the tree under `<root>/content` (the pristine copy) to make arbitraries from. */
export async function snapshotContent(root: string): Promise<ContentSnapshot> {
  const entries = await readdir(path.join(root, 'content'), { recursive: true, withFileTypes: true });
  const files: SnapshotFile[] = [];
  for (const e of entries) {
    if (!e.isFile()) continue;
    const absolute = path.join(e.parentPath, e.name);
    const file = path.relative(root, absolute).split(path.sep).join('/');
    const kind = kindOf(file);
    const buffer = await readFile(absolute);
    const entry: SnapshotFile = { file, kind, bytes: buffer.length };
    if (kind === 'json' || kind === 'article') entry.text = buffer.toString('utf8');
    if (kind === 'json') {
      const all: JsonPath[] = [];
      const objects: JsonPath[] = [];
      pathsOf(JSON.parse(entry.text as string), [], all, objects);
      entry.jsonPaths = all;
      entry.objectPaths = objects;
    }
    files.push(entry);
  }
  files.sort((a, b) => a.file.localeCompare(b.file));
  const categoryFolders = [
    ...new Set(files.filter((f) => f.kind === 'article').map((f) => path.posix.dirname(f.file))),
  ].sort();
  return {
    files,
    json: files.filter((f) => f.kind === 'json'),
    articles: files.filter((f) => f.kind === 'article'),
    media: files.filter((f) => f.kind === 'media'),
    categoryFolders,
  };
}

// ---------------------------------------------------------------------------------------------
// Damage descriptions

export type NestPattern =
  | 'json-array' // [[[ ... ]]]
  | 'json-array-open' // [[[ ... (never closed)
  | 'json-object' // {"a":{"a": ... 1}}
  | 'blockquote' // >>>> deep
  | 'list' // - x / nested two spaces deeper each line
  | 'brackets' // [[[[x]]]]
  | 'link-brackets' // [[[[ ... ](/blog/)
  | 'emphasis' // ****x****
  | 'html' // <div><div> ... </div></div>
  | 'directive' // ::figure[::figure[ ...
  | 'yaml-flow'; // a front-matter key whose value is [[[ ... ]]] (inserted after the opening ---)

export type SymlinkTarget = 'dangling' | 'folder' | 'dev-null' | 'self' | 'ancestor';
export type HugeFill = 'repeat' | 'whitespace' | 'long-line' | 'long-string';

export type Damage =
  | { kind: 'truncate'; file: string; offset: number }
  | { kind: 'delete'; file: string; offset: number; length: number }
  | { kind: 'insert'; file: string; offset: number; text: string }
  | { kind: 'nest'; file: string; offset: number; pattern: NestPattern; depth: number }
  | { kind: 'json-nest'; file: string; path: JsonPath; shape: 'array' | 'object'; depth: number }
  | { kind: 'json-type'; file: string; path: JsonPath; value: JsonValue }
  | { kind: 'json-delete-key'; file: string; path: JsonPath }
  | { kind: 'json-add-key'; file: string; path: JsonPath; key: string; value: JsonValue }
  | { kind: 'bytes'; file: string; offset: number; hex: string }
  | { kind: 'empty'; file: string }
  | { kind: 'huge'; file: string; megabytes: number; fill: HugeFill }
  | { kind: 'folder'; file: string }
  | { kind: 'symlink'; file: string; target: SymlinkTarget; replaces: boolean }
  | { kind: 'unreadable'; file: string }
  | { kind: 'add-file'; file: string; copyOf: string }
  | { kind: 'remove'; file: string }
  | { kind: 'rename'; file: string; to: string }
  | { kind: 'bom'; file: string }
  | { kind: 'crlf'; file: string };

export type DamageKind = Damage['kind'];

/** One line, for reports: the description as JSON, long strings shortened. */
export function describeDamage(damage: Damage): string {
  return JSON.stringify(damage, (_, v: unknown) =>
    typeof v === 'string' && v.length > 120 ? `${v.slice(0, 60)}…(${v.length} chars)` : v,
  );
}

// ---------------------------------------------------------------------------------------------
// Arbitraries

/** Structural snippets of markdown, directives, front matter and JSON. */
export const SNIPPETS = [
  '---',
  '{',
  '}',
  '[',
  ']',
  '](',
  '](/blog/',
  '](javascript:alert(1))',
  '![',
  '![](',
  '```',
  '~~~',
  '::figure[',
  '{src=',
  ':::',
  '#',
  '##',
  '>',
  '- ',
  '* ',
  '1. ',
  '|',
  '| a | b |\n|---|---|\n| 1 | 2 |',
  '|---|',
  '<script>alert(1)</script>',
  '<script>',
  '<!--',
  '-->',
  '<div>',
  '</div>',
  '"',
  ',',
  ':',
  '\\',
  '[^1]',
  '[^1]: note',
  '{#id}',
  '](#',
  '](/media/',
  '](/media/nope.svg)',
  '](/blog/tech/Git#',
  '](http://example.com)',
  '](data:text/html,<script>alert(1)</script>)',
  '[x]: javascript:alert(1)',
  '&',
  '&#0;',
  '&nbsp;',
  '\u2028',
  '\u00a0',
  '\t',
  '  \n',
  '\n\n',
  '*',
  '_',
  '`',
  '$$',
  '%',
  '{{',
  '}}',
  'null',
  'true',
  '[]',
  '{}',
  '""',
  '":',
  '"en":',
  '::figure[caption]{src=/media/nope.svg}',
  ':::figure\n',
  '::figure[]{src= width=abc}',
  '---\ntitle: x\n---\n',
  'title:',
  'date: 2023-13-45',
  'cover: javascript:alert(1)',
  'index:',
] as const;

/** Bytes that are not valid UTF-8, NUL and other control characters (as hex, space-separated). */
export const BAD_BYTES = [
  'c3 28',
  'ff',
  'fe ff',
  '80',
  'c0 af',
  'ed a0 80',
  'f8 88 80 80 80',
  'e2 82',
  '00',
  '01',
  '07',
  '08',
  '0b',
  '1b',
  '1f',
  '7f',
  '00 00 00 00',
] as const;

/**
 * Markdown links, images and definitions to addresses no page may hold (issue 15: never
 * javascript:, data: or another scheme than https).
 */
export const UNSAFE_LINKS = [
  '\n\n[Click](javascript:alert(1))\n',
  '\n\n[Click](JavaScript:alert(1))\n',
  '\n\n[Click](  javascript:alert(1) )\n',
  '\n\n[Click](vbscript:msgbox(1))\n',
  '\n\n![Dot](data:image/svg+xml,<svg/onload=alert(1)>)\n',
  '\n\n[Page](data:text/html,<script>alert(1)</script>)\n',
  '\n\n[Click][evil]\n\n[evil]: javascript:alert(1)\n',
  '\n\n<javascript:alert(1)>\n',
  '\n\n[File](file:///etc/passwd)\n',
  '\n\n::figure[A caption]{src="javascript:alert(1)"}\n',
] as const;

/** Addresses a link, image or media field of the JSON content may never hold. */
export const UNSAFE_URLS = [
  'javascript:alert(1)',
  'JavaScript:alert(1)',
  ' javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  'file:///etc/passwd',
] as const;

export const JSON_VALUES: readonly JsonValue[] = [
  0,
  1,
  -1,
  1.5,
  1e308,
  null,
  true,
  false,
  '',
  'x',
  [],
  {},
  [null],
  { en: 1 },
  { en: '', pt: '' },
  '/media/nope.svg',
  'http://example.com',
  '/blog/nope',
  'a'.repeat(300),
  ...UNSAFE_URLS,
];

export const ODD_KEYS = [
  'unknown',
  'zz',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'en',
  'pt',
  'fr',
  '',
  ' ',
  'EN',
  'title',
] as const;

/**
 * Odd names for a file added under content/blog/<category>/ ("../" climbs out of the category
 * folder; "~/" is replaced by content/blog/). Some are valid article names, which is fine.
 */
export const ODD_NAMES = [
  'My Article.en.md',
  'Canção.pt.md',
  'Ｇｉｔ.en.md',
  'a..b.en.md',
  '..en.md',
  '.en.md',
  '.md',
  'GIT.en.md',
  'Git.EN.MD',
  'GIT.EN.md',
  'notes',
  'Git',
  'Git.md',
  'Git.fr.md',
  'Git.en.markdown',
  'Git.en.md.bak',
  `${'a'.repeat(240)}.en.md`,
  `${'ç'.repeat(120)}.en.md`,
  '-.en.md',
  '_.en.md',
  'x.en.md ',
  ' x.en.md',
  'x\ty.en.md',
  'x\ny.en.md',
  '#hash.en.md',
  '%20.en.md',
  '?.en.md',
  'x:y.en.md',
  'x\\y.en.md',
  'sub/Nested.en.md',
  '../stray.en.md',
  '~/Tech/Upper.en.md',
  '~/new cat/Spaced.en.md',
  '~/nocategory/Lost.en.md',
  '~/çat/Uni.en.md',
] as const;

const VALID_ARTICLE = /^content\/blog\/[a-z]+\/[A-Za-z0-9_-]+\.(en|pt)\.md$/;

/**
 * Depth ranges: JSON thousands to 50,000 levels, markdown up to 20,000 (lists to 1,000: each level
 * is two more spaces per line).
 */
const DEPTHS: Record<NestPattern, [number, number]> = {
  'json-array': [1_000, 50_000],
  'json-array-open': [1_000, 50_000],
  'json-object': [1_000, 50_000],
  blockquote: [1_000, 20_000],
  list: [100, 1_000],
  brackets: [1_000, 20_000],
  'link-brackets': [1_000, 20_000],
  emphasis: [1_000, 20_000],
  html: [1_000, 10_000],
  directive: [1_000, 10_000],
  'yaml-flow': [1_000, 50_000],
};

const JSON_PATTERNS: NestPattern[] = ['json-array', 'json-array-open', 'json-object'];
const MARKDOWN_PATTERNS: NestPattern[] = [
  'blockquote',
  'list',
  'brackets',
  'link-brackets',
  'emphasis',
  'html',
  'directive',
  'yaml-flow',
  ...JSON_PATTERNS,
];

/** A UTF-16 offset into `text` (or its end). */
const textOffset = (text: string) => fc.integer({ min: 0, max: text.length });

export function damageArbitrary(tree: ContentSnapshot): fc.Arbitrary<Damage> {
  const json = fc.constantFrom(...tree.json);
  const article = fc.constantFrom(...tree.articles);
  const media = fc.constantFrom(...tree.media);
  const text = fc.oneof(json, article);
  /** Any file, media seldom: the checker reads few of them. */
  const anyFile = fc.oneof(
    { arbitrary: json, weight: 3 },
    { arbitrary: article, weight: 3 },
    { arbitrary: media, weight: 1 },
  );

  const truncate = fc.oneof({ arbitrary: text, weight: 4 }, { arbitrary: media, weight: 1 }).chain((f) =>
    fc.record({
      kind: fc.constant('truncate' as const),
      file: fc.constant(f.file),
      offset: fc.integer({ min: 0, max: Math.max(0, f.bytes - 1) }),
    }),
  );
  const del = text.chain((f) =>
    fc.record({
      kind: fc.constant('delete' as const),
      file: fc.constant(f.file),
      offset: fc.integer({ min: 0, max: Math.max(0, (f.text as string).length - 1) }),
      length: fc.integer({ min: 1, max: 20 }),
    }),
  );
  const snippet = fc
    .tuple(fc.constantFrom(...SNIPPETS), fc.constantFrom('', '\n', 'both'))
    .map(([s, nl]) => (nl === '' ? s : nl === '\n' ? `\n${s}` : `\n${s}\n`));
  const insertText = fc.oneof(
    { arbitrary: snippet, weight: 4 },
    { arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }), weight: 1 },
  );
  /** In an article: anywhere, often in the front matter, sometimes at the very end. */
  const articleOffset = (t: string) => {
    const frontMatterEnd = t.indexOf('\n---', 3) + 1;
    return fc.oneof(
      { arbitrary: textOffset(t), weight: 3 },
      { arbitrary: fc.integer({ min: 0, max: Math.max(0, frontMatterEnd) }), weight: 1 },
      { arbitrary: fc.constant(t.length), weight: 1 },
    );
  };
  const insert = fc.oneof(
    json.chain((f) =>
      fc.record({
        kind: fc.constant('insert' as const),
        file: fc.constant(f.file),
        offset: textOffset(f.text as string),
        text: insertText,
      }),
    ),
    article.chain((f) =>
      fc.record({
        kind: fc.constant('insert' as const),
        file: fc.constant(f.file),
        offset: articleOffset(f.text as string),
        text: insertText,
      }),
    ),
    // A whole link of a forbidden scheme at the end of an article, where it cannot be inside code.
    article.chain((f) =>
      fc.record({
        kind: fc.constant('insert' as const),
        file: fc.constant(f.file),
        offset: fc.constant((f.text as string).length),
        text: fc.constantFrom(...UNSAFE_LINKS),
      }),
    ),
  );
  const nest = fc
    .oneof(
      json.map((f) => ({ f, patterns: JSON_PATTERNS })),
      article.map((f) => ({ f, patterns: MARKDOWN_PATTERNS })),
    )
    .chain(({ f, patterns }) =>
      fc.constantFrom(...patterns).chain((pattern) => {
        const t = f.text as string;
        // Markdown nesting also at the very end of the file: a place that cannot be inside a code fence.
        const offset =
          pattern === 'yaml-flow'
            ? fc.constant(4)
            : f.kind === 'article'
              ? fc.oneof(fc.constant(t.length), textOffset(t))
              : textOffset(t);
        const [min, max] = DEPTHS[pattern];
        return fc.record({
          kind: fc.constant('nest' as const),
          file: fc.constant(f.file),
          offset,
          pattern: fc.constant(pattern),
          depth: fc.integer({ min, max }),
        });
      }),
    );
  const jsonNest = json.chain((f) =>
    fc.record({
      kind: fc.constant('json-nest' as const),
      file: fc.constant(f.file),
      path: fc.constantFrom(...(f.jsonPaths as JsonPath[])),
      shape: fc.constantFrom('array' as const, 'object' as const),
      depth: fc.integer({ min: 1_000, max: 50_000 }),
    }),
  );
  const jsonType = json.chain((f) =>
    fc.record({
      kind: fc.constant('json-type' as const),
      file: fc.constant(f.file),
      path: fc.constantFrom(...(f.jsonPaths as JsonPath[])),
      value: fc.constantFrom(...JSON_VALUES),
    }),
  );
  const jsonDeleteKey = json
    .filter((f) => (f.jsonPaths as JsonPath[]).some((p) => typeof p[p.length - 1] === 'string'))
    .chain((f) =>
      fc.record({
        kind: fc.constant('json-delete-key' as const),
        file: fc.constant(f.file),
        path: fc.constantFrom(...(f.jsonPaths as JsonPath[]).filter((p) => typeof p[p.length - 1] === 'string')),
      }),
    );
  const jsonAddKey = json
    .filter((f) => (f.objectPaths as JsonPath[]).length > 0)
    .chain((f) =>
      fc.record({
        kind: fc.constant('json-add-key' as const),
        file: fc.constant(f.file),
        path: fc.constantFrom(...(f.objectPaths as JsonPath[])),
        key: fc.constantFrom(...ODD_KEYS),
        value: fc.constantFrom(...JSON_VALUES),
      }),
    );
  const bytes = fc.oneof({ arbitrary: text, weight: 4 }, { arbitrary: media, weight: 1 }).chain((f) =>
    fc.record({
      kind: fc.constant('bytes' as const),
      file: fc.constant(f.file),
      offset: fc.integer({ min: 0, max: f.bytes }),
      hex: fc.constantFrom(...BAD_BYTES),
    }),
  );
  const empty = anyFile.map((f) => ({ kind: 'empty' as const, file: f.file }));
  const huge = anyFile.chain((f) =>
    fc.record({
      kind: fc.constant('huge' as const),
      file: fc.constant(f.file),
      megabytes: fc.integer({ min: 3, max: 6 }),
      fill:
        f.kind === 'json'
          ? fc.constantFrom('whitespace' as const, 'long-string' as const)
          : f.kind === 'article'
            ? fc.constantFrom('repeat' as const, 'whitespace' as const, 'long-line' as const)
            : fc.constant('repeat' as const),
    }),
  );
  const folder = anyFile.map((f) => ({ kind: 'folder' as const, file: f.file }));
  const linkTarget = fc.constantFrom<SymlinkTarget>('dangling', 'folder', 'dev-null', 'self', 'ancestor');
  const symlinkReplacing = anyFile.chain((f) =>
    fc.record({
      kind: fc.constant('symlink' as const),
      file: fc.constant(f.file),
      target: linkTarget,
      replaces: fc.constant(true),
    }),
  );
  const symlinkAdded = fc
    .tuple(fc.constantFrom(...tree.categoryFolders), fc.constantFrom('Link.en.md', 'Link.pt.md', 'link'))
    .chain(([dir, name]) =>
      fc.record({
        kind: fc.constant('symlink' as const),
        file: fc.constant(`${dir}/${name}`),
        target: linkTarget,
        replaces: fc.constant(false),
      }),
    );
  const unreadable = anyFile.map((f) => ({ kind: 'unreadable' as const, file: f.file }));
  const addFile = fc
    .tuple(fc.constantFrom(...tree.categoryFolders), fc.constantFrom(...ODD_NAMES))
    .chain(([dir, name]) => {
      const file = name.startsWith('~/') ? `content/blog/${name.slice(2)}` : path.posix.normalize(`${dir}/${name}`);
      const sameFolder = tree.articles.filter((a) => path.posix.dirname(a.file) === dir);
      return fc.record({
        kind: fc.constant('add-file' as const),
        file: fc.constant(file),
        copyOf: fc.constantFrom(...(sameFolder.length ? sameFolder : tree.articles)).map((a) => a.file),
      });
    });
  const remove = anyFile.map((f) => ({ kind: 'remove' as const, file: f.file }));
  const renameTo = (f: SnapshotFile): string[] => {
    const dir = path.posix.dirname(f.file);
    const base = path.posix.basename(f.file);
    const [stem, ...rest] = base.split('.');
    const ext = rest.join('.');
    const names = [
      `${(stem ?? '').toLowerCase()}.${ext}`,
      `${(stem ?? '').toUpperCase()}.${ext}`,
      `${stem}.${ext.toUpperCase()}`,
      `${base}.bak`,
      `${stem}-old.${ext}`,
    ];
    const out = names.map((n) => `${dir}/${n}`);
    if (f.kind === 'article') {
      out.push(`${dir}/${base.replace(/\.(en|pt)\.md$/, (_, l: string) => (l === 'en' ? '.pt.md' : '.en.md'))}`);
      for (const other of tree.categoryFolders) if (other !== dir) out.push(`${other}/${base}`);
    }
    return [...new Set(out)].filter((to) => to !== f.file && !tree.files.some((g) => g.file === to));
  };
  const renamed = anyFile
    .filter((f) => renameTo(f).length > 0)
    .chain((f) =>
      fc.record({
        kind: fc.constant('rename' as const),
        file: fc.constant(f.file),
        to: fc.constantFrom(...renameTo(f)),
      }),
    );
  const bom = text.map((f) => ({ kind: 'bom' as const, file: f.file }));
  const crlf = text.map((f) => ({ kind: 'crlf' as const, file: f.file }));

  return fc.oneof(
    { arbitrary: truncate, weight: 10 },
    { arbitrary: del, weight: 10 },
    { arbitrary: insert, weight: 20 },
    { arbitrary: nest, weight: 8 },
    { arbitrary: jsonNest, weight: 3 },
    { arbitrary: jsonType, weight: 8 },
    { arbitrary: jsonDeleteKey, weight: 5 },
    { arbitrary: jsonAddKey, weight: 4 },
    { arbitrary: bytes, weight: 8 },
    { arbitrary: empty, weight: 2 },
    { arbitrary: huge, weight: 1 },
    { arbitrary: folder, weight: 2 },
    { arbitrary: symlinkReplacing, weight: 2 },
    { arbitrary: symlinkAdded, weight: 2 },
    { arbitrary: unreadable, weight: 1 },
    { arbitrary: addFile, weight: 5 },
    { arbitrary: remove, weight: 3 },
    { arbitrary: renamed, weight: 3 },
    { arbitrary: bom, weight: 1 },
    { arbitrary: crlf, weight: 1 },
  ) as fc.Arbitrary<Damage>;
}

// ---------------------------------------------------------------------------------------------
// Applying and restoring

/** The text a nesting pattern inserts. */
export function nestingText(pattern: NestPattern, depth: number): string {
  switch (pattern) {
    case 'json-array':
      return nestedValue('array', depth);
    case 'json-array-open':
      return '['.repeat(depth);
    case 'json-object':
      return nestedValue('object', depth);
    case 'blockquote':
      return `\n\n${'>'.repeat(depth)} deep\n`;
    case 'list': {
      const lines: string[] = [];
      for (let i = 0; i < depth; i++) lines.push(`${'  '.repeat(i)}- x`);
      return `\n\n${lines.join('\n')}\n`;
    }
    case 'brackets':
      return `${'['.repeat(depth)}x${']'.repeat(depth)}`;
    case 'link-brackets':
      return `${'['.repeat(depth)}x](/blog/)`;
    case 'emphasis':
      return `${'*'.repeat(depth)}x${'*'.repeat(depth)}`;
    case 'html':
      return `\n\n${'<div>'.repeat(depth)}x${'</div>'.repeat(depth)}\n`;
    case 'directive':
      return '::figure['.repeat(depth);
    case 'yaml-flow':
      return `deep: ${'['.repeat(depth)}${']'.repeat(depth)}\n`;
  }
}

function aligned(text: string, offset: number): number {
  const at = Math.min(Math.max(offset, 0), text.length);
  const code = text.charCodeAt(at - 1);
  return at > 0 && at < text.length && code >= 0xd800 && code <= 0xdbff ? at + 1 : at;
}

function getAt(value: unknown, at: JsonPath): unknown {
  let v = value as Record<string | number, unknown>;
  for (const k of at) v = v?.[k] as Record<string | number, unknown>;
  return v;
}

function define(target: object, key: string | number, value: unknown): void {
  // defineProperty, so that "__proto__" is an own key as JSON.parse makes it, not the prototype.
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The JSON text with the value at `at` replaced (or, for `replace` undefined, its key deleted). */
function editJson(
  text: string,
  at: JsonPath,
  edit: (parent: Record<string | number, unknown> | undefined, key: string | number | undefined) => unknown,
): string {
  const data = JSON.parse(text) as unknown;
  if (at.length === 0) return `${JSON.stringify(edit(undefined, undefined), null, 2)}\n`;
  const parent = getAt(data, at.slice(0, -1)) as Record<string | number, unknown>;
  edit(parent, at[at.length - 1]);
  return `${JSON.stringify(data, null, 2)}\n`;
}

function nestedValue(shape: 'array' | 'object', depth: number): string {
  if (shape === 'array') return '['.repeat(depth) + ']'.repeat(depth);
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** The paths below `content/` that a damage creates, changes or removes (the first new folder for a new file). */
export async function touchedPaths(root: string, damage: Damage): Promise<string[]> {
  const firstNew = async (file: string): Promise<string> => {
    const parts = file.split('/');
    for (let i = 1; i <= parts.length; i++) {
      const prefix = parts.slice(0, i).join('/');
      try {
        await lstat(path.join(root, prefix));
      } catch {
        return prefix;
      }
    }
    return file;
  };
  if (damage.kind === 'rename') return [damage.file, await firstNew(damage.to)];
  if (damage.kind === 'add-file' || (damage.kind === 'symlink' && !damage.replaces))
    return [await firstNew(damage.file)];
  return [damage.file];
}

/** Carries out one damage in the site folder `root` (holding content/). Returns the paths it touched. */
export async function applyDamage(root: string, damage: Damage): Promise<string[]> {
  const touched = await touchedPaths(root, damage);
  const absolute = path.join(root, damage.file);
  const readText = async () => (await readFile(absolute)).toString('utf8');
  switch (damage.kind) {
    case 'truncate': {
      const buffer = await readFile(absolute);
      await writeFile(absolute, buffer.subarray(0, damage.offset));
      break;
    }
    case 'delete': {
      const text = await readText();
      const at = aligned(text, damage.offset);
      await writeFile(absolute, text.slice(0, at) + text.slice(aligned(text, at + damage.length)));
      break;
    }
    case 'insert': {
      const text = await readText();
      const at = aligned(text, damage.offset);
      await writeFile(absolute, text.slice(0, at) + damage.text + text.slice(at));
      break;
    }
    case 'nest': {
      const text = await readText();
      const at = aligned(text, damage.offset);
      await writeFile(absolute, text.slice(0, at) + nestingText(damage.pattern, damage.depth) + text.slice(at));
      break;
    }
    case 'json-nest': {
      // The deep value is written as text: JSON.stringify of a value this deep would overflow the stack itself.
      const marker = '@@fuzz-nest@@';
      const text = editJson(await readText(), damage.path, (parent, key) => {
        if (parent && key !== undefined) parent[key] = marker;
        return marker;
      });
      await writeFile(absolute, text.replace(JSON.stringify(marker), nestedValue(damage.shape, damage.depth)));
      break;
    }
    case 'json-type':
      await writeFile(
        absolute,
        editJson(await readText(), damage.path, (parent, key) => {
          if (parent && key !== undefined) define(parent, key, damage.value);
          return damage.value;
        }),
      );
      break;
    case 'json-delete-key':
      await writeFile(
        absolute,
        editJson(await readText(), damage.path, (parent, key) => {
          if (parent && key !== undefined) delete parent[key];
          return undefined;
        }),
      );
      break;
    case 'json-add-key': {
      const data = JSON.parse(await readText()) as unknown;
      define(getAt(data, damage.path) as object, damage.key, damage.value);
      await writeFile(absolute, `${JSON.stringify(data, null, 2)}\n`);
      break;
    }
    case 'bytes': {
      const buffer = await readFile(absolute);
      const bad = Buffer.from(damage.hex.split(' ').map((h) => parseInt(h, 16)));
      await writeFile(
        absolute,
        Buffer.concat([buffer.subarray(0, damage.offset), bad, buffer.subarray(damage.offset)]),
      );
      break;
    }
    case 'empty':
      await writeFile(absolute, '');
      break;
    case 'huge': {
      const size = damage.megabytes * 1024 * 1024;
      const buffer = await readFile(absolute);
      if (damage.fill === 'repeat') {
        const body =
          kindOf(damage.file) === 'article'
            ? Buffer.from(buffer.toString('utf8').replace(/^---[\s\S]*?\n---\n/, ''))
            : buffer;
        // An article of front matter only (content/blog/tech/orm.en.md) has no body to repeat:
        // its whole text is repeated instead, or the file would be written back unchanged.
        const unit = body.length > 0 ? body : buffer;
        const copies = Math.ceil(size / Math.max(1, unit.length));
        await writeFile(absolute, Buffer.concat([buffer, ...Array.from({ length: copies }, () => unit)]));
      } else if (damage.fill === 'whitespace') {
        await writeFile(absolute, Buffer.concat([buffer, Buffer.alloc(size, '\n')]));
      } else if (damage.fill === 'long-line') {
        await writeFile(absolute, Buffer.concat([buffer, Buffer.from(`\n\n${'word '.repeat(Math.ceil(size / 5))}\n`)]));
      } else {
        // long-string: the first string value of a JSON file becomes several megabytes long.
        const text = buffer.toString('utf8');
        await writeFile(
          absolute,
          text.replace(
            /("(?:[^"\\]|\\.)*"\s*:\s*)"(?:[^"\\]|\\.)*"/,
            (_, key: string) => `${key}"${'x'.repeat(size)}"`,
          ),
        );
      }
      break;
    }
    case 'folder':
      await rm(absolute, { force: true });
      await mkdir(absolute);
      break;
    case 'symlink': {
      await mkdir(path.dirname(absolute), { recursive: true });
      if (damage.replaces) await rm(absolute, { force: true });
      const target = {
        dangling: 'no-such-file.md',
        folder: '.',
        'dev-null': '/dev/null',
        self: path.basename(absolute),
        ancestor: '..',
      }[damage.target];
      await symlink(target, absolute);
      break;
    }
    case 'unreadable':
      await chmod(absolute, 0o000);
      break;
    case 'add-file':
      await mkdir(path.dirname(absolute), { recursive: true });
      await cp(path.join(root, damage.copyOf), absolute);
      break;
    case 'remove':
      await rm(absolute, { force: true });
      break;
    case 'rename':
      await mkdir(path.dirname(path.join(root, damage.to)), { recursive: true });
      await rename(absolute, path.join(root, damage.to));
      break;
    case 'bom':
      await writeFile(absolute, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), await readFile(absolute)]));
      break;
    case 'crlf':
      await writeFile(absolute, (await readText()).replace(/\r?\n/g, '\r\n'));
      break;
  }
  return touched;
}

/** Puts the touched paths back as they are in `pristine` (a folder holding an untouched content/). */
export async function restoreDamage(root: string, pristine: string, touched: readonly string[]): Promise<void> {
  for (const relative of touched) {
    const target = path.join(root, relative);
    await rm(target, { recursive: true, force: true });
    const source = path.join(pristine, relative);
    let exists = true;
    try {
      await lstat(source);
    } catch {
      exists = false;
    }
    if (exists) await cp(source, target, { recursive: true, preserveTimestamps: true });
  }
}

// ---------------------------------------------------------------------------------------------
// What the check must say

export interface Expectation {
  /**
   * error: exit 1 and an error naming the file; diagnostic: at least one diagnostic (error or
   * warning) naming it; any: exit 0 is fine (the damage may be harmless), but an exit 1 must
   * come with an error, and some diagnostic must name the file.
   */
  report: 'error' | 'diagnostic' | 'any';
  /** Why that level (for the report). */
  because: string;
  /**
   * A diagnostic "names" the damage when its `file` is one of `files`, or its message contains
   * one of `mentions` (the page path or media URL of the file, for a damage whose errors are
   * reported in the files that refer to it: a removed article, a renamed category).
   */
  files: string[];
  mentions: string[];
}

/** Deeper than this, nesting must be reported (whatever limit the checker chooses, this is over it). */
export const SURELY_TOO_DEEP = 10_000;
/** Bigger than this, a content file must be reported. */
export const SURELY_TOO_BIG = 2 * 1024 * 1024;

/** Page paths, media URLs and category names by which other files refer to `file`. */
export function mentionsOf(file: string): string[] {
  const out: string[] = [];
  const article = /^content\/blog\/([^/]+)\/([^/.]+)\.[^/]*$/.exec(file);
  if (article) out.push(`/blog/${article[1]}/${article[2]}`);
  const category = /^content\/categories\/([^/]+)\.json$/.exec(file);
  if (category) out.push(`/blog/${category[1]}`, `content/categories/${category[1]}.json`, `"${category[1]}"`);
  const page = /^content\/pages\/([^/]+)\.json$/.exec(file);
  if (page) out.push(`/${page[1]}`);
  if (file.startsWith('content/media/')) out.push(`/media/${file.slice('content/media/'.length)}`);
  return out;
}

function jsonDepth(value: unknown): number {
  // Iterative: the values measured here may be 50,000 levels deep.
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop() as [unknown, number];
    if (v && typeof v === 'object') {
      max = Math.max(max, d + 1);
      for (const child of Object.values(v)) stack.push([child, d + 1]);
    }
  }
  return max;
}

function parsesAsJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

const CONTROL = /[\u0000-\u0008\u000b\u000e-\u001f\u007f]/;

/** True when `bytes` is not valid UTF-8. */
function invalidUtf8(bytes: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return false;
  } catch {
    return true;
  }
}

/**
 * What `site check` must say about a damage, judged from the description and, for damage to a
 * file's text, from the damaged file itself (`after`: its bytes once damaged, when it is still a
 * regular file; `before`: the pristine bytes).
 *
 * Which file must be named:
 * - damage to a file's text or type (truncate, delete, insert, nest, json-*, bytes, empty, huge,
 *   bom, crlf, unreadable, folder, a symlink in its place): that file;
 * - a file added (add-file, a new symlink): the new path; for a valid article name that differs
 *   only in case from an existing article, ROUTE001 may name either, so the existing page's
 *   path in a message counts too;
 * - a file removed or renamed, or a media file replaced by a folder: the file itself, or a diagnostic whose
 *   message mentions it: its path, its page path (/blog/<category>/<Slug>, /<page>), its media
 *   URL (/media/...), or for a category its key ("tech", /blog/tech), since the errors of a
 *   removed file are in the files that refer to it (LINK001 in an article, CAT001 on the
 *   category's articles, ASSET001 where an image was used);
 * - rename: the old or the new path, or either's page path / URL.
 *
 * Must be reported (error): a JSON file that JSON.parse rejects; an empty content file; a JSON
 * value replaced by a value of another JSON type, or by a deep array/object; a removed site-wide
 * JSON file; a folder where a JSON file is; a .md file under content/blog not at
 * <category>/<Slug>.<en|pt>.md.
 * Must be reported (error or warning): a content file over 2 MB (the translations lock, which
 * grows with the site: over its own limit, 64 MB), not valid UTF-8, or holding a
 * C0 control character other than tab, LF, CR (or DEL); JSON nested deeper than 10,000 levels;
 * 10,000+ blockquotes at the end of an article; a symbolic link (dangling, to a folder, to
 * /dev/null, to itself) where a content file is or under an article's name; a folder under an
 * article's name (content/blog/tech/Git.en.md/: the edition is gone as if removed, but unlike a
 * removal it is surely a mistake); a javascript:, data:, vbscript: or file: address in a field
 * that held an address, or as a link appended to an article (error); an unreadable
 * content file, unless the tests run as root (chmod 000 does not stop root).
 * Anything else may pass (exit 0): an inserted `#` may just make a heading.
 */
export function expectationOf(damage: Damage, after: Buffer | undefined, before: Buffer | undefined): Expectation {
  const kind = kindOf(damage.file);
  const content = kind === 'json' || kind === 'article';
  const files = [damage.file];
  const mentions = [damage.file, ...mentionsOf(damage.file)];
  const any = (because: string): Expectation => ({ report: 'any', because, files, mentions });
  const must = (report: 'error' | 'diagnostic', because: string): Expectation => ({ report, because, files, mentions });

  // Whatever the kind: what a content file now holds that the owner must hear about.
  if (content && after) {
    const text = after.toString('utf8');
    const parsed = kind === 'json' ? parsesAsJson(text.replace(/^\uFEFF/, '')) : undefined;
    if (parsed && !parsed.ok) return must('error', 'a JSON file that is not valid JSON');
    if (after.length > SURELY_TOO_BIG && damage.file !== LOCK_FILE)
      return must('diagnostic', `a content file over ${SURELY_TOO_BIG / 1024 / 1024} MB`);
    if (after.length > LOCK_LIMIT)
      return must('diagnostic', `the translations lock over ${LOCK_LIMIT / 1024 / 1024} MB`);
    if (invalidUtf8(after)) return must('diagnostic', 'a content file that is not valid UTF-8');
    if (CONTROL.test(text)) return must('diagnostic', 'a content file holding a control character');
    if (parsed?.ok && jsonDepth(parsed.value) > SURELY_TOO_DEEP)
      return must('diagnostic', `JSON nested more than ${SURELY_TOO_DEEP} levels`);
  }
  switch (damage.kind) {
    case 'nest':
      // At the end of an article, blockquotes cannot be inside a code fence: they do nest.
      if (
        kind === 'article' &&
        damage.pattern === 'blockquote' &&
        damage.depth > SURELY_TOO_DEEP &&
        after &&
        damage.offset >= after.toString('utf8').length - nestingText('blockquote', damage.depth).length
      )
        return must('diagnostic', `markdown nested more than ${SURELY_TOO_DEEP} levels`);
      return any('nesting that may be harmless where it landed');
    case 'json-nest':
      return must('error', 'a JSON value replaced by a deep array or object');
    case 'json-type': {
      const old = before ? jsonValueAt(before.toString('utf8'), damage.path) : undefined;
      if (jsonType(old) !== jsonType(damage.value))
        return must('error', `a JSON ${jsonType(old)} replaced by a value of type ${jsonType(damage.value)}`);
      // A field holding an address (https://..., /media/..., /blog/...) given a forbidden scheme.
      if (
        typeof old === 'string' &&
        /^(?:https?:\/\/|\/)/.test(old) &&
        (UNSAFE_URLS as readonly unknown[]).includes(damage.value)
      )
        return must('error', 'an address field given a javascript:, data:, vbscript: or file: URL');
      return any('a JSON value replaced by another of the same type');
    }
    case 'empty':
      return content ? must('error', 'an empty content file') : any('an empty media file');
    case 'folder':
      if (kind === 'json') return must('error', 'a folder where a JSON file must be');
      // As a symbolic link to a folder under an article's name must be: the edition is gone.
      if (kind === 'article') return must('diagnostic', "a folder under an article file's name");
      return any('a folder where a media file was (it is as if removed)');
    case 'symlink':
      // Where a content file is, or under a content file's name: the file is gone or unreadable.
      if (content || (damage.file.startsWith('content/blog/') && damage.file.endsWith('.md')))
        return must('diagnostic', `a symbolic link (${damage.target}) where a content file is`);
      if (damage.target === 'ancestor')
        return any("a link to a parent folder, under a name that is not a content file's");
      return any('a symbolic link among media files');
    case 'unreadable':
      if (process.getuid?.() === 0)
        return any('chmod 000 does not stop root from reading the file: nothing to report when the tests run as root');
      return content ? must('diagnostic', 'a content file that cannot be read') : any('an unreadable media file');
    case 'add-file': {
      const more: Expectation = {
        report: 'any',
        because: 'a new file with a valid article name',
        files: [damage.file],
        mentions: [damage.file, ...mentionsOf(damage.file)],
      };
      // A name differing only in case from an existing article's: ROUTE001 may name either.
      const m = /^content\/blog\/([^/]+)\/([^/.]+)\./.exec(damage.file);
      if (m) more.mentions.push(`/blog/${m[1]}/${m[2]}`.toLowerCase());
      if (VALID_ARTICLE.test(damage.file)) return more;
      if (damage.file.endsWith('.md') && damage.file.startsWith('content/blog/'))
        return {
          ...more,
          report: 'error',
          because: 'a .md file under content/blog that is not at <category>/<Slug>.<en|pt>.md',
        };
      return { ...more, because: 'a file under content/blog that is not markdown' };
    }
    case 'remove':
      // With no lock, nothing was brought in line yet: each pair of editions is reported as never
      // marked as saying the same (TRANS002, on the editions), as in a site that never had one.
      if (damage.file === LOCK_FILE)
        return any('the translations lock removed: a site with nothing brought in line yet');
      if (kind === 'json' && !damage.file.startsWith('content/categories/'))
        return must('error', 'a site-wide JSON file removed');
      return any('a file removed (its errors are in the files that refer to it)');
    case 'rename':
      return {
        report: 'any',
        because: 'a file renamed',
        files: [damage.file, damage.to],
        mentions: [damage.file, damage.to, ...mentionsOf(damage.file), ...mentionsOf(damage.to)],
      };
    case 'huge':
      // The lock grows with the site (some 500 bytes an article): its limit is its own, far above a content file's.
      if (damage.file === LOCK_FILE)
        return any(`the translations lock grown by megabytes, within its own limit (${LOCK_LIMIT / 1024 / 1024} MB)`);
      return content ? must('diagnostic', 'a content file of several MB') : any('a media file of several MB');
    case 'bytes':
      return content
        ? must('diagnostic', 'bytes that are not valid UTF-8, or control characters')
        : any('bad bytes in a media file');
    case 'insert':
      if (
        kind === 'article' &&
        (UNSAFE_LINKS as readonly string[]).includes(damage.text) &&
        before &&
        damage.offset >= before.toString('utf8').length
      )
        return must(
          'error',
          'a link or image of a javascript:, data:, vbscript: or file: URL at the end of an article',
        );
      return any('a change that may be harmless');
    default:
      return any('a change that may be harmless');
  }
}

/** For json-type: the JSON type of a value ("array", "object", "null", "string", ...). */
export function jsonType(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

/** The value at a path of a JSON file's text, or undefined. */
export function jsonValueAt(text: string, at: JsonPath): unknown {
  return getAt(JSON.parse(text), at);
}
