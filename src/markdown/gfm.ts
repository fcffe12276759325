import type { Root } from 'mdast';
import { gfmAutolinkLiteralFromMarkdown } from 'mdast-util-gfm-autolink-literal';
import remarkGfm from 'remark-gfm';
import type { Processor } from 'unified';

/**
 * The syntax of a micromark extension: constructs by the character code they may start at, in each
 * of its kinds (flow, text, ...).
 */
type ConstructRecord = Record<string, { name?: string } | { name?: string }[]>;

/**
 * GFM's constructs, each with what a text must hold for it to occur there: a table needs a "|"
 * or an alignment colon, a footnote "[^", strikethrough "~", a literal email address "@", a literal web address "www."
 * or "http(s)://". Each is tried wherever it could start (a literal email address at every letter
 * of every word), work wasted on a text that cannot hold the construct; a text is parsed without
 * the constructs it cannot hold.
 */
const GFM_CONSTRUCTS: readonly { names: readonly string[]; holds: (markdown: string) => boolean }[] = [
  // A delimiter row needs a "|", or else an alignment colon beside its dashes ("a" over "-:" is a table).
  { names: ['table'], holds: (markdown) => markdown.includes('|') || /:-|-:/.test(markdown) },
  {
    names: ['gfmFootnoteDefinition', 'gfmFootnoteCall', 'gfmPotentialFootnoteCall'],
    holds: (markdown) => markdown.includes('[^'),
  },
  { names: ['strikethrough'], holds: (markdown) => markdown.includes('~') },
  { names: ['emailAutolink'], holds: (markdown) => markdown.includes('@') },
  { names: ['wwwAutolink'], holds: (markdown) => /www\./i.test(markdown) },
  { names: ['protocolAutolink'], holds: (markdown) => /https?:\/\//i.test(markdown) },
];

/**
 * Which of GFM's constructs a text may hold, one bit each (in the order of `GFM_CONSTRUCTS`): what
 * `remarkGfmFor` is given.
 */
export function gfmConstructsOf(markdown: string): number {
  let bits = 0;
  GFM_CONSTRUCTS.forEach(({ holds }, i) => {
    if (holds(markdown)) bits |= 1 << i;
  });
  return bits;
}

/**
 * GFM (remark-gfm) for the texts that may hold the constructs `constructs` names (see
 * `gfmConstructsOf`): its syntax without the others, and its search for literal addresses in the
 * tree (see `literalAddressesWhereAny`) only in a tree whose text has one to find.
 */
export function remarkGfmFor(constructs: number) {
  const left = new Set(GFM_CONSTRUCTS.flatMap(({ names }, i) => (constructs & (1 << i) ? [] : names)));
  return function (this: Processor): void {
    remarkGfm.call(this);
    const data = this.data() as { micromarkExtensions?: Record<string, unknown>[]; fromMarkdownExtensions?: unknown[] };
    data.micromarkExtensions = data.micromarkExtensions?.map((extension) => without(extension, left));
    data.fromMarkdownExtensions = data.fromMarkdownExtensions?.map(literalAddressesWhereAny);
  };
}

/**
 * A micromark extension's syntax without the constructs named `left`: each of its records filtered
 * by the constructs' names.
 */
function without(extension: Record<string, unknown>, left: ReadonlySet<string>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [kind, value] of Object.entries(extension)) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      kept[kind] = value;
      continue;
    }
    const record: ConstructRecord = {};
    for (const [code, constructs] of Object.entries(value as ConstructRecord)) {
      const others = (Array.isArray(constructs) ? constructs : [constructs]).filter(
        (construct) => !left.has(construct?.name ?? ''),
      );
      if (others.length > 0) record[code] = others;
    }
    kept[kind] = record;
  }
  return kept;
}

type Transform = (tree: Root) => Root | undefined | void;
interface FromMarkdownExtension {
  transforms?: Transform[];
}

/**
 * The tree transform of GFM that turns addresses written in plain text into links (one function,
 * shared by every copy of the extension).
 */
const LITERAL_ADDRESSES = (gfmAutolinkLiteralFromMarkdown() as FromMarkdownExtension).transforms?.[0];

/**
 * GFM's mdast extensions with the transform that turns addresses written in plain text into links
 * run only on a tree with a text node that may hold one: "@" (an e-mail address, "mailto:" or
 * "xmpp:"), "www." or "http(s)://", all of which each of its patterns needs in one text node. It
 * walks the whole tree with four patterns in every text node, a tenth of a text's compile, and most
 * texts have none (their addresses are in links, which it leaves alone). A text node may hold what
 * the markdown did not spell out ("&#64;"): the text nodes are read, not the markdown.
 */
function literalAddressesWhereAny(extension: unknown): unknown {
  if (Array.isArray(extension)) return extension.map(literalAddressesWhereAny);
  const { transforms } = (extension ?? {}) as FromMarkdownExtension;
  if (!LITERAL_ADDRESSES || !transforms?.includes(LITERAL_ADDRESSES)) return extension;
  const guarded: Transform = (tree) => (anyTextMayHoldAddress(tree) ? LITERAL_ADDRESSES(tree) : undefined);
  return {
    ...(extension as object),
    transforms: transforms.map((transform) => (transform === LITERAL_ADDRESSES ? guarded : transform)),
  };
}

/**
 * Whether a text node of `tree` holds what a literal address starts with (see
 * `literalAddressesWhereAny`); without recursion.
 */
function anyTextMayHoldAddress(tree: Root): boolean {
  const stack: unknown[] = [tree];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    const { type, value, children } = node as { type: string; value?: unknown; children?: unknown[] };
    if (type === 'text' && typeof value === 'string' && (value.includes('@') || ADDRESS_START.test(value))) return true;
    if (children) for (const child of children) stack.push(child);
  }
  return false;
}

const ADDRESS_START = /https?:\/\/|www\./i;
