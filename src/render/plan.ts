import { type Inputs, sameInputs } from '../build/inputs';
import { agrees, CHECK_SHORTCUTS } from '../build/shortcuts';
import { basisKey, type CardBasis, type CardPlan, cardPlan } from '../cards/plan';
import { digest, digestAll } from '../load/digest';
import { neighboursMovedSince } from '../model/neighbours';
import { routeTable } from '../model/routes';
import type { ArticleEdition, Site } from '../model/site';
import { withFields } from '../shared/fields';
import { LANGUAGES, type Lang } from '../shared/lang';
import type { PageProps } from '../shared/props';
import { readingMinutes } from '../shared/readingTime';
import { editionUrl, notFoundUrl, pageFile, type Route } from '../shared/route';
import { type DocumentInputs, editionInputs, notFoundInputs, type RenderContext } from './inputs';
import { outdatedNotice } from './pages';

/**
 * One HTML document of the site, before it is rendered: where it goes, what it shows, and what
 * it is made from, written down as data. The inputs name what the templates read for this page:
 *
 * - `code`: the rendering code; `look`: the styles, script, year and base URL;
 * - `site`: every JSON content file, the route table and the experience texts (the chrome, the
 *   fixed pages and every URL come from these);
 * - `edition <lang>`: for an article's page, each of its editions' file and compiled body;
 * - `around`: for an article's page, the title and URL of the articles before and after it in
 *   its category and language (see model/neighbours.ts);
 * - `listing`: for a listing (a category, the Blog index), the front matter and reading time of
 *   each article it lists in its language;
 * - `card`: the file of the page's share card (src/cards/plan.ts), which its head names: a hash
 *   of everything the card shows and is drawn with.
 *
 * An article's body edit changes one `edition` input, so one page (and its listings when its
 * reading time moves); its title edit changes that page, the listings that show it and the pages
 * of its two neighbours. `tests/integration/build/cache.test.ts` holds this list to account:
 * after every kind of change, the cached output must equal a build from nothing.
 */
export interface PagePlan {
  /** The output file, under the site folder ("blog/tech/x.html", "404.html"). */
  file: string;
  /** Undefined for the Not Found page. */
  route: Route | undefined;
  lang: Lang;
  kind: PageProps['kind'];
  inputs: Inputs;
}

/** What every page depends on besides the content, as two hashes. */
export interface PageBasis {
  /** Fingerprint of the rendering code. */
  code: string;
  /** Hash of the styles, script, year and base URL of the build. */
  look: string;
  /** What every share card is drawn with besides its words. */
  cards: CardBasis;
}

export function lookOf(ctx: Omit<RenderContext, 'site'>): string {
  return digest(JSON.stringify(ctx.styles), ctx.script, String(ctx.year), ctx.baseUrl ?? '', ctx.preview ?? '');
}

/** The hashes pages are keyed by, each worked out once per site model. */
export interface SiteHashes {
  /** Every JSON content file, the route table, the experience texts and the raster images' hashes. */
  site: string;
  /** The route table alone. */
  routes: string;
  /** The front matter of each article a listing shows: a category (or all, undefined) in a language. */
  listing(category: string | undefined, lang: Lang): string;
  /** An article edition's file and compiled body. */
  edition(edition: ArticleEdition): string;
  /** Each edition's URL and date, all of them: what the sitemap shows of the articles besides the routes. */
  dates: string;
  /** Each listing's hash and what it was worked out from, by `listingKey`; the dates' likewise. */
  listed: ReadonlyMap<string, Hashed>;
  dated: Hashed;
  /**
   * Where each edition's strings start in what its two listings were worked out from (see
   * `listedAt`); -1 where an article has no edition.
   */
  places: Int32Array;
}

/**
 * The pages a session's last build planned, with the model and hashes they were planned from. A
 * page whose parts are those of last time (the same route, article and hashes: the model shares
 * what did not change, see `createSite`) is given that same plan, and a hash whose parts are
 * unchanged is not worked out again.
 */
export interface PlannedSite {
  site: Site;
  hashes: SiteHashes;
  plans: readonly PagePlan[];
  /** The cards' basis the plans were made under (`basisKey`): under another, no plan holds. */
  cards: string;
}

/** A hash, with the strings it was worked out from: the same strings next time give it without hashing. */
interface Hashed {
  shown: readonly string[];
  hash: string;
}

const listingKey = (category: string | undefined, lang: Lang) => `${category ?? ''} ${lang}`;

function hashed(shown: readonly string[], before: Hashed | undefined): Hashed {
  return before && sameStrings(before.shown, shown) ? before : { shown, hash: digestAll(shown) };
}

export function siteHashes(site: Site, previous?: PlannedSite): SiteHashes {
  const before = previous?.site;
  const routes =
    before && before.routes === site.routes ? (previous as PlannedSite).hashes.routes : digest(routeTable(site.routes));
  const whole =
    previous &&
    before &&
    routes === previous.hashes.routes &&
    sameValues(site.content.json, before.content.json) &&
    sameExperiences(site, before) &&
    site.images === before.images
      ? previous.hashes.site
      : digest(
          routes,
          JSON.stringify([...site.experienceHtml]),
          // A page shows the content's images by their variants' URLs, named by each image's hash.
          ...[...site.images.values()].map((image) => `${image.file} ${image.hash}`),
          ...[...site.content.json]
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
            .flatMap(([file, { text }]) => [file, text]),
        );
  const { listed, dated, places } =
    (previous && before && relisted(site, before, previous.hashes)) || listingHashes(site, previous);
  return {
    site: whole,
    routes,
    listing: (category, lang) => listed.get(listingKey(category, lang))?.hash ?? digestAll([]),
    dates: dated.hash,
    // Two hashes side by side: a record's value is compared, never read, so it need not be hashed again.
    edition: (edition) => `${edition.source.hash} ${edition.body.hash}`,
    listed,
    dated,
    places,
  };
}

type Listings = Pick<SiteHashes, 'listed' | 'dated' | 'places'>;

/**
 * The place in `SiteHashes.places` of an article's edition in a language (by their places) in a
 * listing: all the articles' (k 0) or its category's (k 1).
 */
const listedAt = (article: number, lang: number, k: 0 | 1) => (article * LANGUAGES.length + lang) * 2 + k;

/** Whether the listing an edition's place in `SiteHashes.places` is in shows its reading time: a category's (k 1). */
const showsReadingTime = (place: number) => place % 2 === 1;

/**
 * Each listing's hash, and the dates', from each listed edition's URL and the hash of its front
 * matter (worked out when its file was parsed), and in a category's listing its reading time too:
 * a category's page shows it, the Blog index and the feeds, which are made from all the articles'
 * listing, do not (a body edit that moves an article's reading time makes neither again).
 */
function listingHashes(site: Site, previous: PlannedSite | undefined): Listings {
  const listed = new Map<string, string[]>();
  const places = new Int32Array(site.articles.length * LANGUAGES.length * 2).fill(-1);
  const list = (key: string, edition: ArticleEdition, at: number) => {
    let shown = listed.get(key);
    if (!shown) {
      shown = [];
      listed.set(key, shown);
    }
    places[at] = shown.length;
    shown.push(edition.url, edition.source.frontMatterHash);
    if (showsReadingTime(at)) shown.push(String(readingMinutes(edition.body.words)));
  };
  const dates: string[] = [];
  site.articles.forEach((article, i) => {
    LANGUAGES.forEach((lang, l) => {
      const edition = article.editions[lang];
      if (!edition) return;
      list(listingKey(undefined, lang), edition, listedAt(i, l, 0));
      list(listingKey(article.category, lang), edition, listedAt(i, l, 1));
      dates.push(edition.url, edition.source.frontMatter.date);
    });
  });
  const listings = new Map<string, Hashed>();
  for (const [key, shown] of listed) listings.set(key, hashed(shown, previous?.hashes.listed.get(key)));
  return { listed: listings, dated: hashed(dates, previous?.hashes.dated), places };
}

/**
 * The listings of `before` brought up to date for `site`, when they list the same editions in the
 * same places (the same articles in the same order, each edition with the same URL and date): the
 * very ones when each shows the same front matter and reading time, or else copies of the
 * listings an edit reached with its entries replaced. Undefined when an article or edition came,
 * went or moved. One walk of identities: the model shares every article that did not change
 * (`createSite`).
 */
function relisted(site: Site, before: Site, hashes: SiteHashes): Listings | undefined {
  if (
    site.articles.length !== before.articles.length ||
    hashes.places.length !== site.articles.length * LANGUAGES.length * 2
  )
    return undefined;
  const patched = new Map<string, string[]>();
  for (let i = 0; i < site.articles.length; i++) {
    const a = site.articles[i] as Site['articles'][number];
    const b = before.articles[i] as Site['articles'][number];
    if (a === b) continue;
    if (a.category !== b.category || a.route !== b.route) return undefined;
    for (let l = 0; l < LANGUAGES.length; l++) {
      const lang = LANGUAGES[l] as Lang;
      const [x, y] = [a.editions[lang], b.editions[lang]];
      if (x === y) continue;
      if (!x || !y || x.url !== y.url || x.source.frontMatter.date !== y.source.frontMatter.date) return undefined;
      const minutes = String(readingMinutes(x.body.words));
      const sameFrontMatter = x.source.frontMatterHash === y.source.frontMatterHash;
      if (sameFrontMatter && minutes === String(readingMinutes(y.body.words))) continue;
      for (const [k, key] of [listingKey(undefined, lang), listingKey(a.category, lang)].entries()) {
        // All the articles' listing shows no reading time: only a change of front matter reaches it.
        if (k === 0 && sameFrontMatter) continue;
        const at = hashes.places[listedAt(i, l, k as 0 | 1)] as number;
        if (at < 0) return undefined;
        let shown = patched.get(key);
        if (!shown) {
          const last = hashes.listed.get(key);
          if (!last) return undefined;
          shown = [...last.shown];
          patched.set(key, shown);
        }
        shown[at + 1] = x.source.frontMatterHash;
        if (k === 1) shown[at + 2] = minutes;
      }
    }
  }
  if (patched.size === 0) return hashes;
  const listed = new Map(hashes.listed);
  for (const [key, shown] of patched) listed.set(key, { shown, hash: digestAll(shown) });
  return { listed, dated: hashes.dated, places: hashes.places };
}

/** The same records, by identity (a JSON file whose text is unchanged keeps its record, see `loadJsonFile`). */
function sameValues<V>(a: ReadonlyMap<string, V>, b: ReadonlyMap<string, V>): boolean {
  if (a.size !== b.size) return false;
  for (const [key, value] of a) if (b.get(key) !== value) return false;
  return true;
}

function sameExperiences(a: Site, b: Site): boolean {
  if (a.experienceHtml.size !== b.experienceHtml.size) return false;
  for (const [card, html] of a.experienceHtml) {
    const other = b.experienceHtml.get(card);
    if (!other || LANGUAGES.some((lang) => other[lang] !== html[lang])) return false;
  }
  return true;
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Every page of the site: each route in each of its languages, then the Not Found pages. */
export function planPages(site: Site, hashes: SiteHashes, basis: PageBasis, last?: PlannedSite): PagePlan[] {
  // Cards drawn with other code, colours or avatar have other files: every page names another.
  const previous = last?.cards === basisKey(basis.cards) ? last : undefined;
  const plans: PagePlan[] = [];
  const shared = sharedInputs(basis, hashes);
  // Under the same route table, last build planned the same pages in the same order: each is
  // found by its place, with no file name to build; otherwise by its file.
  const sameOrder = previous !== undefined && previous.site.routes === site.routes;
  const byFile = sameOrder ? undefined : new Map(previous?.plans.map((plan) => [plan.file, plan]));
  let at = 0;
  // The articles that are not the last build's, when the articles are in the same places: an
  // article page holds when its route is not among theirs (no lookup by path for each page).
  const renewed =
    sameOrder && site.articles.length === previous.site.articles.length
      ? new Set(
          site.articles.filter((article, i) => article !== previous.site.articles[i]).map((article) => article.route),
        )
      : undefined;
  // No closure made per page: thousands of them per build, each named by the loader.
  const prior = (route: Route | undefined, lang: Lang) =>
    sameOrder ? previous.plans[at++] : byFile?.get(planFile(route, lang));
  // The same plan as last time when its route, its article and each of its inputs are unchanged.
  const holds = (plan: PagePlan, route: Route, lang: Lang): boolean => {
    const { inputs } = plan;
    if (
      plan.route !== route ||
      plan.lang !== lang ||
      inputs.code !== shared.code ||
      inputs.look !== shared.look ||
      inputs.site !== shared.site
    )
      return false;
    switch (route.component) {
      case 'article': {
        const article = site.articleByPath.get(route.path);
        if (!(renewed ? !renewed.has(route) : previous?.site.articleByPath.get(route.path) === article)) return false;
        // An edition whose translation is not behind shows no notice: its input is empty.
        const state = site.translations.editions.get(article?.editions[lang]?.source.file ?? '');
        if (inputs.outdated !== (state?.kind === 'outdated' ? outdatedInput(site, route, lang) : '')) return false;
        // Its neighbours are looked at only when some article's moved (a title, a date, an article
        // added), and compared only when they are not the very ones of last time (see neighbourMap).
        if (site.neighbours === previous?.site.neighbours) return true;
        const url = editionUrl(route, lang);
        return (
          site.neighbours.get(url) === previous?.site.neighbours.get(url) ||
          inputs.around === aroundInput(site, route, lang)
        );
      }
      case 'category':
        return inputs.listing === hashes.listing(route.name, lang);
      case 'blog':
        return inputs.listing === hashes.listing(undefined, lang);
      default:
        return true;
    }
  };
  const planned = (route: Route, lang: Lang, plan: PagePlan | undefined): PagePlan =>
    plan && holds(plan, route, lang) ? plan : newPlan(site, hashes, shared, route, lang);
  // Under the same table, articles and shared inputs, only the pages of what may have changed are
  // looked at: a save plans its own pages, not all of the site's.
  const lastPlan = previous?.plans.at(-1);
  if (sameOrder && renewed && lastPlan && sameInputs(lastPlan.inputs, shared)) {
    const plans = previous.plans.slice();
    const places = placesOf(site.routes);
    for (const route of routesToLookAt(site, previous.site, renewed)) {
      let at = places.get(route) as number;
      for (const lang of route.meta.availableLangs) {
        plans[at] = planned(route, lang, plans[at]);
        at++;
      }
    }
    checkPlans(site, hashes, basis, plans);
    return plans;
  }
  for (const route of site.routes) {
    for (const lang of route.meta.availableLangs) plans.push(planned(route, lang, prior(route, lang)));
  }
  for (const lang of LANGUAGES) {
    const plan = prior(undefined, lang);
    // Its card shows what the site's content says (`site`), drawn as the cards' basis says.
    plans.push(
      plan && plan.kind === 'notfound' && plan.lang === lang && sameInputs(plan.inputs, shared)
        ? plan
        : newPlan(site, hashes, shared, undefined, lang),
    );
  }
  checkPlans(site, hashes, basis, plans);
  return plans;
}

/**
 * The pages that are not an article's edition, each planned as `planPages` plans it from nothing:
 * those a check reads the ids of from their render (an article's ids come with its body), without
 * the work of planning thousands of articles' pages it would not read.
 */
export function planPagesButArticles(site: Site, hashes: SiteHashes, basis: PageBasis): PagePlan[] {
  return plansFromNothing(site, hashes, basis, (route) => route.component !== 'article');
}

/**
 * The plans of the pages of the routes `include` keeps, each made from the data alone, in the
 * order `planPages` lists them, then the Not Found pages.
 */
function plansFromNothing(
  site: Site,
  hashes: SiteHashes,
  basis: PageBasis,
  include: (route: Route) => boolean = () => true,
): PagePlan[] {
  const shared = sharedInputs(basis, hashes);
  const plans: PagePlan[] = [];
  for (const route of site.routes) {
    if (!include(route)) continue;
    for (const lang of route.meta.availableLangs) plans.push(newPlan(site, hashes, shared, route, lang));
  }
  for (const lang of LANGUAGES) plans.push(newPlan(site, hashes, shared, undefined, lang));
  return plans;
}

/**
 * The inputs every page has: the rendering code, the look (the build's, with what its share card is
 * drawn with: see `CardBasis`) and the site's content. With a page's own inputs they determine
 * everything its card shows (its words are the page's title, category, date, reading time and the
 * site's owner, all read from `site` and the page's editions): a page carried over keeps its card
 * (see `planCard`).
 */
function sharedInputs(basis: PageBasis, hashes: SiteHashes): Inputs {
  return { code: basis.code, look: digest(basis.look, basisKey(basis.cards)), site: hashes.site };
}

/** A page's plan made from the data: its file and its inputs (see PagePlan). */
function newPlan(site: Site, hashes: SiteHashes, shared: Inputs, route: Route | undefined, lang: Lang): PagePlan {
  const file = planFile(route, lang);
  const inputs = route ? withFields(shared, ownInputs(site, hashes, route, lang)) : shared;
  return { file, route, lang, kind: route?.component ?? 'notfound', inputs };
}

/** The share card of each plan, once worked out: a plan holds for as long as its inputs, which determine its card. */
const cards = new WeakMap<PagePlan, CardPlan>();

/**
 * A page's share card (see cards/plan.ts), worked out when asked for: a build plans every page, and
 * only those it renders, and their cards, need it. A page carried over names the card its output's
 * manifest records for it (`ManifestEntry.card`).
 */
export function planCard(plan: PagePlan, site: Site, basis: CardBasis): CardPlan {
  let card = cards.get(plan);
  if (!card) {
    card = cardPlan(site, plan.route, plan.lang, plan.file, basis);
    cards.set(plan, card);
  }
  return card;
}

/**
 * Under `SITE_CHECK_SHORTCUTS=1`: every plan kept from the last build (by its place, by `holds`,
 * by the pages a save may have changed) is the plan the data makes, page for page.
 */
function checkPlans(site: Site, hashes: SiteHashes, basis: PageBasis, plans: readonly PagePlan[]): void {
  if (!CHECK_SHORTCUTS) return;
  const fresh = plansFromNothing(site, hashes, basis);
  agrees('the pages planned', plans.length, () => fresh.length);
  for (const [i, plan] of plans.entries()) {
    const truth = fresh[i] as PagePlan;
    agrees(
      `the plan of ${truth.file}`,
      { file: plan.file, inputs: plan.inputs },
      () => ({ file: truth.file, inputs: truth.inputs }),
      (a, b) => a.file === b.file && sameInputs(a.inputs, b.inputs),
    );
  }
}

/**
 * The routes whose pages may plan differently from last time, when the route table and the
 * articles' places are the same: the articles that are not the last build's, the listings, and
 * the articles whose translation state or neighbours are others (the model keeps each state, and
 * each neighbours entry, that did not change: compared by identity).
 */
function routesToLookAt(site: Site, before: Site, renewed: ReadonlySet<Route>): Set<Route> {
  const routes = new Set(renewed);
  for (const route of site.routes) if (route.component === 'category' || route.component === 'blog') routes.add(route);
  const [states, statesBefore] = [site.translations.editions, before.translations.editions];
  const [around, aroundBefore] = [site.neighbours, before.neighbours];
  if (states === statesBefore && around === aroundBefore) return routes;
  // A title edit moves the neighbours of a few articles, which the model names.
  const moved = states === statesBefore ? neighboursMovedSince(around, aroundBefore) : undefined;
  if (moved) {
    for (const path of moved) {
      const article = site.articleByPath.get(path);
      if (article) routes.add(article.route);
    }
    return routes;
  }
  for (const article of site.articles) {
    for (const edition of Object.values(article.editions)) {
      if (
        states.get(edition.source.file) !== statesBefore.get(edition.source.file) ||
        around.get(edition.url) !== aroundBefore.get(edition.url)
      )
        routes.add(article.route);
    }
  }
  return routes;
}

/** Where each route's first page stands among the plans made under a route table (its other languages' follow it). */
const placesByTable = new WeakMap<readonly Route[], Map<Route, number>>();

function placesOf(routes: readonly Route[]): Map<Route, number> {
  let places = placesByTable.get(routes);
  if (!places) {
    places = new Map();
    let at = 0;
    for (const route of routes) {
      places.set(route, at);
      at += route.meta.availableLangs.length;
    }
    placesByTable.set(routes, places);
  }
  return places;
}

/** The output file of a route's page in a language, or of the Not Found page. */
function planFile(route: Route | undefined, lang: Lang): string {
  return pageFile(route ? editionUrl(route, lang) : notFoundUrl(lang));
}

/** The inputs particular to one page (see PagePlan). */
function ownInputs(site: Site, hashes: SiteHashes, route: Route, lang: Lang): Record<string, string> {
  switch (route.component) {
    case 'article': {
      const own: Record<string, string> = {};
      for (const edition of Object.values(site.articleByPath.get(route.path)?.editions ?? {}))
        own[`edition ${edition.lang}`] = hashes.edition(edition);
      own.around = aroundInput(site, route, lang);
      own.outdated = outdatedInput(site, route, lang);
      return own;
    }
    case 'category':
      return { listing: hashes.listing(route.name, lang) };
    case 'blog':
      return { listing: hashes.listing(undefined, lang) };
    default:
      return {};
  }
}

/** What an article page shows of the translation it may be behind (see `outdatedNotice`), as one string. */
function outdatedInput(site: Site, route: Route, lang: Lang): string {
  const { outdated } = outdatedNotice(site, route, lang);
  return outdated ? `${outdated.url} ${outdated.before}${outdated.after}` : '';
}

/** What an article page shows of its neighbours (see `Neighbours`), as one string. */
function aroundInput(site: Site, route: Route, lang: Lang): string {
  const { previous, next } = site.neighbours.get(editionUrl(route, lang)) ?? {};
  return [previous?.url, previous?.title, next?.url, next?.title].join('\n');
}

/** The data a page is rendered from, its share card's file and words among them. */
export function pageDocument(ctx: RenderContext, plan: PagePlan, card: CardPlan): DocumentInputs {
  const shown = { file: card.file, alt: card.alt };
  return plan.route ? editionInputs(ctx, plan.route, plan.lang, shown) : notFoundInputs(ctx, plan.lang, shown);
}

/** A page's inputs without `look`: what its element ids depend on (ids depend on neither styles nor its card). */
export function idInputs(plan: Pick<PagePlan, 'inputs'>): Inputs {
  const { look: _look, ...rest } = plan.inputs;
  return rest;
}
