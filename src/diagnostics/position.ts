import { createRequire } from 'node:module';
import type { Node as JsonNode } from 'jsonc-parser';
import type * as Yaml from 'yaml';
import type { Document, LineCounter } from 'yaml';
import { agrees } from '../build/shortcuts';
import { jsoncParser } from './jsonc';

/**
 * The YAML parser, loaded on the first position asked of a front matter: a command that reports
 * none (a build with nothing wrong) never loads its many modules.
 */
let yamlModule: typeof Yaml | undefined;
function yamlParser(): typeof Yaml {
  yamlModule ??= createRequire(import.meta.url)('yaml') as typeof Yaml;
  return yamlModule;
}

/** A 1-based line and column in a text. */
export interface Position {
  line: number;
  column: number;
}

/** Converts a 0-based character offset into a 1-based line and column. */
export function offsetToPosition(text: string, offset: number): Position {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * The position of the value at `path` in a JSON text: the key of the deepest property that
 * exists along the path, so a missing field points at its parent object.
 */
export function jsonPathPosition(text: string, path: readonly PropertyKey[]): Position {
  // Parsed again on every call, on purpose: only a diagnostic is placed, and a content file is
  // small and parses quickly, so even a check with many diagnostics spends little here. A cache
  // would be state that outlives the check that filled it.
  const { parseTree, findNodeAtLocation } = jsoncParser();
  const root = parseTree(text);
  if (!root) return { line: 1, column: 1 };
  const segments = path.filter((p): p is string | number => typeof p !== 'symbol');
  for (let length = segments.length; length >= 0; length--) {
    const node: JsonNode | undefined = findNodeAtLocation(root, segments.slice(0, length));
    if (!node) continue;
    // A property's value: point at its key, which is where the reader looks.
    const anchor = node.parent?.type === 'property' ? node.parent : node;
    return offsetToPosition(text, anchor.offset);
  }
  return { line: 1, column: 1 };
}

/**
 * The position of a front-matter key in a markdown file: string segments are keys, numeric
 * segments items of a list. The front matter is parsed by `yaml`, so block and flow style,
 * quoted keys and comments all place alike. A key points at its name, a list item at its dash
 * (or its first character in a flow list). Line numbers count the opening "---". A path that
 * cannot be followed points at the deepest key found.
 */
export function frontMatterPosition(source: string, path: readonly PropertyKey[]): Position {
  const key = path.length === 1 && typeof path[0] === 'string' ? path[0] : undefined;
  const line = key === undefined ? undefined : topLevelKeyLine(source, key);
  if (line !== undefined) {
    const found = { line, column: 1 };
    agrees(
      `the place of "${key}" in a front matter`,
      found,
      () => parsedPosition(source, path),
      (a, b) => a.line === b.line && a.column === b.column,
    );
    return found;
  }
  return parsedPosition(source, path);
}

/** A line of a front matter that starts with a key and its colon: a plain key of common characters, or a quoted one. */
const KEY_LINE = /^(?:[A-Za-z0-9_][\w .-]*?|"[^"\n]*"|'[^'\n]*')[ \t]*:(?:[ \t]|\r?$)/;
/** A line of a front matter that starts nothing at the top level: empty, indented, or a comment. */
const INSIDE_LINE = /^(?:[ \t#]|\r?$)/;

/**
 * The line of a top-level key of a front matter written as the owner writes one, each line at the
 * left margin a key (or a comment): then a line that starts with the key and a colon is where the
 * parser places it (the first, if it is written twice), whatever came before it, since such a line
 * ends any block scalar, quoted value or flow list left open above it. Undefined for any other
 * front matter (a line at the margin that is not a key may carry a plain value over to the next),
 * or a key not found that way: then the parser is asked. Most diagnostics placed in a front matter
 * are at a top-level key (TRANS001 at the title), and this spares loading the YAML parser for them.
 */
function topLevelKeyLine(source: string, key: string): number | undefined {
  const bounds = frontMatterBounds(source);
  if (!bounds) return undefined;
  const lines = bounds.yaml.split('\n');
  let found: number | undefined;
  let keys = 0;
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i] as string;
    if (INSIDE_LINE.test(text)) {
      // Something indented before the first key: the top level is not at the margin.
      if (keys === 0 && !/^[ \t]*(?:#|\r?$)/.test(text)) return undefined;
      continue;
    }
    const written = KEY_LINE.exec(text);
    if (!written) return undefined;
    keys++;
    const name = written[0].replace(/[ \t]*:[ \t\r]*$/, '');
    if (found === undefined && (name === key || name === `"${key}"` || name === `'${key}'`)) found = i + 2;
  }
  return found;
}

function parsedPosition(source: string, path: readonly PropertyKey[]): Position {
  // Parsed on every call, like jsonPathPosition: a front matter is short and parses quickly.
  const front = frontMatterOf(source);
  if (!front) return { line: 1, column: 1 };
  const { yaml, document, lines } = front;
  const at = (offset: number): Position => {
    const { line, col } = lines.linePos(offset);
    // Line 1 of the file is the opening "---".
    return { line: line + 1, column: col };
  };
  let node: unknown = document.contents;
  let found: Position = { line: 1, column: 1 };
  for (const segment of path) {
    if (typeof segment === 'symbol') continue;
    if (typeof segment === 'number' && yamlParser().isSeq(node)) {
      const item: unknown = node.items[segment];
      const start = yamlParser().isNode(item) ? item.range?.[0] : undefined;
      if (start === undefined) return found;
      found = at(dashBefore(yaml, start));
      node = item;
      continue;
    }
    if (!yamlParser().isMap(node)) return found;
    const pair = node.items.find((p) => yamlParser().isScalar(p.key) && String(p.key.value) === String(segment));
    const start = pair && yamlParser().isScalar(pair.key) ? pair.key.range?.[0] : undefined;
    if (!pair || start === undefined) return found;
    found = at(start);
    node = pair.value;
  }
  return found;
}

/** The offset of a block list item's "-" before its value at `offset`, or `offset` itself (flow lists). */
function dashBefore(yaml: string, offset: number): number {
  let i = offset - 1;
  while (i >= 0 && (yaml[i] === ' ' || yaml[i] === '\t')) i--;
  return yaml[i] === '-' ? i : offset;
}

interface FrontMatter {
  /** The text between the opening and closing "---" lines. */
  yaml: string;
  document: Document.Parsed;
  lines: LineCounter;
}

/** The text between a markdown file's opening and closing "---" lines; undefined without a front matter. */
function frontMatterBounds(source: string): { yaml: string } | undefined {
  const opening = /^---[ \t]*\r?\n/.exec(source);
  if (!opening) return undefined;
  const rest = source.slice(opening[0].length);
  const closing = /^---[ \t]*\r?$/m.exec(rest);
  return { yaml: closing ? rest.slice(0, closing.index) : rest };
}

/** The front matter of a markdown file, parsed with its line counter; undefined without one. */
function frontMatterOf(source: string): FrontMatter | undefined {
  const yaml = frontMatterBounds(source)?.yaml;
  if (yaml === undefined) return undefined;
  const lines = new (yamlParser().LineCounter)();
  return { yaml, document: yamlParser().parseDocument(yaml, { lineCounter: lines }), lines };
}
