import LineBreaker from 'linebreak';
import { DATE_TYPE, TITLE_TYPE, titleSize, wordsBox } from '../../templates/cards/ShareCard';
import type { CardColours, CardText } from '../shared/card';
import { withFields } from '../shared/fields';
import type { CardType, CardWeight } from './fonts';
import type { LaidWord } from './words';

/**
 * A card's words laid out across as satori lays out `CardWords` (its text/index.ts, `flow`, with
 * embedded fonts off): each text broken into words where UAX #14 allows (linebreak, satori's
 * own), each measured by HarfBuzz as satori measures it ((advance ÷ units per em) × size, plus the
 * letter spacing after each character), a word wrapped to the next line when it and the line no
 * longer fit (its trailing space not counted), and each word written as the pieces a word
 * segmenter cuts it into, side by side. Down, the places of the lines depend only on the kind of
 * box, the title's size and its count of lines: they are read once from satori's own drawing of
 * a card with the same (`Lines`).
 */
export interface LaidAcross {
  /** The words with their places across; `line` is the title's line, or −1 for the date's row. */
  words: (Omit<LaidWord, 'y'> & { line: number })[];
  /** What the places down depend on: the kind of box, the title's size and its count of lines. */
  shape: string;
}

/** The baselines of a shape's lines, from the box's top: the title's, one per line, and the date row's. */
export interface Lines {
  title: number[];
  date?: number;
}

/**
 * The letters a card's words may be set from without satori: Latin letters, their accents and the
 * usual punctuation, no emoji, no marks to combine.
 */
const PLAIN =
  /^[\u0021-\u007e\u00a1-\u00ff\u0100-\u024f\u2010-\u2027\u2030-\u205e\u20ac]+(?: [\u0021-\u007e\u00a1-\u00ff\u0100-\u024f\u2010-\u2027\u2030-\u205e\u20ac]+)*$/;

const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });

/**
 * Words' pieces as the segmenter cuts them, kept: titles share most of their words. Let go of all
 * past `KEPT_PIECES`.
 */
const pieces = new Map<string, string[]>();
const KEPT_PIECES = 5_000;

function piecesOf(word: string): string[] {
  let found = pieces.get(word);
  if (!found) {
    found = Array.from(segmenter.segment(word), ({ segment }) => segment);
    if (pieces.size >= KEPT_PIECES) pieces.clear();
    pieces.set(word, found);
  }
  return found;
}

/**
 * A card's words laid out across, or undefined for one satori is needed for: a letter outside
 * `PLAIN` (an emoji, another script, a mark to combine), spaces other than single ones between
 * words, a word wider than the box, a date row that does not fit on its line.
 */
export function layOutAcross(text: CardText, colours: CardColours, type: CardType): LaidAcross | undefined {
  const { article } = text;
  const box = wordsBox(Boolean(article));
  const size = titleSize(text.title, Boolean(article));
  const title = { size, weight: TITLE_TYPE.weight, letterSpacing: TITLE_TYPE.letterSpacing, fill: colours.heading };
  const titleWords = flow(text.title, title, box.width, type);
  if (!titleWords) return undefined;
  const words = titleWords.words;
  if (article) {
    const regular = { size: DATE_TYPE.size, weight: DATE_TYPE.weight, letterSpacing: 0, fill: colours.muted };
    const date = flow(article.date, regular, box.width, type);
    const bar = flow('|', { ...regular, fill: colours.line }, box.width, type);
    const time = flow(article.readingTime, regular, box.width, type);
    if (!date || !bar || !time || date.lines > 1 || time.lines > 1) return undefined;
    // Each text is a flex item as wide as its line, rounded up to a pixel; the bar has a margin on each side.
    const barLeft = Math.ceil(date.width) + DATE_TYPE.gap;
    const timeLeft = barLeft + Math.ceil(bar.width) + DATE_TYPE.gap;
    if (timeLeft + Math.ceil(time.width) > box.width) return undefined;
    const row = (laid: Flowed, left: number) =>
      laid.words.map((word) => withFields(word, { x: left + word.x, line: -1 }));
    words.push(...row(date, 0), ...row(bar, barLeft), ...row(time, timeLeft));
  }
  return { words, shape: `${Boolean(article)} ${size} ${titleWords.lines}` };
}

/** Words laid across placed down on their lines: what satori's drawing of them reads as (`laidWords`). */
export function layOutDown(across: LaidAcross, lines: Lines): LaidWord[] | undefined {
  const laid: LaidWord[] = [];
  for (const { line, ...word } of across.words) {
    const y = line < 0 ? lines.date : lines.title[line];
    if (y === undefined) return undefined;
    laid.push(withFields(word, { y }));
  }
  return laid;
}

/**
 * The lines of a shape read from satori's words of a card of that shape (`laidWords`), with the
 * same words across as `across`: undefined when any word is elsewhere across than `across` has
 * it, or its lines are not where a shape's are (a word of the title off its line's baseline).
 */
export function linesOf(across: LaidAcross, satori: readonly LaidWord[]): Lines | undefined {
  if (satori.length !== across.words.length) return undefined;
  const title: number[] = [];
  let date: number | undefined;
  for (const [i, word] of across.words.entries()) {
    const drawn = satori[i] as LaidWord;
    const { line, ...own } = word;
    const same = (Object.keys(own) as (keyof typeof own)[]).every((key) => own[key] === drawn[key]);
    if (!same) return undefined;
    if (line < 0) {
      if (date !== undefined && date !== drawn.y) return undefined;
      date = drawn.y;
    } else {
      if (title[line] !== undefined && title[line] !== drawn.y) return undefined;
      title[line] = drawn.y;
    }
  }
  if (title.some((y) => y === undefined)) return undefined;
  return date === undefined ? { title } : { title, date };
}

/** How a text is set: size and weight, letter spacing, colour. */
interface Setting {
  size: number;
  weight: CardWeight;
  letterSpacing: number;
  fill: string;
}

/** A text laid across: its pieces, with the line of each; how many lines; the widest line. */
interface Flowed {
  words: (Omit<LaidWord, 'y'> & { line: number })[];
  lines: number;
  width: number;
}

/**
 * A text broken into lines `width` wide, as satori's `flow` does with `white-space: normal` and no
 * breaking inside words; undefined for a text satori would treat otherwise (see `layOutAcross`)
 * or a letter the font lacks.
 */
function flow(text: string, setting: Setting, width: number, type: CardType): Flowed | undefined {
  if (!PLAIN.test(text)) return undefined;
  const measure = (run: string) => {
    const shaped = type.shape(setting.weight, run);
    return (
      shaped &&
      (shaped.advance / type.unitsPerEm(setting.weight)) * setting.size + setting.letterSpacing * shaped.clusters
    );
  };
  const breaker = new LineBreaker(text);
  const laid: Flowed['words'] = [];
  let line = 0;
  let current = 0;
  let widest = 0;
  let last = 0;
  for (let bk = breaker.nextBreak(); bk; bk = breaker.nextBreak()) {
    const word = text.slice(last, bk.position);
    last = bk.position;
    const w = measure(word);
    const trimmed = word.trimEnd();
    const bare = trimmed === word ? w : measure(trimmed);
    if (w === undefined || bare === undefined || trimmed === '' || bare > width) return undefined;
    if (laid.length > 0 && current + w > width + (w - bare)) {
      widest = Math.max(widest, width);
      line++;
      current = w;
    } else current += w;
    widest = Math.max(widest, current);
    let x = current - w;
    for (const segment of piecesOf(word)) {
      const piece = measure(segment);
      if (piece === undefined) return undefined;
      laid.push({ text: segment, x, width: piece, line, ...setting });
      x += piece;
    }
  }
  return { words: laid, lines: line + 1, width: widest };
}
