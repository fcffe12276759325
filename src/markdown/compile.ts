import { createHash } from 'node:crypto';
import type { Element, Root as HastRoot } from 'hast';
import { toString as hastToString } from 'hast-util-to-string';
import rehypeSlug from 'rehype-slug';
import rehypeStringify from 'rehype-stringify';
import remarkDirective from 'remark-directive';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { SKIP, visit } from 'unist-util-visit';
import { VFile } from 'vfile';
import type { Finding } from '../diagnostics/codes';
import { faultText } from '../diagnostics/failure';
import { MAX_DEPTH } from '../load/limits';
import type { Lang } from '../shared/lang';
import type { Picture } from '../shared/props';
import { isExternal } from '../shared/url';
import { markdownDepthBeyond, treeDepthBeyond } from './depth';
import { remarkFigure } from './figure';
import { gfmConstructsOf, remarkGfmFor } from './gfm';
import { type BlockAt, highlightCode } from './highlight';
import type { ImageSize } from './imageSize';
import { proseOf, type RegisterMark, registerMarks } from './register';
import { textOf } from './text';

/** A section heading of a compiled document: the target of anchors and index lists. */
export interface Heading {
  depth: number;
  id: string;
  text: string;
  /** 1-based, relative to the markdown body. */
  line: number;
  column: number;
}

/** A link or image reference as written in the markdown, for the checker. */
export interface Reference {
  kind: 'link' | 'image';
  /** The href or src as written, before localization. */
  href: string;
  /** The image's text alternative (images only). */
  alt?: string;
  /** The link's text (links only). */
  text?: string;
  line: number;
  column: number;
}

/**
 * Something in the markdown that could not be compiled as written, for the checker. MD001: a
 * malformed figure; MD002: a code block in a language no grammar colours; URL001: an address with a
 * scheme a page may not carry (left out of the HTML);
 * DEPTH001: nested too deep to compile; INTERNAL001: the compiler failed.
 */
export type MarkdownProblem = Finding<'MD001' | 'MD002' | 'URL001' | 'DEPTH001' | 'INTERNAL001'> & {
  /** 1-based, relative to the markdown body; 0 when unknown. */
  line: number;
  column: number;
};

export interface CompiledMarkdown {
  html: string;
  /** The words of the document without markup, for the search index. */
  text: string;
  /** How many words `text` holds: what the reading time shown with the article is worked out from. */
  words: number;
  /** A content hash of `html` and `text`: pages and indexes built from them use it in their cache keys. */
  hash: string;
  headings: Heading[];
  references: Reference[];
  /** Every id an element carries (headings and any other), for anchor checks. */
  ids: string[];
  /** A Portuguese text's marks of register in its prose (I18N004), by offset in the markdown; none in English. */
  register: RegisterMark[];
  /** With a DEPTH001 or INTERNAL001 problem, the rest is empty: the text was not compiled. */
  problems: MarkdownProblem[];
}

export interface CompileOptions {
  /** The language the text is written in. */
  lang: Lang;
  /** Maps an internal link ("/blog/tech/Git#x") to the URL of the edition in the page's language. */
  localizeHref: (href: string) => string;
  /** Maps a "/media/..." path to its published URL (the image CDN when configured). */
  mediaUrl: (path: string) => string;
  /** An image's intrinsic size, written as width and height so the page does not shift as it loads. */
  imageSize?: (src: string) => ImageSize | undefined;
  /** A raster image's published variants: the image is shown as a `<picture>` of them. */
  picture?: (src: string) => Picture | undefined;
}

/**
 * How wide an image of an article's body is shown, for `sizes`: the width of the article's
 * column (48rem less its padding; the viewport less the padding below that), or the share of it
 * a figure's `width` asks for. The browser picks from the `srcset` by it.
 */
export function bodyImageSizes(share = 1): string {
  if (share === 1) return '(min-width: 48rem) 45.5rem, calc(100vw - 2.5rem)';
  return `(min-width: 48rem) calc(45.5rem * ${share}), calc((100vw - 2.5rem) * ${share})`;
}

interface Collected {
  headings: Heading[];
  references: Reference[];
  ids: string[];
}

/**
 * The processor for the documents that may hold a given set of GFM's constructs: made on first
 * use, as building one costs more than compiling a short article. Per-document options and
 * findings travel in the file's data.
 */
const processors = new Map<number, ReturnType<typeof processorOf>>();

function processorOf(constructs: number) {
  return unified()
    .use(remarkParse)
    .use(remarkGfmFor(constructs))
    .use(remarkDirective)
    .use(remarkFigure)
    .use(remarkRehype)
    .use(rehypeSlug)
    .use(
      () => (tree: HastRoot, file) =>
        rewriteTree(
          tree,
          file.data.options as CompileOptions,
          file.data.collected as Collected,
          file.data.figureProblems as MarkdownProblem[],
        ),
    )
    .use(rehypeStringify)
    .freeze();
}

function processorFor(markdown: string): ReturnType<typeof processorOf> {
  const constructs = gfmConstructsOf(markdown);
  let processor = processors.get(constructs);
  if (!processor) {
    processor = processorOf(constructs);
    processors.set(constructs, processor);
  }
  return processor;
}

/**
 * Markdown to HTML: GFM, figures, heading ids (GitHub-style slugs), internal links pointed at
 * the page's language, external links opening in a new tab, images lazy with CDN URLs.
 * Raw HTML in markdown is not passed through.
 */
export function compileMarkdown(markdown: string, options: CompileOptions): CompiledMarkdown {
  const problems: MarkdownProblem[] = [];
  const collected: Collected = { headings: [], references: [], ids: [] };
  const failed = (problem: MarkdownProblem): CompiledMarkdown => ({
    html: '',
    text: '',
    words: 0,
    hash: contentHash('', ''),
    headings: [],
    references: [],
    ids: [],
    register: [],
    problems: [problem],
  });
  const deep = markdownDepthBeyond(markdown, MAX_DEPTH);
  if (deep) return failed({ code: 'DEPTH001', ...deep });
  let html: string;
  let text: string;
  try {
    const processor = processorFor(markdown);
    const file = new VFile({ value: markdown, data: { options, collected, figureProblems: problems } });
    // Parsing builds the tree without recursion; the transforms after it walk it recursively.
    const tree = processor.parse(file);
    const tooDeep = treeDepthBeyond(tree, MAX_DEPTH);
    if (tooDeep) return failed({ code: 'DEPTH001', ...tooDeep });
    const hast = processor.runSync(tree, file);
    html = processor.stringify(hast, file);
    text = textOf(hast);
  } catch (error) {
    // One text's failure is a diagnostic on its file; the other files are still compiled and checked.
    return failed({ code: 'INTERNAL001', args: { kind: 'markdown', fault: faultText(error) }, line: 0, column: 0 });
  }
  const register = options.lang === 'pt' ? registerMarks(proseOf(markdown)) : [];
  return {
    html,
    text,
    words: text ? text.split(' ').length : 0,
    hash: contentHash(html, text),
    ...collected,
    register,
    problems,
  };
}

function contentHash(html: string, text: string): string {
  return createHash('sha1').update(html).update('\0').update(text).digest('base64url');
}

/**
 * Whether a link or image address is one the page may carry: a site path, a fragment, or a URL
 * whose scheme its kind allows. Anything else (javascript:, data:, file:, a path starting "//",
 * which leaves the site) is reported by the checker (URL001) and never written into a page.
 */
export function allowedAddress(href: string, kind: Reference['kind']): boolean {
  if (href.startsWith('//') || href.startsWith('/\\')) return false;
  if (href.startsWith('/') || href.startsWith('#')) return true;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(href)?.[1]?.toLowerCase();
  if (scheme === undefined) return !/[\\:]/.test(href);
  return scheme === 'https' || scheme === 'http' || (kind === 'link' && (scheme === 'mailto' || scheme === 'tel'));
}

function rewriteTree(
  tree: HastRoot,
  options: CompileOptions,
  found: { headings: Heading[]; references: Reference[]; ids: string[] },
  problems: MarkdownProblem[],
): void {
  const refuse = (href: string, line: number, column: number) =>
    problems.push({ code: 'URL001', args: { kind: 'markdown', href }, line, column });
  // What is changed after the walk, where changing it during the walk would be walked again.
  const blocks: BlockAt[] = [];
  const sections: Element[] = [];
  visit(tree, 'element', (node: Element, index, parent) => {
    const line = node.position?.start.line ?? 0;
    const column = node.position?.start.column ?? 0;
    const id = node.properties.id;
    if (typeof id === 'string') found.ids.push(id);
    const depth = /^h([1-6])$/.exec(node.tagName)?.[1];
    if (depth && typeof id === 'string') {
      const text = hastToString(node).trim();
      found.headings.push({ depth: Number(depth), id, text, line, column });
      if (depth !== '1' && text !== '' && id !== '') sections.push(node);
    }
    if (node.tagName === 'a' && typeof node.properties.href === 'string') {
      const href = node.properties.href;
      found.references.push({ kind: 'link', href, text: hastToString(node).trim(), line, column });
      if (!allowedAddress(href, 'link')) {
        refuse(href, line, column);
        delete node.properties.href;
      } else if (isExternal(href)) {
        node.properties.target = '_blank';
        node.properties.rel = ['noopener', 'noreferrer'];
      } else if (href.startsWith('/media/')) {
        node.properties.href = options.mediaUrl(href);
      } else if (href.startsWith('/')) {
        node.properties.href = options.localizeHref(href);
      }
    }
    if (node.tagName === 'img' && typeof node.properties.src === 'string') {
      const src = node.properties.src;
      const alt = typeof node.properties.alt === 'string' ? node.properties.alt : '';
      found.references.push({ kind: 'image', href: src, alt, line, column });
      if (!allowedAddress(src, 'image')) {
        refuse(src, line, column);
        node.properties.src = '';
      }
      const size = options.imageSize?.(src);
      if (size) {
        node.properties.width = size.width;
        node.properties.height = size.height;
      }
      if (src.startsWith('/media/')) node.properties.src = options.mediaUrl(src);
      node.properties.loading = 'lazy';
      node.properties.decoding = 'async';
      const picture = src.startsWith('/media/') ? options.picture?.(src) : undefined;
      if (picture && parent && index !== undefined) {
        parent.children[index] = pictureElement(node, picture, bodyImageSizes(figureShare(parent)));
        return SKIP;
      }
    }
    if (node.tagName === 'table') {
      // Wide tables scroll inside their own box instead of widening the page on mobile.
      node.properties.className = ['table'];
      node.properties.tabIndex = 0;
    }
    if (node.tagName === 'pre') {
      // A code block that scrolls sideways must be reachable with the keyboard to scroll it.
      node.properties.tabIndex = 0;
      if (parent && index !== undefined) blocks.push({ pre: node, index, parent });
      return SKIP;
    }
  });
  highlightCode(blocks, ({ language, line, column }) =>
    problems.push({ code: 'MD002', args: { language }, line, column }),
  );
  for (const heading of sections) addSectionLink(heading);
}

/** An image of the body as a `<picture>` of its variants: AVIF and WebP first, the `<img>` with the fallback's. */
function pictureElement(img: Element, picture: Picture, sizes: string): Element {
  img.properties.src = picture.src;
  img.properties.srcSet = picture.srcset;
  img.properties.sizes = sizes;
  img.properties.width = picture.width;
  img.properties.height = picture.height;
  const sources: Element[] = picture.sources.map((source) => ({
    type: 'element',
    tagName: 'source',
    properties: { type: source.type, srcSet: source.srcset, sizes },
    children: [],
  }));
  return { type: 'element', tagName: 'picture', properties: {}, children: [...sources, img], position: img.position };
}

/** The share of the column a figure takes (its `width` attribute, as a style), 1 for any other parent. */
function figureShare(parent: Element | HastRoot): number {
  if (parent.type !== 'element' || parent.tagName !== 'figure') return 1;
  const percent = /width:(\d+)%/.exec(String(parent.properties.style ?? ''))?.[1];
  return percent ? Number(percent) / 100 : 1;
}

/**
 * A section heading (h2 to h6) made a link to itself, so a reader can share a section: its words
 * are the link's, so the heading is read once and the link is named by them in either language,
 * and the stylesheet draws a "#" after them. A heading that already holds a link is left as it
 * is (a link cannot hold another). Done after the headings, links and ids are collected: it is
 * not a reference the checker reads, and adds nothing to the text.
 */
function addSectionLink(heading: Element): void {
  if (holdsLink(heading)) return;
  heading.children = [
    {
      type: 'element',
      tagName: 'a',
      properties: { className: ['section-link'], href: `#${heading.properties.id as string}` },
      children: heading.children,
    },
  ];
}

function holdsLink(node: Element): boolean {
  return node.children.some((child) => child.type === 'element' && (child.tagName === 'a' || holdsLink(child)));
}
