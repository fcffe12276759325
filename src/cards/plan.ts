import { hash as oneHash } from 'node:crypto';
import type { Inputs } from '../build/inputs';
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
  file: string;
  /** The hash in its name: the name of its file in the folder of drawn cards. */
  hash: string;
  inputs: Inputs;
  text: CardText;
  /** What the card shows, as one line of text: its alternative text (`og:image:alt`). */
  alt: string;
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
  const text = cardText(site, route, lang, basis.host);
  const { article } = text;
  const inputs: Inputs = {
    code: basis.code,
    look: basis.look,
    lang,
    title: text.title,
    ...(article && { category: article.category, date: article.date, 'reading time': article.readingTime }),
    site: [text.siteName, text.subtitle, text.host].join('\n'),
  };
  // Ten hexadecimal digits, as an image variant's name has: a hash of every input, by name.
  const hash = cardHash(inputs);
  const alt = article
    ? [text.title, plainTitle(article.category), article.date, article.readingTime, text.siteName].join(' · ')
    : [route?.component === 'category' || route?.component === 'gallery' ? plainTitle(text.title) : text.title, text.siteName].join(' · ');
  return { file: `assets/cards/${page.replace(/\.html$/, '')}.${hash}.png`, hash, inputs, text, alt };
}

/** What a page's card shows: an article's title, category, date and reading time; another page's title. */
function cardText(site: Site, route: Route | undefined, lang: Lang, host: string): CardText {
  const { owner, pages } = site.content;
  const base = { lang, siteName: owner.name, subtitle: owner.subtitle[lang], host };
  if (!route) return { ...base, title: site.strings[lang]['notFound.title'] };
  switch (route.component) {
    case 'article': {
      const edition = site.articleByPath.get(route.path)?.editions[lang];
      if (!edition) throw new Error(`route ${route.path} has no ${lang} edition`);
      const { frontMatter, category } = edition.source;
      return {
        ...base,
        title: frontMatter.title,
        article: {
          category: site.categories.get(category)?.data.title[lang] ?? category,
          date: readableDate(frontMatter.date, lang),
          readingTime: readingTime(site, edition.body.words, lang),
        },
      };
    }
    case 'category':
    case 'gallery':
      return { ...base, title: site.categories.get(route.name)?.data.title[lang] ?? route.name };
    default:
      return { ...base, title: pages[route.component].title[lang] };
  }
}

/**
 * The hash a card is named by: of each input's name and value, in the order the plan writes them
 * (always the same), in one call of the hash; thousands of cards are planned in every build.
 */
function cardHash(inputs: Inputs): string {
  let text = '';
  for (const name in inputs) text += `${name}\0${inputs[name] ?? ''}\0`;
  return oneHash('sha1', text, 'hex').slice(0, 10);
}
