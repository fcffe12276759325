import { findNodeAtLocation, parseTree, type Node as JsonNode } from 'jsonc-parser';

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
  const root = treeOf(text);
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
 * The syntax trees of the last JSON texts asked about: the checker places many links in the same
 * few content files, and parsing a file again for each of them cost more than all the rest.
 */
const TREES = new Map<string, JsonNode | undefined>();
const TREES_KEPT = 64;

function treeOf(text: string): JsonNode | undefined {
  if (TREES.has(text)) return TREES.get(text);
  if (TREES.size >= TREES_KEPT) TREES.clear();
  const tree = parseTree(text);
  TREES.set(text, tree);
  return tree;
}

/**
 * The position of a front-matter key in a markdown file: string segments are keys, numeric
 * segments count the "- " items of a list below the previous key. Line numbers count the
 * opening "---". A path that cannot be followed points at the deepest key found.
 */
export function frontMatterPosition(source: string, path: readonly PropertyKey[]): Position {
  const lines = source.split('\n');
  const end = lines.indexOf('---', 1);
  const last = end === -1 ? lines.length : end;
  let from = 1;
  let indent = -1;
  let found: Position = { line: 1, column: 1 };
  for (const segment of path) {
    if (typeof segment === 'number') {
      let seen = -1;
      let i = from;
      for (; i < last; i++) {
        const match = /^(\s*)-(\s|$)/.exec(lines[i] ?? '');
        if (match && (match[1]?.length ?? 0) >= Math.max(indent, 0)) seen++;
        else if (/^\S/.test(lines[i] ?? '') && indent >= 0) break;
        if (seen === segment) break;
      }
      if (seen !== segment || i >= last) return found;
      const dash = (lines[i] ?? '').indexOf('-');
      found = { line: i + 1, column: dash + 1 };
      from = i;
      indent = dash;
      continue;
    }
    if (typeof segment !== 'string') continue;
    const pattern = new RegExp(`^(\\s*(?:-\\s+)?)${escapeRegExp(segment)}\\s*:`);
    let matched = false;
    for (let i = from; i < last; i++) {
      const match = pattern.exec(lines[i] ?? '');
      if (match) {
        found = { line: i + 1, column: (match[1]?.length ?? 0) + 1 };
        from = i + 1;
        indent = match[1]?.length ?? 0;
        matched = true;
        break;
      }
    }
    if (!matched) return found;
  }
  return found;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
