import type { Inputs } from '../build/inputs';
import { digest, digestAll } from '../load/digest';
import { routeTable } from '../model/routes';
import type { ArticleEdition, Site } from '../model/site';
import { LANGUAGES, type Lang } from '../shared/lang';
import type { PageProps } from '../shared/props';
import { editionUrl, notFoundUrl, pageFile, type Route } from '../shared/route';
import { type DocumentInputs, editionInputs, notFoundInputs, type RenderContext } from './inputs';

/**
 * One HTML document of the site, before it is rendered: where it goes, what it shows, and what
 * it is made from, written down as data. The inputs name what the templates read for this page:
 *
 * - `code`: the rendering code; `look`: the styles, script, year and base URL;
 * - `site`: every JSON content file, the route table and the experience texts (the chrome, the
 *   fixed pages and every URL come from these);
 * - `edition <lang>`: for an article's page, each of its editions' file and compiled body;
 * - `listing`: for a listing (a category, the Blog index), the front matter of each article it
 *   lists in its language.
 *
 * An article's body edit changes one `edition` input, so one page; its title edit changes that
 * page and the listings that show it. `tests/build/cache.test.ts` holds this list to account:
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
}

export function lookOf(ctx: Omit<RenderContext, 'site'>): string {
  return digest(JSON.stringify(ctx.styles), ctx.script, String(ctx.year), ctx.baseUrl ?? '');
}

/** The hashes pages are keyed by, each worked out once per site model. */
export interface SiteHashes {
  /** Every JSON content file, the route table and the experience texts. */
  site: string;
  /** The front matter of each article a listing shows: a category (or all, undefined) in a language. */
  listing(category: string | undefined, lang: Lang): string;
  /** An article edition's file and compiled body. */
  edition(edition: ArticleEdition): string;
}

export function siteHashes(site: Site): SiteHashes {
  const json = [...site.content.json].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).flatMap(([file, { text }]) => [file, text]);
  const whole = digest(routeTable(site.routes), JSON.stringify([...site.experienceHtml]), ...json);
  const listings = new Map<string, string>();
  return {
    site: whole,
    listing(category, lang) {
      const key = `${category ?? ''} ${lang}`;
      let hash = listings.get(key);
      if (hash === undefined) {
        // Each listed edition by its URL and the hash of its front matter, worked out when its file was parsed.
        const shown: string[] = [];
        for (const article of site.articles) {
          const edition = article.editions[lang];
          if (edition && (category === undefined || article.category === category)) shown.push(edition.url, edition.source.frontMatterHash);
        }
        hash = digestAll(shown);
        listings.set(key, hash);
      }
      return hash;
    },
    // Two hashes side by side: a record's value is compared, never read, so it need not be hashed again.
    edition: (edition) => `${edition.source.hash} ${edition.body.hash}`,
  };
}

/** Every page of the site: each route in each of its languages, then the Not Found pages. */
export function planPages(site: Site, hashes: SiteHashes, basis: PageBasis): PagePlan[] {
  const plans: PagePlan[] = [];
  const shared = { code: basis.code, look: basis.look, site: hashes.site };
  for (const route of site.routes) {
    for (const lang of route.meta.availableLangs) {
      plans.push({ file: pageFile(editionUrl(route, lang)), route, lang, kind: route.component, inputs: { ...shared, ...ownInputs(site, hashes, route, lang) } });
    }
  }
  for (const lang of LANGUAGES) plans.push({ file: pageFile(notFoundUrl(lang)), route: undefined, lang, kind: 'notfound', inputs: shared });
  return plans;
}

/** The inputs particular to one page (see PagePlan). */
function ownInputs(site: Site, hashes: SiteHashes, route: Route, lang: Lang): Record<string, string> {
  switch (route.component) {
    case 'article': {
      const own: Record<string, string> = {};
      for (const edition of Object.values(site.articleByPath.get(route.path)?.editions ?? {})) own[`edition ${edition.lang}`] = hashes.edition(edition);
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

/** The data a page is rendered from. */
export function pageDocument(ctx: RenderContext, plan: PagePlan): DocumentInputs {
  return plan.route ? editionInputs(ctx, plan.route, plan.lang) : notFoundInputs(ctx, plan.lang);
}

/** A page's inputs without `look`: what its element ids depend on (ids do not depend on styles). */
export function idInputs(plan: PagePlan): Inputs {
  const { look: _look, ...rest } = plan.inputs;
  return rest;
}
