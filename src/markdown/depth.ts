import type { Node } from 'unist';

/** Where a text or tree nests deeper than allowed, and how. */
export interface TooDeep {
  /** 1-based, relative to the markdown body. */
  line: number;
  column: number;
  message: string;
}

/**
 * Emphasis and link delimiters (`*`, `_`, `~`, `[`, `]`) in one paragraph, and in a whole text, the
 * parser pairs up in time that grows with the square of their number: 40,000 in one paragraph
 * take it from 5 to 50 s, 1,000 take 10 to 60 ms. A long real article has a few hundred.
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
    if (quotes > limit) return { line: i + 1, column: 1, message: `quotes are nested ${quotes} levels deep here; the limit is ${limit}` };
    const indent = prefix.replace(/\t/g, '    ').length;
    if (indent > limit * 4) return { line: i + 1, column: 1, message: `the line is indented ${indent} columns, as lists nested over ${limit} levels deep would be` };
    const run = longRun.exec(line);
    // A line of delimiters alone is a thematic break ("*****"), not emphasis.
    if (run && !/^[\s>]*([*_-])(\s*\1)*\s*$/.test(line)) {
      return { line: i + 1, column: run.index + 1, message: `a run of ${run[0].length} "${run[1]}" would nest ${run[1] === '[' || run[1] === ']' ? 'brackets' : 'emphasis'} over ${limit} levels deep` };
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
      return { line: paragraph.line, column: 1, message: `this paragraph holds over ${MAX_DELIMITERS.paragraph.toLocaleString('en')} emphasis and link delimiters (*, _, ~, [, ]), too many to read in reasonable time` };
    }
    if (total > MAX_DELIMITERS.text) {
      return { line: i + 1, column: 1, message: `the text holds over ${MAX_DELIMITERS.text.toLocaleString('en')} emphasis and link delimiters (*, _, ~, [, ]) by this line, too many to read in reasonable time` };
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
      return { line: at?.line ?? 0, column: at?.column ?? 0, message: `lists, quotes and spans are nested too deep here (over ${limit} levels of the document tree)` };
    }
    const children = (node as { children?: Node[] }).children;
    // Pushed last to first, so the first node too deep in the text is the one found.
    if (children) for (let i = children.length - 1; i >= 0; i--) stack.push([children[i] as Node, depth + 1]);
  }
  return undefined;
}
