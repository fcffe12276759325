import type { Element, ElementContent, Root as HastRoot } from 'hast';

type Parent = HastRoot | Element;

import { toString as hastToString } from 'hast-util-to-string';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import http from 'highlight.js/lib/languages/http';
import powershell from 'highlight.js/lib/languages/powershell';
import { common, createLowlight } from 'lowlight';

/**
 * highlight.js's grammars, through lowlight (which gives a syntax tree rather than HTML): its
 * common set (bash, C#, JSON, Python, SQL, TypeScript, XML, YAML and some thirty more) and the
 * three the articles use beyond it. A regex grammar costs far less per block than a TextMate
 * grammar, and the markdown stage is the largest of a cold build.
 */
const lowlight = createLowlight({ ...common, dockerfile, http, powershell });

/** How a block's label names its language, for the tags written most; others show the tag itself. */
const NAMES: Record<string, string> = {
  bash: 'Bash',
  sh: 'Shell',
  shell: 'Shell',
  console: 'Console',
  http: 'HTTP',
  json: 'JSON',
  yaml: 'YAML',
  yml: 'YAML',
  ts: 'TypeScript',
  typescript: 'TypeScript',
  js: 'JavaScript',
  javascript: 'JavaScript',
  jsx: 'JSX',
  tsx: 'TSX',
  dockerfile: 'Dockerfile',
  docker: 'Dockerfile',
  python: 'Python',
  py: 'Python',
  csharp: 'C#',
  cs: 'C#',
  sql: 'SQL',
  xml: 'XML',
  html: 'HTML',
  powershell: 'PowerShell',
  ps1: 'PowerShell',
  css: 'CSS',
  diff: 'Diff',
  ini: 'INI',
  toml: 'TOML',
};

/** A fenced block whose language no grammar knows: shown plain, and reported (MD002). */
export interface UnknownLanguage {
  language: string;
  line: number;
  column: number;
}

/** A `pre` element where it stands, so that it can be replaced by its frame. */
export interface BlockAt {
  pre: Element;
  index: number;
  parent: Parent;
}

/**
 * Colours the tokens of each fenced code block with a language (found by the compiler's one walk
 * of the tree), and puts each such block in a frame with its language named (`.code-block`, and
 * `.code-block__bar` with the name in `data-lang`, where the page's script adds a copy button).
 * A block in a language no grammar knows keeps its plain text, and is reported.
 */
export function highlightCode(blocks: readonly BlockAt[], unknown: (block: UnknownLanguage) => void): void {
  for (const { pre, index, parent } of blocks) {
    const code = pre.children.find((child): child is Element => child.type === 'element' && child.tagName === 'code');
    const classes = Array.isArray(code?.properties.className) ? code.properties.className : [];
    const tag = classes.map(String).find((name) => name.startsWith('language-'));
    if (!code || !tag) continue;
    const language = tag.slice('language-'.length).toLowerCase();
    if (lowlight.registered(language)) {
      code.children = lowlight.highlight(language, hastToString(code)).children as ElementContent[];
      code.properties.className = [...classes, 'hljs'];
    } else {
      unknown({ language, line: pre.position?.start.line ?? 0, column: pre.position?.start.column ?? 0 });
    }
    // The name is drawn by the stylesheet from the attribute: no words of it in the search text.
    const bar: Element = {
      type: 'element',
      tagName: 'div',
      properties: { className: ['code-block__bar'], dataLang: NAMES[language] ?? language },
      children: [],
    };
    parent.children[index] = {
      type: 'element',
      tagName: 'div',
      properties: { className: ['code-block'] },
      children: [bar, pre],
    };
  }
}
