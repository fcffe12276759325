/** CSS length units and keywords the flip card accepts for its width and height (docs/product.md, Input rules). */
const LENGTH = /^-?(\d+(\.\d+)?|\.\d+)(px|cm|mm|in|pc|pt|em|ex|ch|lh|vh|vw|rem|vmin|vmax|%)$/;
const LENGTH_KEYWORDS = new Set([
  'max-content',
  'min-content',
  'available',
  'fit-content',
  'auto',
  'inherit',
  'initial',
  'unset',
]);
const TIME = /^(\d+(\.\d+)?|\.\d+)(s|ms)$/;

export function isCssLength(value: string): boolean {
  return LENGTH.test(value) || LENGTH_KEYWORDS.has(value);
}

/** A transition duration: a time in s or ms, or '0'. */
export function isCssTime(value: string): boolean {
  return value === '0' || TIME.test(value);
}
