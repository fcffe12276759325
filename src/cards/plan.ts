import { hash as oneHash } from 'node:crypto';
import type { Inputs } from '../build/inputs';
import { agrees, CHECK_SHORTCUTS } from '../build/shortcuts';
import type { Site } from '../model/site';
import { plainTitle } from '../render/breadcrumbs';
import { readingTime } from '../render/pages';
import type { CardText } from '../shared/card';
import { readableDate } from '../shared/date';
import type { Lang } from '../shared/lang';
import type { Route } from '../shared/route';

/**
 * A page's share card, before it is drawn: where it goes, what it shows, and what it is made
 * from, written down as data. Its inputs are the words it shows, each by name ("title", "date",
 * "reading time", "category", "site"), the page's language, the fingerprint of the code that
 * draws cards (`WORK.cards`) and the look of the build's cards (colour tokens and avatar). Its
 * file is named by a hash of those inputs: the same inputs always give the same name and the
 * same bytes, and a page can name its card before it is drawn.
 */
export interface CardPlan {
  /** Its path under the output folder: "assets/cards/pt/blog/tech/Git.3f9a1c2b7d.png". */
  readonly file: string;
  /** The hash in its name: the name of its file in the folder of drawn cards. */
  readonly hash: string;
  readonly inputs: Inputs;
  readonly text: CardText;
  /** What the card shows, as one line of text: its alternative text (`og:image:alt`). */
  readonly alt: string;
}

/** What every card of a build is drawn with besides its words. */
export interface CardBasis {
  /** The fingerprint of the code that draws cards. */
  code: string;
  /** The hash of the colours and the avatar (see `CardLook`). */
  look: string;
  /** The site's address without its scheme, shown at the foot of each card. */
  host: string;
}

/** The hash of a basis, to tell whether the cards planned under one would be planned alike under another. */
export function basisKey(basis: CardBasis): string {
  return `${basis.code} ${basis.look} ${basis.host}`;
}

/** The card of a route's page in a language, or of the Not Found page (no route); `page` is the page's file. */
export function cardPlan(site: Site, route: Route | undefined, lang: Lang, page: string, basis: CardBasis): CardPlan {
  return new PlannedCard(cardText(site, route, lang, basis.host), route, page, basis);
}

/**
 * A card as a build plans it: every page's card is named in every build, and few are drawn or
 * rendered, so its name is worked out at once and its inputs and alternative text when asked.
 */
class PlannedCard implements CardPlan {
  readonly file: string;
  readonly hash: string;
  private madeInputs: Inputs | undefined;
  private madeAlt: string | undefined;

  constructor(
    readonly text: CardText,
    private readonly route: Route | undefined,
    page: string,
    private readonly basis: CardBasis,
  ) {
    // Ten hexadecimal digits, as an image variant's name has: a hash of every input, by name.
    this.hash = wordsHash(text, basis);
    if (CHECK_SHORTCUTS) agrees(`the name of the card of ${page}`, this.hash, () => cardHash(this.inputs));
    this.file = `assets/cards/${page.replace(/\.html$/, '')}.${this.hash}.png`;
  }

  get inputs(): Inputs {
    const { text, basis } = this;
    const { article } = text;
    this.madeInputs ??= {
      code: basis.code,
      look: basis.look,
      lang: text.lang,
      title: text.title,
      ...(article && { category: article.category, date: article.date, 'reading time': article.readingTime }),
      site: siteWords(text),
    };
    return this.madeInputs;
  }

  get alt(): string {
    const { text, route } = this;
    const { article } = text;
    this.madeAlt ??= article
      ? [text.title, plainTitle(article.category), article.date, article.readingTime, text.siteName].join(' · ')
      : [
          route?.component === 'category' || route?.component === 'gallery' ? plainTitle(text.title) : text.title,
          text.siteName,
        ].join(' · ');
    return this.madeAlt;
  }
}

/** What a page's card shows: an article's title, category, date and reading time; another page's title. */
function cardText(site: Site, route: Route | undefined, lang: Lang, host: string): CardText {
  const { owner, pages } = site.content;
  // Each card's words made by one literal, not by spreading a shared part: see `withFields`.
  const card = (title: string, article?: CardText['article']): CardText => ({
    lang,
    siteName: owner.name,
    subtitle: owner.subtitle[lang],
    host,
    title,
    ...(article && { article }),
  });
  if (!route) return card(site.strings[lang]['notFound.title']);
  switch (route.component) {
    case 'article': {
      const edition = site.articleByPath.get(route.path)?.editions[lang];
      if (!edition) throw new Error(`route ${route.path} has no ${lang} edition`);
      const { frontMatter, category } = edition.source;
      return card(frontMatter.title, {
        category: site.categories.get(category)?.data.title[lang] ?? category,
        date: readableDate(frontMatter.date, lang),
        readingTime: readingTime(site, edition.body.words, lang),
      });
    }
    case 'category':
    case 'gallery':
      return card(site.categories.get(route.name)?.data.title[lang] ?? route.name);
    default:
      return card(pages[route.component].title[lang]);
  }
}

/** The site's words on a card: its name, subtitle and address. */
function siteWords(text: CardText): string {
  return `${text.siteName}\n${text.subtitle}\n${text.host}`;
}

/**
 * The hash a card is named by: of each of its inputs' name and value, in the order they are
 * written (always the same), in one call of the hash.
 */
export function cardHash(inputs: Inputs): string {
  let text = '';
  for (const name in inputs) text += `${name}\0${inputs[name] ?? ''}\0`;
  return oneHash('sha1', text, 'hex').slice(0, 10);
}

/**
 * `cardHash` of a card's inputs worked out from its words without making them: thousands of
 * cards are named in every build. `SITE_CHECK_SHORTCUTS=1` checks it against `cardHash`.
 */
function wordsHash(text: CardText, basis: CardBasis): string {
  const { article } = text;
  let words = `code\0${basis.code}\0look\0${basis.look}\0lang\0${text.lang}\0title\0${text.title}\0`;
  if (article) words += `category\0${article.category}\0date\0${article.date}\0reading time\0${article.readingTime}\0`;
  return oneHash('sha1', `${words}site\0${siteWords(text)}\0`, 'hex').slice(0, 10);
}
