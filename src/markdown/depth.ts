import type { Node } from 'unist';
import type { TooDeepArgs } from '../diagnostics/codes';

/** Where a text or tree nests deeper than allowed, and how. */
export interface TooDeep {
  /** 1-based, relative to the markdown body. */
  line: number;
  column: number;
  args: TooDeepArgs;
}

/**
 * Emphasis and link delimiters (`*`, `_`, `~`, `[`, `]`) in one paragraph, and in a whole text, the
 * parser pairs up in time that grows with the square of their number, so tens of thousands of them
 * hold a build for seconds or minutes. The limits stand well above the few hundred a long real
 * article has, and below the counts that stall a build.
 */
export const MAX_DELIMITERS = { paragraph: 1_000, text: 10_000 };

/**
 * A look at the text before it is parsed, for the shapes that make the parser itself slow or its
 * tree too deep to walk: a run of quote markers (">>>>"), an indentation only lists nested far
 * deeper than `limit` produce, a run of emphasis delimiters ("****…") inside a line, and more
 * delimiters than MAX_DELIMITERS in a paragraph or the text. Fenced code is skipped.
 */
export function markdownDepthBeyond(markdown: string, limit: number): TooDeep | undefined {
  let fence: string | undefined;
  let paragraph = { line: 0, delimiters: 0 };
  let total = 0;
  const longRun = new RegExp(`([*_~[\\]])\\1{${limit},}`);
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const marker = /^[\s>]*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      continue;
    }
    if (marker) {
      fence = marker;
      continue;
    }
    const prefix = /^[ \t>]*/.exec(line)?.[0] ?? '';
    const quotes = prefix.split('>').length - 1;
    if (quotes > limit) return { line: i + 1, column: 1, args: { kind: 'quotes', depth: quotes, limit } };
    const indent = prefix.replace(/\t/g, '    ').length;
    if (indent > limit * 4) return { line: i + 1, column: 1, args: { kind: 'indent', columns: indent, limit } };
    const run = longRun.exec(line);
    // A line of delimiters alone is a thematic break ("*****"), not emphasis.
    if (run && !/^[\s>]*([*_-])(\s*\1)*\s*$/.test(line)) {
      return {
        line: i + 1,
        column: run.index + 1,
        args: { kind: 'run', length: run[0].length, delimiter: run[1] ?? '', limit },
      };
    }
    if (line.trim() === '') {
      paragraph = { line: 0, delimiters: 0 };
      continue;
    }
    if (paragraph.line === 0) paragraph.line = i + 1;
    const delimiters = line.match(DELIMITER)?.length ?? 0;
    paragraph.delimiters += delimiters;
    total += delimiters;
    if (paragraph.delimiters > MAX_DELIMITERS.paragraph) {
      return { line: paragraph.line, column: 1, args: { kind: 'paragraph', limit: MAX_DELIMITERS.paragraph } };
    }
    if (total > MAX_DELIMITERS.text) {
      return { line: i + 1, column: 1, args: { kind: 'text', limit: MAX_DELIMITERS.text } };
    }
  }
  return undefined;
}

const DELIMITER = /[*_~[\]]/g;

/** The first node of a tree deeper than `limit`, found without recursion (the walk after it recurses). */
export function treeDepthBeyond(tree: Node, limit: number): TooDeep | undefined {
  const stack: [Node, number][] = [[tree, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [Node, number];
    if (depth > limit) {
      const at = node.position?.start;
      return { line: at?.line ?? 0, column: at?.column ?? 0, args: { kind: 'tree', limit } };
    }
    const children = (node as { children?: Node[] }).children;
    // Pushed last to first, so the first node too deep in the text is the one found.
    if (children) for (let i = children.length - 1; i >= 0; i--) stack.push([children[i] as Node, depth + 1]);
  }
  return undefined;
}
