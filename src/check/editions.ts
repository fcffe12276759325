/**
 * The rules that judge one article edition at a time (its links, ids, assets and headings, and the
 * marks of register in its title and description), with what each found kept between builds. An edition's
 * findings depend on its own file and compiled body, and on what it can see of the rest of the
 * site: the routes, every edition's URL, the layout's and other pages' ids, the media files
 * (`siteFacts`), the ids of the editions its links open at an "#id" (`anchorsOf`), and the titles
 * of the articles. While those and the edition are unchanged, the findings are taken from the
 * memo, so a one-article edit checks that article again, and a heading renamed the editions that
 * link into its article too. When a
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
import type { Lang } from '../shared/lang';
import { articlePath } from '../shared/route';
import { editionAssetProblems } from './assets';
import { waitingSignature } from './drafts';
import { guarded } from './guard';
import { editionHeadingProblems } from './headings';
import { type EditionIds, editionIdProblems } from './ids';
import { checkLinks, editionHrefs, editionLinksOf, type InternalLink } from './links';
import {
  retitledWords,
  significantWords,
  type TitleJudge,
  titledOfPart,
  titleIndexKey,
  titleKeyParts,
} from './linkText';
import { hrefPath, targetLang } from './targets';

/** What the rules found in one edition, by rule, in the order `checkSite` reports them. */
export interface EditionFindings {
  links: Diagnostic[];
  ids: Diagnostic[];
  assets: Diagnostic[];
  /** Headings that skip a level (MD003). */
  headings: Diagnostic[];
  /** A Portuguese edition's marks of register in its title and description (I18N004 counts them site-wide). */
  register: { title: RegisterMark[]; description: RegisterMark[] };
}

/** Findings kept between builds (the build cache): by edition file, and a hash of everything they were found from. */
export interface EditionMemo {
  /**
   * The findings kept for an edition file found from the same `whole` key (the edition, and
   * everything the rules can see but titles), when they read no title that changed since they
   * were found (`unread`), or else when their `fine` key (the same, and the titles as the
   * edition's link texts read them) is the same. `fine` is worked out only then: a build where no
   * title changed, or none an edition's link texts read, does not need it.
   */
  find(file: string, whole: WholeKey, fine: () => string, unread: boolean): EditionFindings | undefined;
  set(file: string, whole: WholeKey, fine: string, findings: EditionFindings): void;
  /**
   * The titles every finding the memo keeps was found under (their key, and its parts: see
   * `titleKeyParts`), as the last build that kept them recorded them.
   */
  titles(): { key: string; parts: () => readonly string[] | undefined } | undefined;
  /** Records the titles this check's findings are found under. */
  setTitles(key: string, parts: readonly string[]): void;
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
 * The two site-wide keys of a check, with the site they were worked out for: the next check of the
 * session compares its keys' parts with these (`siteKeys`).
 */
export interface KnownFacts {
  site: Site;
  /** `siteFacts`. */
  facts: Key;
  /** `titleIndexKey`. */
  titles: Key;
  /** What the rules found in each edition under these keys. */
  found: EditionsFound;
}

/** A key, and the strings it is the hash of. */
interface Key {
  parts: readonly string[];
  key: string;
}

/** What the edition rules found in a site's editions. */
export interface EditionsFound {
  /** Each edition's findings. */
  byEdition: Map<ArticleEdition, EditionFindings>;
  /** The places in `site.editions` of the editions whose links, ids, assets or headings rules found something, in order. */
  withFindings: readonly number[];
  /** Each edition's anchors key (`anchorsOf`) as its findings were judged or kept under, when not empty (most are). */
  anchors: Map<ArticleEdition, string>;
}

function foundSomething(findings: EditionFindings): boolean {
  return (
    findings.links.length > 0 || findings.ids.length > 0 || findings.assets.length > 0 || findings.headings.length > 0
  );
}

/**
 * The whole key of an edition's findings, in four parts compared side by side (hashing them
 * into one would cost a hash per edition per build): the site's facts (titles aside), the
 * edition's file and compiled body, and the ids its anchored links read (`anchorsOf`).
 */
export interface WholeKey {
  facts: string;
  source: string;
  body: string;
  anchors: string;
}

/** What the edition rules read besides the edition. */
export interface EditionSurroundings {
  site: Site;
  ids: EditionIds;
  media: ReadonlySet<string>;
  /** One title index for the whole check (LINK004). */
  titles: TitleJudge;
  /** Each edition's internal links, once worked out (`editionLinksOf`). */
  links: WeakMap<ArticleEdition, InternalLink[]>;
}

/** Each edition's findings, from the memo where nothing they depend on changed. */
export function editionFindings(around: EditionSurroundings, memo: EditionMemo | undefined): EditionsFound {
  const { site } = around;
  if (!memo) {
    const found: EditionsFound = { byEdition: new Map(), withFindings: [], anchors: new Map() };
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
  const found: EditionsFound = { byEdition: new Map(), withFindings: [], anchors: new Map() };
  const { keys, retitled: retitledInSession } = siteKeys(around, memo.facts, found);
  const facts = keys.facts.key;
  // An edition the last check judged under the same facts (the model shares unchanged editions)
  // has the same findings, when no title changed or none its link texts' words read.
  const same = last?.facts.key === facts ? last.found : undefined;
  const titlesSame = last?.titles.key === keys.titles.key;
  // The titles the memo's findings were found under: the same as now, or changed in these words
  // (a build of its own, which has no last check to compare with); undefined: any word, maybe.
  const kept = memo.titles();
  const keptTitlesSame = kept?.key === keys.titles.key;
  const keptParts = !last && kept && !keptTitlesSame ? kept.parts() : undefined;
  const retitledSinceKept = keptParts && retitledWordsSince(keptParts, keys.titles.parts);
  // Recorded after every finding of this check: a log cut short while it is written then holds
  // the titles its earlier findings were found under, and a finding of this check is judged
  // against those as any other.
  const recordTitles = () => memo.setTitles(keys.titles.key, keys.titles.parts);
  // The editions whose link texts hold a word a retitling changed what it reads of: found by the
  // words, in a session's index of them, rather than by looking at every edition's words.
  // Kept up to date on every check of the session, so that a title edit finds it made.
  const index = memo.words && memo.linkWords ? wordIndex(site, memo.words.last, memo.linkWords) : undefined;
  if (memo.words) memo.words.last = index;
  let touched: Set<ArticleEdition> | undefined;
  if (!titlesSame && retitledInSession !== undefined && index) {
    touched = new Set();
    for (const word of retitledInSession) for (const edition of index.byWord.get(word) ?? []) touched.add(edition);
  }
  // `same` holds only in a session, which keeps the word index: a retitling always finds it made.
  const untouched = (edition: ArticleEdition) => titlesSame || (touched !== undefined && !touched.has(edition));
  // Whether an edition's kept findings read no title that changed since the memo kept them.
  const unread = (edition: ArticleEdition): boolean => {
    if (last) return untouched(edition);
    if (keptTitlesSame) return true;
    if (!retitledSinceKept) return false;
    for (const word of linkWords(edition.body, memo.linkWords)) if (retitledSinceKept.has(word)) return false;
    return true;
  };
  // The findings of an edition that is not the last check's, or whose titles or anchors it reads changed.
  const judged = (edition: ArticleEdition, anchors: string): EditionFindings => {
    const { file, hash } = edition.source;
    const article = articleOf(site, edition);
    const whole: WholeKey = { facts, source: hash, body: edition.body.hash, anchors };
    const fine = () =>
      digest(facts, hash, edition.body.hash, anchors, around.titles.reads(linkWords(edition.body, memo.linkWords)));
    let findings = memo.find(file, whole, fine, unread(edition));
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
  if (
    same &&
    titlesSame &&
    lastEditions &&
    lastFiles &&
    lastEditions.length === site.editions.length &&
    lastFiles.length === files.length
  ) {
    const changed: number[] = [];
    for (let i = 0; i < site.editions.length; i++) if (site.editions[i] !== lastEditions[i]) changed.push(i);
    if (changed.every((i) => files[i]?.file === lastFiles[i]?.file)) {
      const { byEdition, anchors } = same;
      // And the very editions of the last check whose anchored links open an edition whose ids changed.
      const renewed = new Set(changed);
      site.editions.forEach((edition, i) => {
        if (edition && !renewed.has(i) && (anchors.get(edition) ?? '') !== anchorsOf(around, edition)) renewed.add(i);
      });
      const withFindings = same.withFindings.filter((i) => !renewed.has(i));
      for (const i of renewed) {
        const [was, edition] = [lastEditions[i], site.editions[i]];
        if (was) {
          byEdition.delete(was);
          anchors.delete(was);
        }
        if (!edition) continue;
        const anchorsKey = anchorsOf(around, edition);
        const findings = judged(edition, anchorsKey);
        byEdition.set(edition, findings);
        if (anchorsKey) anchors.set(edition, anchorsKey);
        if (foundSomething(findings)) withFindings.push(i);
      }
      keys.found = { byEdition, withFindings: withFindings.sort((a, b) => a - b), anchors };
      memo.keepAll();
      recordTitles();
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
    const anchors = anchorsOf(around, edition);
    const kept = same?.byEdition.get(edition);
    const findings =
      kept && untouched(edition) && (same?.anchors.get(edition) ?? '') === anchors ? kept : judged(edition, anchors);
    if (anchors) found.anchors.set(edition, anchors);
    if (findings === kept) keptFiles.push(file);
    found.byEdition.set(edition, findings);
    if (foundSomething(findings)) withFindings.push(i);
  });
  if (sameFiles) memo.keepAll();
  else for (const file of keptFiles) memo.keep(file);
  recordTitles();
  found.withFindings = withFindings;
  return found;
}

/** The article an edition of the site belongs to. */
function articleOf(site: Site, edition: ArticleEdition): Article {
  return site.articleByPath.get(articlePath(edition.source.category, edition.source.slug)) as Article;
}

/**
 * The editions of a site by each significant word of their link texts, with the editions it was
 * made for (`site.editions`).
 */
export interface WordIndex {
  editions: readonly (ArticleEdition | undefined)[];
  byWord: Map<string, Set<ArticleEdition>>;
}

/**
 * The index of link words for `site`: `last` brought up to date, in place, when its editions are
 * in the same places (the editions that are not the same objects taken out and put in again),
 * made afresh otherwise.
 */
function wordIndex(
  site: Site,
  last: WordIndex | undefined,
  known: WeakMap<CompiledMarkdown, readonly string[]>,
): WordIndex {
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
function linkWords(
  body: CompiledMarkdown,
  known: WeakMap<CompiledMarkdown, readonly string[]> | undefined,
): readonly string[] {
  let words = known?.get(body);
  if (!words) {
    const all = new Set<string>();
    for (const ref of body.references)
      if (ref.kind === 'link' && ref.text) for (const word of significantWords(ref.text)) all.add(word);
    words = [...all].sort();
    known?.set(body, words);
  }
  return words;
}

/**
 * The parts of the site beyond an edition that its rules can see, each written as the strings that
 * stand for it in the memo key. A rule declares the parts it reads (`EDITION_RULES`); the key of an
 * edition's findings is made from those parts and no others (`siteFacts`), so a rule given a new
 * part to read says so in one place, and its key follows. A part made of many model objects writes
 * each object's strings once while the object lives (`pieceOf`): the model shares what did not
 * change with the last build, so a build writes again only what changed.
 */
const SITE_PARTS = {
  /** Every route: its path, kind, name and languages. */
  routes: ({ site }, parts, pieceOf) => {
    for (const route of site.routes)
      parts.push(
        pieceOf(
          route,
          () => `${route.path}\0${route.component}\0${route.name}\0${route.meta.availableLangs.join(' ')}`,
        ),
      );
  },
  /** Every article edition's URL (links into it); the ids an edition's links open are read apart (`anchorsOf`). */
  editions: ({ site }, parts, pieceOf) => {
    for (const article of site.articles)
      parts.push(
        pieceOf(article, () => {
          let piece = `${article.slug}\0${article.route.path}`;
          for (const edition of Object.values(article.editions)) piece += `\0${edition.lang}\0${edition.url}`;
          return piece;
        }),
      );
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
  images: ({ site }, parts, pieceOf) => {
    for (const image of site.images.values()) parts.push(pieceOf(image, () => `${image.file} ${image.width}`));
  },
} satisfies Record<string, (around: Omit<EditionSurroundings, 'titles'>, parts: string[], piece: PieceOf) => void>;

/** The strings an object of the model stands for, as `write` makes them. */
type PieceOf = (object: object, write: () => string) => string;

/**
 * The strings a model object stands for in a key, made once while it lives. Safe as the model's
 * objects are never changed once made (docs/architecture.md, The build session): an edited file makes new ones.
 */
const pieces = new WeakMap<object, string>();

const pieceOf: PieceOf = (object, write) => {
  let piece = pieces.get(object);
  if (piece === undefined) {
    piece = write();
    pieces.set(object, piece);
  }
  return piece;
};

type SitePart = keyof typeof SITE_PARTS;

/**
 * A rule judged edition by edition, with the parts of the site it reads besides the edition
 * (titles, read word by word, apart).
 */
interface EditionRule<K extends keyof EditionFindings> {
  reads: readonly SitePart[];
  judge: (around: EditionSurroundings, article: Article, edition: ArticleEdition) => EditionFindings[K];
}

/** The rules judged edition by edition, in the order `checkSite` reports them, each with what it reads. */
const EDITION_RULES: { [K in keyof EditionFindings]: EditionRule<K> } = {
  links: {
    // And the ids of the editions its links open at an "#id" (`anchorsOf`).
    reads: ['routes', 'editions', 'pages', 'layout', 'waiting'],
    judge: ({ site, ids, titles, links }, _article, edition) =>
      guarded(
        'links',
        () => checkLinks(site, editionLinksOf(site, edition, links), ids, titles.match),
        edition.source.file,
      ),
  },
  ids: {
    reads: ['layout'],
    judge: ({ ids }, _article, edition) =>
      guarded('ids', () => editionIdProblems(edition, ids.layout), edition.source.file),
  },
  assets: {
    reads: ['media', 'images'],
    judge: ({ site, media }, _article, edition) =>
      guarded('assets', () => editionAssetProblems(edition, media, site.images), edition.source.file),
  },
  headings: {
    reads: [],
    judge: (_around, _article, edition) =>
      guarded('headings', () => editionHeadingProblems(edition), edition.source.file),
  },
  register: {
    reads: [],
    judge: (_around, _article, edition) => {
      const { title, description } = edition.source.frontMatter;
      const pt = edition.lang === 'pt';
      return {
        title: pt ? registerMarks(title) : [],
        description: pt && description ? registerMarks(description) : [],
      };
    },
  },
};

/** The parts of the site the edition rules read, together: what their findings' key is made from. */
const READ_PARTS: readonly SitePart[] = (Object.keys(SITE_PARTS) as SitePart[]).filter((part) =>
  Object.values(EDITION_RULES).some((rule) => rule.reads.includes(part)),
);

/** The pages an edition's links open at an "#id" (path and the link's language), while the edition lives. */
const anchoredLinks = new WeakMap<ArticleEdition, readonly (readonly [string, Lang])[]>();
const NO_TARGETS: readonly (readonly [string, Lang])[] = [];

/**
 * What an edition's links read of other editions' ids (ANCHOR001): for each of its links with an
 * "#id" into an article, the ids of the edition it opens, which the site's facts leave out. Empty
 * for an edition without such links (most of them); a hash otherwise. An edition linking to the
 * heading of another is judged again when that heading is renamed, and no other edition is.
 */
function anchorsOf(around: Pick<EditionSurroundings, 'site'>, edition: ArticleEdition): string {
  const { site } = around;
  let targets = anchoredLinks.get(edition);
  if (!targets) {
    const anchored: (readonly [string, Lang])[] = [];
    // Read from the hrefs: the links themselves are made only for an edition judged.
    for (const href of editionHrefs(site, edition))
      if (href.includes('#')) anchored.push([hrefPath(href), edition.lang]);
    targets = anchored.length === 0 ? NO_TARGETS : anchored;
    anchoredLinks.set(edition, targets);
  }
  if (targets.length === 0) return '';
  const parts: string[] = [];
  for (const [path, lang] of targets) {
    const route = site.routeByPath.get(path);
    // Another page's ids are among the site's facts (`pages`); a page that does not exist has none.
    if (route?.component !== 'article') continue;
    const target = site.articleByPath.get(route.path)?.editions[targetLang(route, lang)];
    parts.push(
      path,
      lang,
      target
        ? pieceOf(target, () => `${target.source.frontMatter.index ? 'index' : ''}\0${target.body.ids.join(' ')}`)
        : '',
    );
  }
  return parts.length === 0 ? '' : digestAll(parts);
}

/**
 * Every edition rule's findings in one edition. A rule that fails on it is reported on its file;
 * the others are still judged.
 */
function judge(around: EditionSurroundings, article: Article, edition: ArticleEdition): EditionFindings {
  return {
    links: EDITION_RULES.links.judge(around, article, edition),
    ids: EDITION_RULES.ids.judge(around, article, edition),
    assets: EDITION_RULES.assets.judge(around, article, edition),
    headings: EDITION_RULES.headings.judge(around, article, edition),
    register: EDITION_RULES.register.judge(around, article, edition),
  };
}

/**
 * The site's facts and title keys, each a hash of its parts (`siteFacts`, `titleKeyParts`). The
 * parts are compared with those of the session's last check first, one by one: where every one is
 * the same, so is the hash, and it is taken as it was. When only titles changed, `retitled` holds
 * every word those titles name, before and after: what LINK004 reads of the titles changed for
 * those words alone.
 */
function siteKeys(
  around: Omit<EditionSurroundings, 'titles'>,
  known: EditionMemo['facts'],
  found: EditionsFound,
): { keys: KnownFacts; retitled?: Set<string> } {
  const last = known?.last;
  const facts = keyOf(siteFacts(around), last?.facts);
  const titles = keyOf(titleKeyParts(around.site), last?.titles);
  // Taken as it was, a key is the hash of the parts as they are, each written afresh.
  if (facts === last?.facts)
    agrees("the site's facts kept from the last check", facts.key, () =>
      digestAll(siteFacts(around, (_, write) => write())),
    );
  if (titles === last?.titles)
    agrees('the title index kept from the last check', titles.key, () => titleIndexKey(around.site));
  const keys: KnownFacts = { site: around.site, found, facts, titles };
  if (known) known.last = keys;
  if (!last || facts !== last.facts || titles === last.titles) return { keys };
  const retitled = retitledWordsSince(last.titles.parts, titles.parts);
  return retitled ? { keys, retitled } : { keys };
}

/** A key and the parts it is the hash of: the last key itself when every part is the same. */
function keyOf(parts: readonly string[], last: Key | undefined): Key {
  if (last && last.parts.length === parts.length && parts.every((part, i) => part === last.parts[i])) return last;
  return { parts, key: digestAll(parts) };
}

/**
 * Every word the titles named in `before` and `after` (title key parts, see `titleKeyParts`: the
 * last check's in a session, or those the checks memo's findings were found under) that differ,
 * for the same articles in the same places; undefined when an article was added, removed, moved
 * or renamed (each part begins with its path and slug), which may change what any word reads.
 */
function retitledWordsSince(before: readonly string[], after: readonly string[]): Set<string> | undefined {
  if (before.length !== after.length) return undefined;
  const words = new Set<string>();
  for (let i = 0; i < after.length; i++) {
    const [was, is] = [before[i] as string, after[i] as string];
    if (was === is) continue;
    const [wasTitled, isTitled] = [titledOfPart(was), titledOfPart(is)];
    if (wasTitled.path !== isTitled.path || wasTitled.slug !== isTitled.slug) return undefined;
    for (const word of retitledWords(wasTitled, isTitled)) words.add(word);
  }
  return words;
}

/**
 * The parts of everything of the site the edition rules read beyond the edition, titles aside
 * (`TitleJudge.reads`): the parts they declare (`EDITION_RULES`), each as `SITE_PARTS` writes it.
 */
function siteFacts(around: Omit<EditionSurroundings, 'titles'>, piece: PieceOf = pieceOf): string[] {
  const parts: string[] = [];
  for (const part of READ_PARTS) {
    parts.push(`[${part}]`);
    SITE_PARTS[part](around, parts, piece);
  }
  return parts;
}
