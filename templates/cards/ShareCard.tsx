import type { ReactNode } from 'react';
import { CARD_HEIGHT, CARD_WIDTH, type CardText, type ShareCardProps } from '../../src/shared/card';

/** The card's measures in pixels: the colour bar at its top, the navy band at its foot, the margins of its words. */
const BAR = 14;
const FOOT = 150;
const PAD = { top: 52, side: 72, bottom: 44 };
/** The row of an article's category, above its title. */
const CATEGORY = 40;

/**
 * How a card's own words are set (`CardWords`): the title in bold, tighter and with lines 1.15
 * of its size apart; under an article's, its date and reading time in regular type with a bar
 * between them, `gap` pixels on each side. src/cards/layout.ts sets them from the same figures.
 */
export const TITLE_TYPE = { weight: 700, lineHeight: 1.15, letterSpacing: -1 } as const;
/** The date's weight is the default one, regular (400). */
export const DATE_TYPE = { size: 30, weight: 400, gap: 18 } as const;
/**
 * The colours `CardWords` sets a card's own words in: the title's, the date's and reading time's,
 * and the bar's between them. src/cards/palette.ts gives each a ramp over the paper in the card's palette.
 */
export const WORDS_INKS = ['heading', 'muted', 'line'] as const satisfies readonly (keyof ShareCardProps['colours'])[];

/** A box on the card, in pixels from its top left corner. */
export interface CardBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * Where a card's own words go (title, date, reading time): below an article's category, or the
 * whole space between the bar and the foot for another page. All the rest is its frame, the same
 * on every card of a language and a category.
 */
export function wordsBox(article: boolean): CardBox {
  const top = BAR + PAD.top + (article ? CATEGORY : 0);
  return { left: PAD.side, top, width: CARD_WIDTH - 2 * PAD.side, height: CARD_HEIGHT - FOOT - PAD.bottom - top };
}

/**
 * A page's share card, the picture a link to it shows in a chat or a social network: drawn to SVG
 * by satori at build time (src/cards/draw.ts), never rendered into a page. Satori reads inline
 * styles only and lays out with flexbox: every element with more than one child is a flex box.
 *
 * An article's card: its category with the emoji, its title, date and reading time; every other
 * page's: its title alone. At the foot of each, on the site's navy, the owner's avatar, name and
 * title, and the site's address.
 *
 * It is its frame with its words in their box: the drawing of a build's cards draws each frame
 * once, and each card's words alone (`CardFrame`, `CardWords`).
 */
export function ShareCard(props: ShareCardProps) {
  return (
    <CardFrame {...props}>
      <CardWords text={props.text} colours={props.colours} />
    </CardFrame>
  );
}

/**
 * What a card shows besides its own words: the paper, the colour bar, an article's category, and
 * the navy foot with the avatar, the owner's name and title and the site's address. `children`
 * fills the box of the words (`wordsBox`); without them it is bare paper.
 */
export function CardFrame({ text, colours, avatar, children }: ShareCardProps & { children?: ReactNode }) {
  const { article } = text;
  const box = wordsBox(Boolean(article));
  return (
    <div
      style={{
        width: CARD_WIDTH,
        height: CARD_HEIGHT,
        display: 'flex',
        flexDirection: 'column',
        background: colours.paper,
        color: colours.ink,
        fontFamily: 'Inter',
      }}
    >
      <div style={{ display: 'flex', height: BAR, flexShrink: 0 }}>
        <div style={{ width: 240, background: colours.terracotta }} />
        <div style={{ flexGrow: 1, background: colours.sand }} />
      </div>
      <div
        style={{
          display: 'flex',
          flexDirection: 'column',
          flexGrow: 1,
          padding: `${PAD.top}px ${PAD.side}px ${PAD.bottom}px`,
        }}
      >
        {article && (
          <div style={{ display: 'flex', height: CATEGORY, fontSize: 32, fontWeight: 700, color: colours.terracotta }}>
            {article.category}
          </div>
        )}
        <div style={{ display: 'flex', width: box.width, height: box.height }}>{children}</div>
      </div>
      <div
        style={{
          display: 'flex',
          alignItems: 'center',
          height: FOOT,
          flexShrink: 0,
          padding: `0 ${PAD.side}px`,
          background: colours.navy,
        }}
      >
        {avatar && <img src={avatar} width={100} height={100} style={{ marginRight: 28 }} alt="" />}
        <div style={{ display: 'flex', flexDirection: 'column', flexGrow: 1 }}>
          <div style={{ display: 'flex', fontSize: 36, fontWeight: 700, color: colours.card }}>{text.siteName}</div>
          <div style={{ display: 'flex', fontSize: 26, color: colours.sand }}>{text.subtitle}</div>
        </div>
        <div style={{ display: 'flex', fontSize: 28, color: colours.sand }}>{text.host}</div>
      </div>
    </div>
  );
}

/**
 * A card's own words, filling their box on the paper: the title, and under an article's the date
 * and reading time at the foot of the box, the title midway between the box's top and them (or in
 * the middle of the box, on another page's card).
 */
export function CardWords({ text, colours }: { text: CardText; colours: ShareCardProps['colours'] }) {
  const { article } = text;
  const box = wordsBox(Boolean(article));
  return (
    <div
      style={{
        display: 'flex',
        flexDirection: 'column',
        width: box.width,
        height: box.height,
        justifyContent: article ? 'space-between' : 'center',
        background: colours.paper,
        fontFamily: 'Inter',
      }}
    >
      {article && <div style={{ display: 'flex' }} />}
      <div
        style={{
          display: 'flex',
          fontSize: titleSize(text.title, Boolean(article)),
          fontWeight: TITLE_TYPE.weight,
          lineHeight: TITLE_TYPE.lineHeight,
          color: colours.heading,
          letterSpacing: TITLE_TYPE.letterSpacing,
        }}
      >
        {text.title}
      </div>
      {article && (
        <div style={{ display: 'flex', fontSize: DATE_TYPE.size, color: colours.muted }}>
          {article.date}
          <span style={{ margin: `0 ${DATE_TYPE.gap}px`, color: colours.line }}>|</span>
          {article.readingTime}
        </div>
      )}
    </div>
  );
}

/**
 * The words of several cards with the same kind of box, one box under the other: satori lays them
 * out in one drawing (src/cards/draw.ts) as it would each box alone, at less cost than one each.
 */
export function CardWordsColumn({
  texts,
  colours,
}: {
  texts: readonly CardText[];
  colours: ShareCardProps['colours'];
}) {
  const box = wordsBox(Boolean(texts[0]?.article));
  return (
    <div style={{ display: 'flex', flexDirection: 'column', width: box.width, height: box.height * texts.length }}>
      {texts.map((text, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a column drawn once, never reordered; two cards may have the same title
        <CardWords key={i} text={text} colours={colours} />
      ))}
    </div>
  );
}

/** The title's size in pixels: as large as fits in four lines (three beside an article's category and date). */
export function titleSize(title: string, article: boolean): number {
  const length = [...title].length;
  if (length <= 28) return article ? 72 : 84;
  if (length <= 60) return article ? 62 : 72;
  if (length <= 100) return 52;
  return 42;
}
