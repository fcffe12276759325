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
const WORD_ATTRIBUTES = new Set(['x', 'y', 'width', 'height', 'font-weight', 'font-style', 'font-size', 'font-family', 'letter-spacing', 'fill']);
const WEIGHTS: Readonly<Record<string, CardWeight>> = { normal: 400, '400': 400, bold: 700, '700': 700 };
const ENTITIES: Readonly<Record<string, string>> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const ELEMENT = /<(\/?)([a-zA-Z]+)((?:\s+[\w:-]+="[^"]*")*)\s*(\/?)>|([^<]+)/g;

/**
 * The words of an SVG that satori drew of a card's words (`CardWords`, `embedFont: false`): one
 * `<text>` per word and per space, on a rectangle of the paper's colour the size of the box.
 * Undefined when it holds anything else a card's words are not made of (a picture, such as an
 * emoji's, a path, a group, a word with a transform, a mask or another font): those are drawn by
 * librsvg, as satori drew them.
 */
export function laidWords(svg: string, width: number, height: number, paper: string): LaidWord[] | undefined {
  const words: LaidWord[] = [];
  let inMask = false;
  let word: Map<string, string> | undefined;
  let text = '';
  let root = 0;
  let background = 0;
  for (const [, closing, name, attributes = '', selfClosing, content] of svg.matchAll(ELEMENT)) {
    if (content !== undefined) {
      if (!word) return undefined;
      text += content;
      continue;
    }
    if (closing) {
      if (name === 'mask') inMask = false;
      else if (name === 'text' && word) {
        const laid = laidWord(word, decode(text));
        if (!laid) return undefined;
        words.push(laid);
        word = undefined;
        text = '';
      } else if (name !== 'svg') return undefined;
      continue;
    }
    const attrs = new Map([...attributes.matchAll(/([\w:-]+)="([^"]*)"/g)].map(([, key, value]) => [key as string, value as string]));
    if (name === 'svg') root++;
    else if (name === 'mask' && !selfClosing) inMask = true;
    else if (name === 'rect' && inMask) continue;
    else if (name === 'rect' && isBackground(attrs, width, height, paper)) background++;
    else if (name === 'text' && !selfClosing && !inMask) {
      word = attrs;
      text = '';
    } else return undefined;
  }
  return root === 1 && background === 1 ? words : undefined;
}

/** A word's attributes read, or undefined for one the glyphs cannot draw. */
function laidWord(attrs: Map<string, string>, text: string): LaidWord | undefined {
  for (const key of attrs.keys()) if (!WORD_ATTRIBUTES.has(key)) return undefined;
  const weight = WEIGHTS[attrs.get('font-weight') ?? ''];
  const fill = attrs.get('fill') ?? '';
  if (!weight || attrs.get('font-style') !== 'normal' || attrs.get('font-family') !== 'inter' || !/^#[0-9a-f]{6}$/i.test(fill)) return undefined;
  const [x, y, width, size, letterSpacing] = ['x', 'y', 'width', 'font-size', 'letter-spacing'].map((key) => Number(attrs.get(key) ?? (key === 'letter-spacing' ? 0 : Number.NaN)));
  if (![x, y, width, size, letterSpacing].every(Number.isFinite)) return undefined;
  return { text, x: x as number, y: y as number, width: width as number, size: size as number, weight, letterSpacing: letterSpacing as number, fill: fill.toLowerCase() };
}

/** Whether a rectangle is the box's own paper, which the words are drawn on. */
function isBackground(attrs: Map<string, string>, width: number, height: number, paper: string): boolean {
  const expected: Record<string, string> = { x: '0', y: '0', width: String(width), height: String(height), fill: paper.toLowerCase() };
  return attrs.size === 5 && Object.entries(expected).every(([key, value]) => attrs.get(key)?.toLowerCase() === value);
}

function decode(text: string): string {
  return text.replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity] as string);
}
