import type { Root as HastRoot } from 'hast';
import { toString as hastToString } from 'hast-util-to-string';

/** The plain text of a compiled document (what search indexes), white space folded to single spaces. */
export function textOf(tree: HastRoot): string {
  return hastToString(tree).replace(/\s+/g, ' ').trim();
}
