import type { Image, Paragraph, PhrasingContent, Root } from 'mdast';
import type { ContainerDirective, LeafDirective, TextDirective } from 'mdast-util-directive';
import { toString as plainText } from 'mdast-util-to-string';
import { SKIP, visit } from 'unist-util-visit';

import type { MarkdownProblem } from './compile';

type FigureProblem = MarkdownProblem & { code: 'MD001' };

/**
 * remark plugin: `::figure[Caption]{src="/media/..." alt="..." width="80"}` becomes
 * `<figure><img><figcaption>Caption</figcaption></figure>`. The caption is the figure's
 * description in the edition's language; `alt` defaults to the caption's text.
 * Unknown text directives (":word" in prose) are turned back into the text they were.
 */
export function remarkFigure() {
  return (tree: Root, file: { data: Record<string, unknown> }) => {
    const problems = file.data.figureProblems as FigureProblem[];
    visit(tree, (node, index, parent) => {
      if (node.type === 'leafDirective' && node.name === 'figure') {
        toFigure(node, problems);
        return SKIP;
      }
      if (
        (node.type === 'textDirective' || node.type === 'leafDirective' || node.type === 'containerDirective') &&
        parent &&
        index !== undefined
      ) {
        const directive = node as TextDirective | LeafDirective | ContainerDirective;
        if (directive.type !== 'textDirective') {
          problems.push({
            code: 'MD001',
            args: { kind: 'directive', name: directive.name },
            line: directive.position?.start.line ?? 0,
            column: directive.position?.start.column ?? 0,
          });
        }
        const text = { type: 'text' as const, value: `:${directive.name}` };
        const children = directive.type === 'textDirective' ? (directive.children as PhrasingContent[]) : [];
        parent.children.splice(index, 1, text, ...(children as never[]));
        return index + 1 + children.length;
      }
      return undefined;
    });
  };
}

function toFigure(node: LeafDirective, problems: FigureProblem[]): void {
  const attributes = node.attributes ?? {};
  const src = attributes.src ?? '';
  const caption = plainText(node).trim();
  const where = { line: node.position?.start.line ?? 0, column: node.position?.start.column ?? 0 };
  if (!src) problems.push({ code: 'MD001', args: { kind: 'noSource' }, ...where });
  if (!caption) problems.push({ code: 'MD001', args: { kind: 'noCaption' }, ...where });
  const width = attributes.width ? Number(attributes.width) : undefined;
  if (width !== undefined && !(Number.isInteger(width) && width >= 1 && width <= 100)) {
    problems.push({ code: 'MD001', args: { kind: 'width', width: String(attributes.width) }, ...where });
  }
  const image: Image = { type: 'image', url: src, alt: attributes.alt ?? caption, position: node.position };
  const figcaption: Paragraph = { type: 'paragraph', children: node.children, data: { hName: 'figcaption' } };
  node.data ??= {};
  const data = node.data;
  data.hName = 'figure';
  data.hProperties = {
    className: ['figure'],
    ...(width !== undefined && width >= 1 && width <= 100 ? { style: `width:${width}%` } : {}),
  };
  (node as unknown as { children: unknown[] }).children = [image, figcaption];
}
