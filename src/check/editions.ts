/**
 * The rules that judge one article edition at a time (its links, ids and assets, and the marks of
 * register in its title and description), with what each found kept between builds. An edition's
 * findings depend on its own file and compiled body, and on what it can see of the rest of the
 * site: the routes, every edition's title and ids, the layout's and other pages' ids, the media
 * files. `siteFacts` hashes all of that; while it and the edition are unchanged, the findings are
 * taken from the memo, so a one-article edit checks that article again, not every article.
 */
import type { Diagnostic } from '../diagnostics/diagnostic';
import { digest, digestAll } from '../load/digest';
import { type RegisterMark, registerMarks } from '../markdown/register';
import type { Article, ArticleEdition, Site } from '../model/site';
import { editionAssetProblems } from './assets';
import { guarded } from './guard';
import { type EditionIds, editionIdProblems } from './ids';
import { checkLinks, editionLinks } from './links';
import type { TitleMatcher } from './linkText';

/** What the rules found in one edition, by rule, in the order `checkSite` reports them. */
export interface EditionFindings {
  links: Diagnostic[];
  ids: Diagnostic[];
  assets: Diagnostic[];
  /** A Portuguese edition's marks of register in its title and description (I18N004 counts them site-wide). */
  register: { title: RegisterMark[]; description: RegisterMark[] };
}

/** Findings kept between builds (the build cache): by edition file, and a hash of everything they were found from. */
export interface EditionMemo {
  get(file: string, inputs: string): EditionFindings | undefined;
  set(file: string, inputs: string, findings: EditionFindings): void;
}

/** What the edition rules read besides the edition. */
export interface EditionSurroundings {
  site: Site;
  ids: EditionIds;
  media: ReadonlySet<string>;
  /** One title index for the whole check, made on the first link text judged (LINK004). */
  titleMatch: TitleMatcher;
}

/** Each edition's findings, in the site's order, from the memo where nothing they depend on changed. */
export function editionFindings(around: EditionSurroundings, memo: EditionMemo | undefined): Map<ArticleEdition, EditionFindings> {
  const facts = memo ? siteFacts(around) : '';
  const found = new Map<ArticleEdition, EditionFindings>();
  for (const article of around.site.articles) {
    for (const edition of Object.values(article.editions)) {
      const inputs = memo ? digest(facts, edition.source.hash, edition.body.hash) : '';
      let findings = memo?.get(edition.source.file, inputs);
      if (!findings) {
        findings = judge(around, article, edition);
        memo?.set(edition.source.file, inputs, findings);
      }
      found.set(edition, findings);
    }
  }
  return found;
}

function judge({ site, ids, media, titleMatch }: EditionSurroundings, article: Article, edition: ArticleEdition): EditionFindings {
  const { title, description } = edition.source.frontMatter;
  const pt = edition.lang === 'pt';
  // A rule that fails on this edition is reported on its file; the other rules and editions are still judged.
  const file = edition.source.file;
  return {
    links: guarded('links', () => checkLinks(site, editionLinks(article, edition), ids, titleMatch), file),
    ids: guarded('ids', () => editionIdProblems(edition, ids.layout), file),
    assets: guarded('assets', () => editionAssetProblems(edition, media), file),
    register: { title: pt ? registerMarks(title) : [], description: pt && description ? registerMarks(description) : [] },
  };
}

/**
 * A hash of everything of the site an edition's rules can see beyond the edition: each route (its
 * path, kind, name and languages), each article (its slug, and each edition's URL, title, index
 * and ids), the ids of the layout and of every other page, and the media files.
 */
function siteFacts({ site, ids, media }: Omit<EditionSurroundings, 'titleMatch'>): string {
  const parts: string[] = [];
  for (const route of site.routes) {
    parts.push(route.path, route.component, route.name, route.meta.availableLangs.join(' '));
    if (route.component === 'article') continue;
    for (const lang of route.meta.availableLangs) parts.push(ids.rendered(route, lang).join(' '));
  }
  for (const article of site.articles) {
    parts.push(article.slug, article.route.path);
    for (const edition of Object.values(article.editions)) {
      parts.push(edition.lang, edition.url, edition.source.frontMatter.title, edition.source.frontMatter.index ? 'index' : '', edition.body.ids.join(' '));
    }
  }
  parts.push([...ids.layout].join(' '), [...media].join('\n'));
  return digestAll(parts);
}
