import type { CardWeight } from './fonts';

/** A word (or a space) as satori laid it out: a `<text>` element of its SVG drawn without embedded fonts. */
export interface LaidWord {
  text: string;
  /** Where the word starts, and its baseline, in pixels from the box's top left corner. */
  x: number;
  y: number;
  /** Its width as satori measured it, letter spacing included. */
  width: number;
  size: number;
  weight: CardWeight;
  letterSpacing: number;
  /** Its colour, "#rrggbb". */
  fill: string;
}

/** The attributes satori gives a word, and what each must be for the words to be drawn from glyphs. */
const WORD_ATTRIBUTES = new Set([
  'x',
  'y',
  'width',
  'height',
  'font-weight',
  'font-style',
  'font-size',
  'font-family',
  'letter-spacing',
  'fill',
]);
const WEIGHTS: Readonly<Record<string, CardWeight>> = { normal: 400, '400': 400, bold: 700, '700': 700 };
const ENTITIES: Readonly<Record<string, string>> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};
const ELEMENT = /<(\/?)([a-zA-Z]+)((?:\s+[\w:-]+="[^"]*")*)\s*(\/?)>|([^<]+)/g;

/**
 * The words of an SVG that satori drew of the words of `count` cards (`CardWords`, without
 * embedded fonts), one box under the other, each `width`×`height`: per box, one `<text>` per word
 * and per space on a rectangle of the paper's colour the size of the box, its places read from
 * the box's top. A box is undefined when it holds anything else a card's words are not made of (a
 * picture, such as an emoji's, a path, a group, a word with a transform, a mask or another font):
 * those are drawn by librsvg, as satori drew them; all are undefined when the SVG is not such a
 * column of boxes.
 */
export function laidWords(
  svg: string,
  width: number,
  height: number,
  count: number,
  paper: string,
): (LaidWord[] | undefined)[] {
  const boxes: (LaidWord[] | undefined)[] = [];
  const none = () => Array.from({ length: count }, () => undefined);
  let inMask = false;
  let word: Map<string, string> | undefined;
  let text = '';
  let root = 0;
  for (const [, closing, name, attributes = '', selfClosing, content] of svg.matchAll(ELEMENT)) {
    const box = boxes.length - 1;
    if (content !== undefined) {
      if (box < 0) return none();
      if (!word) boxes[box] = undefined;
      text += content;
      continue;
    }
    if (closing) {
      if (name === 'mask') inMask = false;
      else if (name === 'text' && word) {
        const laid = laidWord(word, decode(text), box * height);
        if (!laid) boxes[box] = undefined;
        else boxes[box]?.push(laid);
        word = undefined;
        text = '';
      } else if (name !== 'svg') {
        if (box < 0) return none();
        boxes[box] = undefined;
      }
      continue;
    }
    const attrs = new Map(
      [...attributes.matchAll(/([\w:-]+)="([^"]*)"/g)].map(([, key, value]) => [key as string, value as string]),
    );
    if (name === 'svg') root++;
    else if (name === 'mask' && !selfClosing) inMask = true;
    else if (name === 'rect' && inMask) continue;
    else if (name === 'rect' && isBackground(attrs, width, height, boxes.length * height, paper)) boxes.push([]);
    else if (name === 'text' && !selfClosing && !inMask && box >= 0) {
      word = attrs;
      text = '';
    } else if (box >= 0) boxes[box] = undefined;
    else return none();
  }
  return root === 1 && boxes.length === count ? boxes : none();
}

/**
 * A word's attributes read, its place from the top of its box (`top` in the SVG), or undefined for
 * one the glyphs cannot draw.
 */
function laidWord(attrs: Map<string, string>, text: string, top: number): LaidWord | undefined {
  for (const key of attrs.keys()) if (!WORD_ATTRIBUTES.has(key)) return undefined;
  const weight = WEIGHTS[attrs.get('font-weight') ?? ''];
  const fill = attrs.get('fill') ?? '';
  if (
    !weight ||
    attrs.get('font-style') !== 'normal' ||
    attrs.get('font-family') !== 'inter' ||
    !/^#[0-9a-f]{6}$/i.test(fill)
  )
    return undefined;
  const [x, y, width, size, letterSpacing] = ['x', 'y', 'width', 'font-size', 'letter-spacing'].map((key) =>
    Number(attrs.get(key) ?? (key === 'letter-spacing' ? 0 : Number.NaN)),
  );
  if (![x, y, width, size, letterSpacing].every(Number.isFinite)) return undefined;
  return {
    text,
    x: x as number,
    y: (y as number) - top,
    width: width as number,
    size: size as number,
    weight,
    letterSpacing: letterSpacing as number,
    fill: fill.toLowerCase(),
  };
}

/** Whether a rectangle is a box's own paper, which the words are drawn on, the box's top at `top`. */
function isBackground(attrs: Map<string, string>, width: number, height: number, top: number, paper: string): boolean {
  const expected: Record<string, string> = {
    x: '0',
    y: String(top),
    width: String(width),
    height: String(height),
    fill: paper.toLowerCase(),
  };
  return attrs.size === 5 && Object.entries(expected).every(([key, value]) => attrs.get(key)?.toLowerCase() === value);
}

function decode(text: string): string {
  return text.replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity] as string);
}
