import path from 'node:path';
import { CardThreads } from '../cards/threads';
import type { ArticleRulesMemo } from '../check/byArticle';
import { type CheckMemo, listMedia } from '../check/check';
import type { EditionFindings, KnownFacts, WordIndex } from '../check/editions';
import { readTitleParts, writeTitleParts } from '../check/keptTitles';
import type { IndexedLinks } from '../check/linkIndex';
import type { InternalLink } from '../check/links';
import type { TitleIndex } from '../check/linkText';
import type { RegisterMemo } from '../check/register';
import type { RouteClashes } from '../check/routes';
import { type KnownRasters, type RasterCatalogue, type RasterImage, readRasters } from '../images/raster';
import { articleFiles, type ParsedArticle } from '../load/articles';
import { type LoadResult, loadContent } from '../load/content';
import { digest } from '../load/digest';
import type { ValidatedJson } from '../load/json';
import type { CompiledMarkdown } from '../markdown/compile';
import type { ArticleEdition } from '../model/site';
import type { FeedItems } from '../publish/feed';
import type { PagePlan, PlannedSite } from '../render/plan';
import type { IndexedDocument } from '../search/shardIndex';
import { countAhead, type PlannedShards } from '../search/shards';
import { ShardTerms } from '../search/shardTerms';
import { withFields } from '../shared/fields';
import { LANGUAGES, type Lang } from '../shared/lang';
import type { Route } from '../shared/route';
import { changeDays } from '../translations/changed';
import type { ReadLock } from '../translations/lock';
import { type KnownStates, knownStates } from '../translations/state';
import type { BuiltAssets } from '../write/assets';
import { treeSignature } from '../write/commit';
import type { OutputManifest } from '../write/manifest';
import { BodyContents } from './bodyContents';
import { sweepCache } from './cacheSweep';
import { TOOL_ROOT } from './fingerprint';
import type { ContentFiles } from './footprint';
import { type KeptFindings, keptFindings } from './keptFindings';
import type { MarkdownMemory, StoredBody } from './markdown';
import { Memo } from './memo';
import { LoadedModules } from './modules';
import { OutputFolders } from './outputs';
import { packedFacts } from './packedFacts';
import { packedArticles, packedLock } from './packedPrints';
import { agrees } from './shortcuts';

/**
 * The checks memo's entry of the titles its findings were found under (their key; the parts are
 * kept apart, see keptTitles.ts): not an edition file's name, which never begins with a NUL.
 */
const TITLES_ENTRY = '\0titles';
const NO_FINDINGS: EditionFindings = {
  links: [],
  ids: [],
  assets: [],
  headings: [],
  register: { title: [], description: [] },
};

/**
 * Articles whose search terms `countAhead` counts in one step: a save arriving meanwhile waits for
 * one step at most.
 */
const COUNT_AHEAD = 16;

/** The files under content/media (see `listMedia`), and a signature that changes when any of them does. */
export interface MediaFolder {
  files: Set<string>;
  signature: string;
  /** Its raster images, published as variants (src/images). */
  images: RasterCatalogue;
}

/** Every kind of cached work, each kept in its own file under `.cache/site/`. */
export interface Memos {
  /** Article files parsed (front matter validated), by path and content hash. */
  articles: Memo<ParsedArticle>;
  bodies: Memo<StoredBody>;
  /** The HTML and text of the bodies in `bodies`. */
  contents: BodyContents;
  /** What the check's rules found in each article edition (check/editions.ts). */
  checks: Memo<KeptFindings>;
  /** The element ids of rendered pages other than articles, for the anchor checks. */
  ids: Memo<readonly string[]>;
  assets: Memo<BuiltAssets>;
  /** Each article edition's counted search terms, in memory only, when the session builds again. */
  search?: Memo<IndexedDocument>;
  /** The check's index of article titles (LINK004), in memory only, when the session builds again. */
  titles?: Memo<TitleIndex>;
  /** The JSON content files' values, validated, by path and content hash. */
  json: Memo<unknown>;
  /**
   * The translation lock's value, validated, by its content hash: a memo of its own, since it
   * grows with every article of the site, and a memo's file is written anew once it holds twice
   * as many records as outputs: one in a memo of many small files could be superseded dozens of
   * times over before that.
   */
  lock: Memo<unknown>;
}

export interface SessionOptions {
  /** The site root: the folder holding content/. */
  root: string;
  /** false: nothing is read from or kept in `.cache/site` (`--no-cache`). */
  cache?: boolean;
  /** false: the caches are read but never written (`site check` writes nothing). */
  save?: boolean;
  /**
   * true: the session will build again (`site dev`'s build thread). It then also keeps in memory
   * what helps only a next build in the same process, and would only weigh on a single build.
   */
  rebuilds?: boolean;
  /**
   * Without the cache, a folder to write compiled bodies' HTML and text into, and read them back
   * from, rather than hold them all in memory (`site build --no-cache` gives a temporary one):
   * they are the largest part of a cold build's memory.
   */
  scratch?: string;
}

/**
 * Everything a build keeps beyond itself, in one object: the cached work (`Memos`), what it
 * remembers of the article files, the manifest of each output folder it wrote, and the
 * fingerprints of the pipeline code. A command makes one session and builds once; `site dev`'s
 * build thread keeps one for as long as the code it runs is unchanged, and tells it which files
 * changed. Cold, warm and dev builds take the same path: they differ only in what the session
 * already holds.
 */
export class BuildSession {
  readonly root: string;
  /** The build cache's folder; undefined with `cache: false`. */
  readonly cacheDir: string | undefined;
  readonly save: boolean;
  private readonly scratch: string | undefined;
  /** Whether this session swept the cache folder of what ended processes and old output folders left (`sweepCache`). */
  private swept = false;
  /** Whether the session will build again (`site dev`'s build thread): see `SessionOptions.rebuilds`. */
  readonly rebuilds: boolean;
  /** The words of each compiled body's link texts (LINK004), for as long as the body is held. */
  private readonly linkWords = new WeakMap<CompiledMarkdown, readonly string[]>();
  /** The internal links of each edition, while the edition lives (see `linkIndex`). */
  private readonly editionLinks = new WeakMap<ArticleEdition, InternalLink[]>();
  /** The last check's index of links (see `linkIndex`). */
  private readonly linkIndex: { indexed?: IndexedLinks } = {};
  /** The case clashes of each route list (see `checkRoutes`). */
  private readonly routeClashes = new WeakMap<readonly Route[], RouteClashes>();
  /** The marks of register of each JSON content value and Portuguese edition (see `checkRegister`). */
  private readonly register: RegisterMemo = { json: new WeakMap(), editions: new WeakMap() };
  /** What the rules judged article by article found in each article of the last check (see `byArticle`). */
  private readonly articleFindings: ArticleRulesMemo = new Map();
  /** The editions by the words of their link texts (see `EditionMemo.words`). */
  private readonly words: { last?: WordIndex } = {};
  /** The site-wide keys of the last check (see `EditionMemo.facts`). */
  private readonly facts: { last?: KnownFacts } = {};
  /**
   * The model and pages of the last build, which the next one shares what did not change with (see
   * `createSite`, `planPages`).
   */
  planned: PlannedSite | undefined;
  /** Each edition's feed item, when the session builds again (see `rssFeed`). */
  readonly feedItems: FeedItems | undefined;
  /** The search shards of the last build, by language (see `searchFiles`). */
  readonly shards: Partial<Record<Lang, PlannedShards>> = {};
  /** Each text's body as the last builds found it (see `compileBodies`), when the session builds again. */
  readonly markdown: MarkdownMemory | undefined;
  private readonly articles = articleFiles();
  /** The output folders it builds into, and what each holds. */
  readonly outputs: OutputFolders;
  /** The code it loads, and each kind of work's fingerprint. */
  readonly modules: LoadedModules;
  /** The threads that draw share cards, started when a build first has one to draw. */
  readonly cardThreads: CardThreads;
  private memos: Promise<Memos> | undefined;
  private media: Promise<MediaFolder> | undefined;
  private styles: Promise<string> | undefined;
  /** Each bilingual article's translation states as last worked out (translations/state.ts). */
  readonly translationStates: KnownStates = knownStates();
  /** The translation lock as the session last read it (translations/lock.ts). */
  readonly lock: { read?: ReadLock } = {};
  /**
   * Files the session was told changed (`invalidate`): written while it watched, so changed on the
   * day of their last write.
   */
  private readonly edited = new Set<string>();
  /** The day each content file last changed, asked once per file and content (translations/changed.ts). */
  readonly changeDays: (file: string, hash: string) => Promise<string>;
  /** The day each content file was found to have last changed, by its path (for `BuildRecord.days`). */
  readonly daysFound = new Map<string, string>();

  constructor(options: SessionOptions) {
    this.root = path.resolve(options.root);
    const ask = changeDays(this.root, (absolute) => this.edited.has(absolute));
    this.changeDays = async (file, hash) => {
      const day = await ask(file, hash);
      this.daysFound.set(file, day);
      return day;
    };
    this.cacheDir = options.cache === false ? undefined : path.join(this.root, '.cache', 'site');
    this.save = options.save !== false && this.cacheDir !== undefined;
    this.scratch = this.cacheDir ? undefined : options.scratch;
    this.rebuilds = options.rebuilds === true;
    this.cardThreads = new CardThreads(!this.rebuilds);
    this.markdown = this.rebuilds ? { seen: new WeakMap(), tables: new WeakMap() } : undefined;
    this.feedItems = this.rebuilds ? new WeakMap() : undefined;
    this.outputs = new OutputFolders(this.cacheDir, this.save, this.root);
    this.modules = new LoadedModules(this.cacheDir, this.save);
  }

  /**
   * The content folder as the build started (its footprint): the next load lists the article
   * files, and reads them, from what was taken then rather than looking at them again.
   */
  contentListed(content: ContentFiles): void {
    this.articles.listed = content;
  }

  /**
   * Files that may have changed since the last build (a watcher's report): they are read again,
   * from the file (not a rehearsed text). A folder (content/ written again by a branch switch),
   * reported with a separator at its end, stands for everything under it: every article file is
   * listed and looked at again.
   */
  invalidate(files: Iterable<string>): void {
    const media = this.mediaDir();
    const blog = path.join(this.root, 'content', 'blog');
    const within = (folder: string, file: string) => file === folder || file.startsWith(folder + path.sep);
    for (const file of files) {
      // A folder is reported with a separator at the end (see `folder` in dev/watch.ts).
      const isFolder = file.endsWith(path.sep);
      const absolute = path.resolve(file);
      this.articles.instead?.delete(absolute);
      if (within(media, absolute) || within(absolute, media)) this.media = undefined;
      if (absolute.endsWith('.css') || within(absolute, path.join(TOOL_ROOT, 'templates', 'styles')))
        this.styles = undefined;
      // A folder above the articles or among them: all are listed and looked at again.
      if (within(absolute, blog) || (isFolder && within(blog, absolute))) this.articles.stale = 'all';
      const { stale } = this.articles;
      if (stale !== 'all') stale.add(absolute);
      this.edited.add(absolute);
    }
  }

  /**
   * The next build reads `text` as the content of the article file `file`, which is not touched;
   * the build after it reads the file again. Built with `commit: 'none'`, this is a rehearsal of
   * an edit: it takes the edit's whole path (read, compile, check, render, index, write into a
   * folder that is then dropped) and leaves the output and the build cache's records as they were
   * (the rehearsed body's content is stored, and pruned as any other no longer used), so that V8
   * has optimized that path before the owner's first saves (`site dev`'s warm-up).
   */
  rehearse(file: string, text: string): void {
    this.articles.instead ??= new Map();
    this.articles.instead.set(path.resolve(file), Buffer.from(text));
  }

  /**
   * Counts ahead, a shard at a time, the search terms of every article the last build indexed that
   * the session does not hold yet (`countAhead`), until `stop` says otherwise: the first edit of an
   * article then counts that article alone, not the hundred others of its shard. `site dev` does
   * this while the owner reads.
   */
  async countAhead(stop: () => boolean): Promise<void> {
    const [{ search }, { pipeline }] = await Promise.all([this.cached(), this.modules.code()]);
    const site = this.planned?.site;
    if (!site || !search) return;
    for (const lang of LANGUAGES) {
      const planned = this.shards[lang];
      for (let shard = 0, held = 0; held >= 0; shard++) {
        for (let from = 0; from === 0 || from < held; from += COUNT_AHEAD) {
          // A request that arrives meanwhile is seen between two steps of COUNT_AHEAD articles.
          await new Promise((resolve) => setImmediate(resolve));
          if (stop()) return;
          held = countAhead(
            { site, lang, code: pipeline, indexed: search, last: planned },
            shard,
            from,
            from + COUNT_AHEAD,
          );
        }
      }
      // The terms counted ahead are in the table now: its size past which it is started again
      // (see `PlannedShards.limit`) is set from it by the next build, or they would all be dropped.
      if (planned) planned.limit = undefined;
    }
  }

  /**
   * The media folder's files and signature, as listed by the session's first build, and again
   * after a change under it was reported.
   */
  mediaFolder(): Promise<MediaFolder> {
    this.media ??= Promise.all([
      listMedia(this.root),
      treeSignature(this.mediaDir()),
      this.rasterMemo(),
      this.modules.code(),
    ]).then(async ([files, signature, memo, { pipeline }]) => {
      const known: KnownRasters = {
        get: (file, stat) => memo.get(file, { code: pipeline, stat }),
        set: (file, stat, image) => memo.set(file, { code: pipeline, stat }, image),
      };
      return { files, signature, images: await readRasters(this.mediaDir(), files, known) };
    });
    return this.media;
  }

  /** The raster images read by earlier builds (see `readRasters`), kept in the build cache. */
  private rasters: Promise<Memo<RasterImage>> | undefined;
  private rasterMemo(): Promise<Memo<RasterImage>> {
    this.rasters ??= Memo.open<RasterImage>(this.cacheDir && path.join(this.cacheDir, 'rasters.bin'));
    return this.rasters;
  }

  /** A hash of the tool's stylesheets, read once, and again after a change to a stylesheet was reported. */
  stylesheets(): Promise<string> {
    this.styles ??= import('../write/assets').then(({ stylesheetsHash }) => stylesheetsHash());
    return this.styles;
  }

  private mediaDir(): string {
    return path.join(this.root, 'content', 'media');
  }

  /** Every content file, loaded and validated, and the media folder's listing. */
  async load(): Promise<{ loaded: LoadResult; media: Set<string> }> {
    const [{ articles, json }, { load, pipeline }] = await Promise.all([this.cached(), this.modules.code()]);
    this.articles.parsed = {
      get: (file, hash) => articles.get(file, { code: load, text: hash }),
      set: (file, hash, parsed) => articles.set(file, { code: load, text: hash }, parsed),
      keepAll: () => articles.keepAll(),
      keep: (file) => articles.keep(file),
      // The signature is kept with the file's last parsed text: a file read again unchanged (its
      // times moved) is recorded under its new signature.
      hashAt: (file, signature) =>
        articles.latest(file)?.signature === signature ? articles.previous(file)?.text : undefined,
      readAt: (file, signature, hash) => {
        const inputs = { code: load, text: hash };
        const kept = articles.get(file, inputs);
        if (kept && kept.signature !== signature) articles.set(file, inputs, withFields(kept, { signature }));
      },
    };
    const [loaded, media] = await Promise.all([
      loadContent(this.root, this.articles, this.planned?.site.content, validatedJson(json, pipeline)),
      this.mediaFolder(),
    ]);
    return { loaded, media: media.files };
  }

  /** Each search shard's counted terms in the build cache (see `ShardTerms`); none when nothing is kept. */
  shardTerms(): ShardTerms | undefined {
    return this.cacheDir && this.save ? new ShardTerms(path.join(this.cacheDir, 'search')) : undefined;
  }

  /** The translation lock's value as earlier builds validated it (see `readLock`). */
  async validatedLock(): Promise<ValidatedJson> {
    const [{ lock }, { pipeline }] = await Promise.all([this.cached(), this.modules.code()]);
    return validatedJson(lock, pipeline);
  }

  cached(): Promise<Memos> {
    this.memos ??= (async () => {
      const file = (name: string) => (this.cacheDir ? path.join(this.cacheDir, `${name}.bin`) : undefined);
      const [articles, bodies, checks, ids, assets, json, lock] = await Promise.all([
        Memo.open<ParsedArticle>(file('articles'), packedArticles),
        Memo.open<StoredBody>(file('markdown'), packedFacts),
        Memo.open<KeptFindings>(file('checks'), keptFindings),
        Memo.open<readonly string[]>(file('ids')),
        Memo.open<BuiltAssets>(file('assets')),
        Memo.open<unknown>(file('json')),
        Memo.open<unknown>(file('lock'), packedLock),
      ]);
      const contents = await (this.scratch
        ? BodyContents.open(this.scratch, true)
        : BodyContents.open(this.cacheDir && path.join(this.cacheDir, 'bodies'), this.save));
      if (!this.rebuilds) return { articles, bodies, contents, checks, ids, assets, json, lock };
      const [search, titles] = await Promise.all([
        Memo.open<IndexedDocument>(undefined),
        Memo.open<TitleIndex>(undefined),
      ]);
      return { articles, bodies, contents, checks, ids, assets, json, lock, search, titles };
    })();
    return this.memos;
  }

  /**
   * What the check keeps: each edition's findings in the build cache while the pipeline code is
   * unchanged; in a session that builds again, the title index while no article's slug or title
   * changes, and the words of each body's link texts.
   */
  async checkMemo(): Promise<CheckMemo> {
    const [{ checks, titles }, { pipeline }] = await Promise.all([this.cached(), this.modules.code()]);
    // The title index lives on through a build that judged no link text, which a next one may.
    titles?.keep('titles');
    return {
      editions: {
        find: (file, whole, fine, unread) => {
          const kept = checks.get(file, { code: pipeline, ...whole });
          if (!kept) return undefined;
          if (!unread) return kept.fine === fine() ? kept.findings : undefined;
          agrees(`the findings kept for ${file}, whose link texts read no title that changed`, kept.fine, fine);
          return kept.findings;
        },
        set: (file, whole, fine, findings) => checks.set(file, { code: pipeline, ...whole }, { fine, findings }),
        titles: () => {
          const inputs = checks.previous(TITLES_ENTRY);
          const key = inputs?.titles;
          const { cacheDir } = this;
          if (inputs?.code !== pipeline || typeof key !== 'string') return undefined;
          return { key, parts: () => (cacheDir ? readTitleParts(cacheDir, key) : undefined) };
        },
        setTitles: (key, parts) => {
          const inputs = { code: pipeline, titles: key };
          if (checks.get(TITLES_ENTRY, inputs)) return;
          // The parts apart from the memo, which every build reads whole: they are read only after a title changed.
          if (this.cacheDir && this.save)
            writeTitleParts(this.cacheDir, key, parts, checks.previous(TITLES_ENTRY)?.titles);
          checks.set(TITLES_ENTRY, inputs, { fine: '', findings: NO_FINDINGS });
        },
        keep: (file) => checks.keep(file),
        keepAll: () => checks.keepAll(),
        ...(this.rebuilds && { linkWords: this.linkWords, facts: this.facts, words: this.words }),
      },
      ...(this.rebuilds && {
        links: this.editionLinks,
        index: this.linkIndex,
        register: this.register,
        clashes: this.routeClashes,
        articles: this.articleFindings,
      }),
      ...(titles && {
        titles: {
          get: (key) => titles.get('titles', { code: pipeline, articles: key }),
          set: (key, index) => titles.set('titles', { code: pipeline, articles: key }, index),
          previous: () => titles.latest('titles'),
        },
      }),
    };
  }

  /**
   * Ends a build that wrote `outDir`: its manifest (and the spare's, see `OutputFolders.record`),
   * the files it made (`made`, kept in the store of output files) and the work it used are kept
   * for the next.
   */
  async settle(
    outDir: string,
    written: { manifest: OutputManifest; spare?: OutputManifest; made?: ReadonlySet<string> } | undefined,
    plans?: readonly PagePlan[],
  ): Promise<void> {
    if (!this.save || !this.cacheDir) return;
    const [memos, rasters, media] = await Promise.all([this.cached(), this.rasterMemo(), this.mediaFolder()]);
    // The images of the media folder as it is, whether read by this build or an earlier one of the session.
    for (const file of media.images.keys()) rasters.keep(file);
    // Each file on its own: written side by side rather than one after another.
    await Promise.all([
      rasters.save(),
      this.outputs.record(outDir, written?.manifest, written?.spare, plans),
      memos.contents.flush(),
      memos.articles.save(),
      memos.bodies.save(),
      memos.checks.save(),
      memos.ids.save(),
      memos.assets.save(),
      memos.json.save(),
      memos.lock.save(),
      memos.search?.save(),
      memos.titles?.save(),
    ]);
    if (written?.made) this.outputs.keep(outDir, written.manifest, written.made);
    await memos.contents.prune(() => new Set(memos.bodies.values().map((stored) => stored.body.hash)));
    // Once a session: `site dev` settles after every save.
    if (!this.swept) {
      this.swept = true;
      await sweepCache(this.cacheDir, this.outputs.manifestFile(outDir) as string);
    }
  }
}

/** What a JSON file's value is made from: its text, and the schemas and parser (in the whole build's code). */
export function validatedJson(json: Memo<unknown>, code: string): ValidatedJson {
  // A file's text by its stat signature is kept under a name of its own: "<file> read at".
  const readAt = (file: string) => `${file} read at`;
  return {
    get: (file, text) => json.get(file, { code, text: digest(text) }),
    set: (file, text, value) => json.set(file, { code, text: digest(text) }, value),
    keep: (file) => json.keep(file),
    atSignature: (file, signature) => {
      const text = json.get(readAt(file), { signature });
      return typeof text === 'string' ? json.get(file, { code, text }) : undefined;
    },
    readAt: (file, signature, text) => json.set(readAt(file), { signature }, digest(text)),
  };
}
