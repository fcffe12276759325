import { describe, expect, it } from 'vitest';
import { laidWords } from '../../../src/cards/words';

const paper = (top: number) => `<rect x="0" y="${top}" width="100" height="50" fill="#faf7f2"/>`;
const svg = (inner: string, height = 50) =>
  `<svg width="100" height="${height}" viewBox="0 0 100 ${height}" xmlns="http://www.w3.org/2000/svg"><mask id="satori_om-id"><rect x="0" y="0" width="100" height="50" fill="#fff"/></mask>${paper(0)}${inner}</svg>`;
const word = (text: string, extra = '') =>
  `<text x="1.5" y="30" width="20.25" height="36" font-weight="700" font-style="normal" font-size="30" font-family="inter" letter-spacing="-1" fill="#0B2545"${extra}>${text}</text>`;

describe('the words of satori’s SVG of a card’s words', () => {
  it('are read with their place, width, size, weight, spacing and colour, entities decoded', () => {
    expect(laidWords(svg(word('A&amp;B&#39;s')), 100, 50, 1, '#faf7f2')).toEqual([
      [{ text: "A&B's", x: 1.5, y: 30, width: 20.25, size: 30, weight: 700, letterSpacing: -1, fill: '#0b2545' }],
    ]);
  });

  it('are read per box from a column of boxes, each word placed from its box’s top; a box with anything else is left to librsvg alone', () => {
    const column = svg(
      `${word('one')}${paper(50)}${word('two').replace('y="30"', 'y="80"')}${paper(100)}<path d="M0 0Z"/>${word('three').replace('y="30"', 'y="130"')}`,
      150,
    );
    expect(laidWords(column, 100, 50, 3, '#faf7f2').map((box) => box?.map(({ text, y }) => [text, y]))).toEqual([
      [['one', 30]],
      [['two', 30]],
      undefined,
    ]);
    expect(laidWords(column, 100, 50, 2, '#faf7f2')).toEqual([undefined, undefined]);
  });

  it.each([
    ['a picture (an emoji)', `<image x="0" y="0" width="30" height="30" href="data:image/svg+xml;base64,AA=="/>`],
    ['a path (letters as outlines)', '<path d="M0 0L1 1Z" fill="black"/>'],
    ['a word under a mask', word('masked', ' mask="url(#satori_om-id)"')],
    ['a word in another font', word('x').replace('inter', 'serif')],
    ['a group', '<g>x</g>'],
    ['a rectangle that is not the paper', '<rect x="0" y="0" width="10" height="10" fill="#000"/>'],
  ])('are not read from an SVG holding %s: the card is drawn by librsvg', (_, inner) => {
    expect(laidWords(svg(inner), 100, 50, 1, '#faf7f2')).toEqual([undefined]);
  });

  it('are not read when the box is not on the paper expected', () => {
    expect(laidWords(svg(word('x')), 100, 50, 1, '#ffffff')).toEqual([undefined]);
  });
});
