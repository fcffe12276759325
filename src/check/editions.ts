/**
 * The rules that judge one article edition at a time (its links, ids and assets, and the marks of
 * register in its title and description), with what each found kept between builds. An edition's
 * findings depend on its own file and compiled body, and on what it can see of the rest of the
 * site: the routes, every edition's URL and ids, the layout's and other pages' ids, the media
 * files (`siteFacts`), and the titles of the articles. While those and the edition are unchanged,
 * the findings are taken from the memo, so a one-article edit checks that article again. When a
 * title changed, an edition's findings are still taken while what its link texts' words read of
 * the titles is unchanged (LINK004, `TitleJudge.reads`): a title edit judges again the articles
 * whose link texts share a word with the old or the new title.
 */
import { agrees } from '../build/shortcuts';
import type { Diagnostic } from '../diagnostics/diagnostic';
import { digest, digestAll } from '../load/digest';
import type { CompiledMarkdown } from '../markdown/compile';
import { type RegisterMark, registerMarks } from '../markdown/register';
import type { Article, ArticleEdition, Site } from '../model/site';
import { LANGUAGES } from '../shared/lang';
import { articlePath } from '../shared/route';
import { editionAssetProblems } from './assets';
import { waitingSignature } from './drafts';
import { guarded } from './guard';
import { type EditionIds, editionIdProblems } from './ids';
import { checkLinks, editionLinks } from './links';
import { retitledWords, significantWords, type TitleJudge, titleIndexKey } from './linkText';

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
  /**
   * The findings kept for an edition file: found from the same `whole` key (the edition, and
   * everything the rules can see, every title included), or else from the same `fine` key (the
   * same, but titles only as the edition's link texts read them). `fine` is worked out only when
   * `whole` misses: a build where no title changed does not need it.
   */
  find(file: string, whole: WholeKey, fine: () => string): EditionFindings | undefined;
  set(file: string, whole: WholeKey, fine: string, findings: EditionFindings): void;
  /** Keeps what was found in `file` under the same keys as in the last build, without looking it up. */
  keep(file: string): void;
  /** Keeps what was found in every file: for a check of the same files as the last one. */
  keepAll(): void;
  /** The words of each body's link texts, while the body lives (a session that builds again). */
  linkWords?: WeakMap<CompiledMarkdown, readonly string[]>;
  /** The editions by the words of their link texts, as the session last brought them up to date (see `wordIndex`). */
  words?: { last?: WordIndex };
  /** The site's facts as the session's last check worked them out, and what from (a session that builds again). */
  facts?: { last?: KnownFacts };
}

/**
 * The two site-wide keys of a check, with what they were worked out from: the next check of the
 * session takes them as they are when no part of the site they read changed (`sameFacts`).
 */
export interface KnownFacts {
  site: Site;
  ids: EditionIds;
  media: ReadonlySet<string>;
  /** `siteFacts`. */
  facts: string;
  /** `titleIndexKey`. */
  titles: string;
  /** What the rules found in each edition under these keys. */
  found: EditionsFound;
}

/** What the edition rules found in a site's editions. */
export interface EditionsFound {
  /** Each edition's findings. */
  byEdition: Map<ArticleEdition, EditionFindings>;
  /** The places in `site.editions` of the editions whose links, ids or assets rules found something, in order. */
  withFindings: readonly number[];
}

function foundSomething(findings: EditionFindings): boolean {
  return findings.links.length > 0 || findings.ids.length > 0 || findings.assets.length > 0;
}

/**
 * The whole key of an edition's findings, in three parts compared side by side (hashing them
 * into one would cost a hash per edition per build): the site's facts with every title, and the
 * edition's file and compiled body.
 */
export interface WholeKey {
  facts: string;
  source: string;
  body: string;
}

/** What the edition rules read besides the edition. */
export interface EditionSurroundings {
  site: Site;
  ids: EditionIds;
  media: ReadonlySet<string>;
  /** One title index for the whole check (LINK004). */
  titles: TitleJudge;
}

/** Each edition's findings, from the memo where nothing they depend on changed. */
export function editionFindings(around: EditionSurroundings, memo: EditionMemo | undefined): EditionsFound {
  const { site } = around;
  if (!memo) {
    const found: EditionsFound = { byEdition: new Map(), withFindings: [] };
    const withFindings: number[] = [];
    site.editions.forEach((edition, i) => {
      if (!edition) return;
      const findings = judge(around, articleOf(site, edition), edition);
      found.byEdition.set(edition, findings);
      if (foundSomething(findings)) withFindings.push(i);
    });
    found.withFindings = withFindings;
    return found;
  }
  const last = memo.facts?.last;
  const found: EditionsFound = { byEdition: new Map(), withFindings: [] };
  const { keys, retitled } = siteKeys(around, memo.facts, found);
  const { facts } = keys;
  const withTitles = digest(facts, keys.titles);
  // An edition the last check judged under the same facts (the model shares unchanged editions)
  // has the same findings, when no title changed or none its link texts' words read.
  const same = last?.facts === facts ? last.found : undefined;
  const titlesSame = last?.titles === keys.titles;
  // The editions whose link texts hold a word a retitling changed what it reads of: found by the
  // words, in a session's index of them, rather than by looking at every edition's words.
  // Kept up to date on every check of the session, so that a title edit finds it made.
  const index = memo.words && memo.linkWords ? wordIndex(site, memo.words.last, memo.linkWords) : undefined;
  if (memo.words) memo.words.last = index;
  let touched: Set<ArticleEdition> | undefined;
  if (!titlesSame && retitled !== undefined && index) {
    touched = new Set();
    for (const word of retitled) for (const edition of index.byWord.get(word) ?? []) touched.add(edition);
  }
  // `same` holds only in a session, which keeps the word index: a retitling always finds it made.
  const untouched = (edition: ArticleEdition) => titlesSame || (touched !== undefined && !touched.has(edition));
  // The findings of an edition that is not the last check's, or whose titles it reads changed.
  const judged = (edition: ArticleEdition): EditionFindings => {
    const { file, hash } = edition.source;
    const article = articleOf(site, edition);
    const whole: WholeKey = { facts: withTitles, source: hash, body: edition.body.hash };
    const fine = () => digest(facts, hash, edition.body.hash, around.titles.reads(linkWords(edition.body, memo.linkWords)));
    let findings = memo.find(file, whole, fine);
    if (!findings) {
      findings = judge(around, article, edition);
      memo.set(file, whole, fine(), findings);
    }
    return findings;
  };
  const lastFiles = last?.site.content.articles;
  const files = site.content.articles;
  const lastEditions = last?.site.editions;
  // Under the same facts and titles, with the same files in the same places: only the editions
  // that are not the very ones of the last check are looked at (the two lists compared, the
  // editions not read), and the last findings are brought up to date in place.
  if (same && titlesSame && lastEditions && lastFiles && lastEditions.length === site.editions.length && lastFiles.length === files.length) {
    const changed: number[] = [];
    for (let i = 0; i < site.editions.length; i++) if (site.editions[i] !== lastEditions[i]) changed.push(i);
    if (changed.every((i) => files[i]?.file === lastFiles[i]?.file)) {
      const { byEdition } = same;
      const renewed = new Set(changed);
      const withFindings = same.withFindings.filter((i) => !renewed.has(i));
      for (const i of changed) {
        const [was, edition] = [lastEditions[i], site.editions[i]];
        if (was) byEdition.delete(was);
        if (!edition) continue;
        const findings = judged(edition);
        byEdition.set(edition, findings);
        if (foundSomething(findings)) withFindings.push(i);
      }
      keys.found = { byEdition, withFindings: withFindings.sort((a, b) => a - b) };
      memo.keepAll();
      return keys.found;
    }
  }
  // The same files as the last check's, in the same places: every entry the memo holds is still in use.
  let sameFiles = lastFiles !== undefined && lastFiles.length === files.length;
  const keptFiles: string[] = [];
  const withFindings: number[] = [];
  // In the order of the files, which is the site's order of articles and, within one, of its editions.
  site.editions.forEach((edition, i) => {
    if (!edition) return;
    const { file } = edition.source;
    if (sameFiles && lastFiles?.[i]?.file !== file) sameFiles = false;
    const kept = same?.byEdition.get(edition);
    const findings = kept && untouched(edition) ? kept : judged(edition);
    if (findings === kept) keptFiles.push(file);
    found.byEdition.set(edition, findings);
    if (foundSomething(findings)) withFindings.push(i);
  });
  if (sameFiles) memo.keepAll();
  else for (const file of keptFiles) memo.keep(file);
  found.withFindings = withFindings;
  return found;
}

/** The article an edition of the site belongs to. */
function articleOf(site: Site, edition: ArticleEdition): Article {
  return site.articleByPath.get(articlePath(edition.source.category, edition.source.slug)) as Article;
}

/** The editions of a site by each significant word of their link texts, with the editions it was made for (`site.editions`). */
export interface WordIndex {
  editions: readonly (ArticleEdition | undefined)[];
  byWord: Map<string, Set<ArticleEdition>>;
}

/**
 * The index of link words for `site`: `last` brought up to date, in place, when its editions are
 * in the same places (the editions that are not the same objects taken out and put in again),
 * made afresh otherwise.
 */
function wordIndex(site: Site, last: WordIndex | undefined, known: WeakMap<CompiledMarkdown, readonly string[]>): WordIndex {
  const put = (byWord: WordIndex['byWord'], edition: ArticleEdition, add: boolean) => {
    for (const word of linkWords(edition.body, known)) {
      let editions = byWord.get(word);
      if (!editions) {
        if (!add) continue;
        editions = new Set();
        byWord.set(word, editions);
      }
      if (add) editions.add(edition);
      else if (editions.delete(edition) && editions.size === 0) byWord.delete(word);
    }
  };
  const { editions } = site;
  if (last && last.editions.length === editions.length) {
    for (let i = 0; i < editions.length; i++) {
      const [now, before] = [editions[i], last.editions[i]];
      if (now === before) continue;
      if (before) put(last.byWord, before, false);
      if (now) put(last.byWord, now, true);
    }
    return { editions, byWord: last.byWord };
  }
  const byWord: WordIndex['byWord'] = new Map();
  for (const edition of editions) if (edition) put(byWord, edition, true);
  return { editions, byWord };
}

/** The significant words of a body's link texts, sorted, each once. */
function linkWords(body: CompiledMarkdown, known: WeakMap<CompiledMarkdown, readonly string[]> | undefined): readonly string[] {
  let words = known?.get(body);
  if (!words) {
    const all = new Set<string>();
    for (const ref of body.references) if (ref.kind === 'link' && ref.text) for (const word of significantWords(ref.text)) all.add(word);
    words = [...all].sort();
    known?.set(body, words);
  }
  return words;
}

/**
 * The parts of the site beyond an edition that its rules can see, each as the strings that stand
 * for it in the memo key. A rule declares the parts it reads (`EDITION_RULES`); the key of an
 * edition's findings is made from those parts and no others (`siteFacts`), so a rule given a new
 * part to read says so in one place, and its key follows.
 */
const SITE_PARTS = {
  /** Every route: its path, kind, name and languages. */
  routes: ({ site }, parts) => {
    for (const route of site.routes) parts.push(route.path, route.component, route.name, route.meta.availableLangs.join(' '));
  },
  /** Every article edition's URL, index and ids (links into it, and its `#id`s). */
  editions: ({ site }, parts) => {
    for (const article of site.articles) {
      parts.push(article.slug, article.route.path);
      for (const edition of Object.values(article.editions)) parts.push(edition.lang, edition.url, edition.source.frontMatter.index ? 'index' : '', edition.body.ids.join(' '));
    }
  },
  /** The ids of every page that is not an article, as rendered. */
  pages: ({ site, ids }, parts) => {
    for (const route of site.routes) {
      if (route.component === 'article') continue;
      for (const lang of route.meta.availableLangs) parts.push(ids.rendered(route, lang).join(' '));
    }
  },
  /** The ids of the layout around every page. */
  layout: ({ ids }, parts) => {
    parts.push([...ids.layout].join(' '));
  },
  /** Which articles wait (drafts and scheduled ones), and until when. */
  waiting: ({ site }, parts) => {
    parts.push(waitingSignature(site));
  },
  /** The files under content/media. */
  media: ({ media }, parts) => {
    parts.push([...media].join('\n'));
  },
  /** The raster images' widths. */
  images: ({ site }, parts) => {
    for (const image of site.images.values()) parts.push(`${image.file} ${image.width}`);
  },
} satisfies Record<string, (around: Omit<EditionSurroundings, 'titles'>, parts: string[]) => void>;

type SitePart = keyof typeof SITE_PARTS;

/** A rule judged edition by edition, with the parts of the site it reads besides the edition (titles, read word by word, apart). */
interface EditionRule<K extends keyof EditionFindings> {
  reads: readonly SitePart[];
  judge: (around: EditionSurroundings, article: Article, edition: ArticleEdition) => EditionFindings[K];
}

/** The rules judged edition by edition, in the order `checkSite` reports them, each with what it reads. */
const EDITION_RULES: { [K in keyof EditionFindings]: EditionRule<K> } = {
  links: {
    reads: ['routes', 'editions', 'pages', 'layout', 'waiting'],
    judge: ({ site, ids, titles }, article, edition) => guarded('links', () => checkLinks(site, editionLinks(article, edition), ids, titles.match), edition.source.file),
  },
  ids: { reads: ['layout'], judge: ({ ids }, _article, edition) => guarded('ids', () => editionIdProblems(edition, ids.layout), edition.source.file) },
  assets: { reads: ['media', 'images'], judge: ({ site, media }, _article, edition) => guarded('assets', () => editionAssetProblems(edition, media, site.images), edition.source.file) },
  register: {
    reads: [],
    judge: (_around, _article, edition) => {
      const { title, description } = edition.source.frontMatter;
      const pt = edition.lang === 'pt';
      return { title: pt ? registerMarks(title) : [], description: pt && description ? registerMarks(description) : [] };
    },
  },
};

/** The parts of the site the edition rules read, together: what their findings' key is made from. */
const READ_PARTS: readonly SitePart[] = (Object.keys(SITE_PARTS) as SitePart[]).filter((part) => Object.values(EDITION_RULES).some((rule) => rule.reads.includes(part)));

/** Every edition rule's findings in one edition. A rule that fails on it is reported on its file; the others are still judged. */
function judge(around: EditionSurroundings, article: Article, edition: ArticleEdition): EditionFindings {
  return {
    links: EDITION_RULES.links.judge(around, article, edition),
    ids: EDITION_RULES.ids.judge(around, article, edition),
    assets: EDITION_RULES.assets.judge(around, article, edition),
    register: EDITION_RULES.register.judge(around, article, edition),
  };
}

/**
 * The site's facts and title key: those of the session's last check while nothing they read
 * changed, worked out otherwise. When only titles changed, `retitled` holds every word those
 * titles name, before and after: what LINK004 reads of the titles changed for those words alone.
 */
function siteKeys(around: Omit<EditionSurroundings, 'titles'>, known: EditionMemo['facts'], found: EditionsFound): { keys: KnownFacts; retitled?: Set<string> } {
  const last = known?.last;
  const same = last && sameFacts(last, around);
  const keys: KnownFacts = {
    ...around,
    found,
    facts: same?.facts ? last!.facts : siteFacts(around),
    titles: same?.retitled.length === 0 ? last!.titles : titleIndexKey(around.site),
  };
  // The identities compared by `sameFacts` stand for the hashes: they never decide otherwise.
  if (same?.facts) agrees("the site's facts kept from the last check", keys.facts, () => siteFacts(around));
  if (same?.retitled.length === 0) agrees('the title index kept from the last check', keys.titles, () => titleIndexKey(around.site));
  if (known) known.last = keys;
  if (!same?.facts || same.retitled.length === 0) return { keys };
  const retitled = new Set<string>();
  for (const [before, after] of same.retitled) for (const word of retitledWords(before, after)) retitled.add(word);
  return { keys, retitled };
}

/**
 * What of the last check's keys still holds for the site now: its facts, or not (an edition's URL,
 * index or ids changed), and the articles whose titles changed (as they were, and as they are);
 * undefined when the site's articles or pages changed more than that. Read in one walk, mostly of
 * object identities: the model shares every article that did not change with the last build's
 * (`createSite`), so only the few that did are compared part by part.
 */
function sameFacts(last: KnownFacts, now: Omit<EditionSurroundings, 'titles'>): { facts: boolean; retitled: [Article, Article][] } | undefined {
  const { site } = now;
  if (
    site.routes !== last.site.routes ||
    site.images !== last.site.images ||
    site.articles.length !== last.site.articles.length ||
    !sameSet(now.media, last.media) ||
    !sameSet(now.ids.layout, last.ids.layout)
  )
    return undefined;
  for (const route of site.routes) {
    if (route.component === 'article') continue;
    for (const lang of route.meta.availableLangs) if (!sameList(now.ids.rendered(route, lang), last.ids.rendered(route, lang))) return undefined;
  }
  // A draft published, or a link's target made a draft, judges links to it again (DRAFT001).
  let facts = site.waiting === last.site.waiting || waitingSignature(site) === waitingSignature(last.site);
  const retitled: [Article, Article][] = [];
  for (const [i, article] of site.articles.entries()) {
    const before = last.site.articles[i];
    if (article === before) continue;
    if (!before || before.route !== article.route) return undefined;
    let titles = true;
    for (const lang of LANGUAGES) {
      const a = article.editions[lang];
      const b = before.editions[lang];
      if (a === b) continue;
      if (!a || !b) return undefined;
      if (a.url !== b.url || Boolean(a.source.frontMatter.index) !== Boolean(b.source.frontMatter.index) || !sameList(a.body.ids, b.body.ids)) facts = false;
      if (a.source.frontMatter.title !== b.source.frontMatter.title) titles = false;
    }
    if (!titles) retitled.push([before, article]);
  }
  return { facts, retitled };
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a === b || (a.length === b.length && a.every((item, i) => item === b[i]));
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a === b) return true;
  if (a.size !== b.size) return false;
  for (const item of a) if (!b.has(item)) return false;
  return true;
}

/**
 * A hash of everything of the site the edition rules read beyond the edition, titles aside
 * (`TitleJudge.reads`): the parts they declare (`EDITION_RULES`), each as `SITE_PARTS` writes it.
 */
function siteFacts(around: Omit<EditionSurroundings, 'titles'>): string {
  const parts: string[] = [];
  for (const part of READ_PARTS) {
    parts.push(`[${part}]`);
    SITE_PARTS[part](around, parts);
  }
  return digestAll(parts);
}
