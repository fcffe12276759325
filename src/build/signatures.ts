/**
 * What each page is made from, told cheaply: `site dev` rebuilds after every save, and working out
 * the exact inputs of all thousands of pages (to hash them and find the few that changed) costs far
 * more than rendering those few. A page's signature names the objects it is made from instead: the
 * site-wide content (JSON files, the route table, styles, code), and for pages that show articles,
 * those articles' sources and compiled bodies, by identity. The dev build keeps the loaded sources
 * and compiled bodies of unchanged files, so their identities last from one save to the next; a
 * page whose signature is unchanged keeps the exact key it had, and is neither keyed nor rendered.
 */
import type { ArticleSource } from '../load/articles';
import { routeTable } from '../model/routes';
import type { Site } from '../model/site';
import type { DocumentInputs } from '../render/inputs';
import type { Lang } from '../shared/lang';
import type { Route } from '../shared/route';
import { digest } from './fingerprint';

const numbers = new WeakMap<object, number>();
let counter = 0;

/** A number for an object, the same for as long as the object lives. */
export function identityOf(value: object): number {
  let number = numbers.get(value);
  if (number === undefined) {
    number = ++counter;
    numbers.set(value, number);
  }
  return number;
}

/**
 * The fields a listing shows of an edition (title, description, date), as a number that equal
 * fields share: an edit to an article's body leaves the listings that name it alone.
 */
const listed = new Map<string, number>();
const listedOf = new WeakMap<ArticleSource, number>();

function listingOf(source: ArticleSource): number {
  let number = listedOf.get(source);
  if (number === undefined) {
    const { title, description, date } = source.frontMatter;
    const fields = JSON.stringify([title, description, date]);
    number = listed.get(fields) ?? listed.size + 1;
    listed.set(fields, number);
    listedOf.set(source, number);
  }
  return number;
}

/** The signature and key each page had at the last build, by output file. */
export type PageMemory = Map<string, { signature: string; key: string; kind: DocumentInputs['page']['kind'] }>;

export interface PageSignatures {
  /** Everything every page depends on. */
  readonly site: string;
  /** The signature of one edition's page (`route` undefined: the Not Found page). */
  of(route: Route | undefined, lang: Lang): string;
}

const made = new WeakMap<Site, PageSignatures>();

/**
 * Signatures for a site model, made once per model. They cover the content only: the rendering
 * code, styles, script, year and base URL are the caller's to add.
 */
export function pageSignatures(site: Site): PageSignatures {
  let signatures = made.get(site);
  if (!signatures) {
    signatures = signaturesOf(site);
    made.set(site, signatures);
  }
  return signatures;
}

function signaturesOf(site: Site): PageSignatures {
  const routes = routeTable(site.routes);
  const sources = [...site.content.json].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).flatMap(([file, { text }]) => [file, text]).join('\0');
  const experiences = JSON.stringify([...site.experienceHtml]);
  const whole = digest(routes, sources, experiences);
  // What listings show, per category and per language, made on first use.
  const listings = new Map<string, string>();
  const listing = (category: string | undefined, lang: Lang) => {
    const key = `${category ?? ''} ${lang}`;
    let text = listings.get(key);
    if (text === undefined) {
      const entries: string[] = [];
      for (const article of site.articles) {
        const edition = article.editions[lang];
        if (edition && (category === undefined || article.category === category)) entries.push(`${article.route.path} ${listingOf(edition.source)}`);
      }
      text = digest(entries.join('\n'));
      listings.set(key, text);
    }
    return text;
  };
  return {
    site: whole,
    of(route, lang) {
      if (!route) return `${whole} 404`;
      switch (route.component) {
        case 'article': {
          const article = site.articleByPath.get(route.path);
          const editions = Object.values(article?.editions ?? {}).map((e) => `${identityOf(e.source)}:${identityOf(e.body)}`);
          return `${whole} ${editions.join(' ')}`;
        }
        case 'category':
          return `${whole} ${listing(route.name, lang)}`;
        case 'blog':
          return `${whole} ${listing(undefined, lang)}`;
        default:
          return whole;
      }
    },
  };
}
