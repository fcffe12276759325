import { CARD_HEIGHT, CARD_WIDTH, type ShareCardProps } from '../../src/shared/card';

/**
 * A page's share card, the picture a link to it shows in a chat or a social network: drawn to SVG
 * by satori at build time (src/cards/draw.ts), never rendered into a page. Satori reads inline
 * styles only and lays out with flexbox: every element with more than one child is a flex box.
 *
 * An article's card: its category with the emoji, its title, date and reading time; every other
 * page's: its title alone. At the foot of each, on the site's navy, the owner's avatar, name and
 * title, and the site's address.
 */
export function ShareCard({ text, colours, avatar }: ShareCardProps) {
  const { article } = text;
  return (
    <div style={{ width: CARD_WIDTH, height: CARD_HEIGHT, display: 'flex', flexDirection: 'column', background: colours.paper, color: colours.ink, fontFamily: 'Inter' }}>
      <div style={{ display: 'flex', height: 14 }}>
        <div style={{ width: 240, background: colours.terracotta }} />
        <div style={{ flexGrow: 1, background: colours.sand }} />
      </div>
      <div style={{ display: 'flex', flexDirection: 'column', flexGrow: 1, justifyContent: article ? 'space-between' : 'center', padding: '52px 72px 44px' }}>
        {article && <div style={{ display: 'flex', fontSize: 32, fontWeight: 700, color: colours.terracotta }}>{article.category}</div>}
        <div style={{ display: 'flex', fontSize: titleSize(text.title, Boolean(article)), fontWeight: 700, lineHeight: 1.15, color: colours.heading, letterSpacing: -1 }}>{text.title}</div>
        {article && (
          <div style={{ display: 'flex', fontSize: 30, color: colours.muted }}>
            {article.date}
            <span style={{ margin: '0 18px', color: colours.line }}>|</span>
            {article.readingTime}
          </div>
        )}
      </div>
      <div style={{ display: 'flex', alignItems: 'center', height: 150, padding: '0 72px', background: colours.navy }}>
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

/** The title's size in pixels: as large as fits in four lines (three beside an article's category and date). */
function titleSize(title: string, article: boolean): number {
  const length = [...title].length;
  if (length <= 28) return article ? 72 : 84;
  if (length <= 60) return article ? 62 : 72;
  if (length <= 100) return 52;
  return 42;
}
