import type { Lang } from './lang';

/** A share card's size in pixels: what Open Graph readers and Twitter's large card show (1.91:1). */
export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;

/** The words a share card shows, in its page's language. */
export interface CardText {
  lang: Lang;
  /** The page's title: an article's, or a page's as its header names it ("💻 Tech", "About Me"). */
  title: string;
  /** The site's name (its owner's), and what the owner does, at the foot of every card. */
  siteName: string;
  subtitle: string;
  /** The site's address without its scheme: "duartesalgueiro.pt". */
  host: string;
  /** An article's category with its emoji ("💻 Tech"), its date and reading time as its page writes them. */
  article?: { category: string; date: string; readingTime: string };
}

/**
 * The colours a card is drawn in: the site's design tokens (templates/styles/base.css), their
 * light values, since a card is shown on other sites, whatever the reader's scheme there.
 */
export interface CardColours {
  paper: string;
  card: string;
  ink: string;
  heading: string;
  muted: string;
  line: string;
  navy: string;
  sand: string;
  terracotta: string;
}

/** Everything a card is drawn from. */
export interface ShareCardProps {
  text: CardText;
  colours: CardColours;
  /** The owner's avatar as a data URL; absent when its file cannot be read. */
  avatar?: string;
}
