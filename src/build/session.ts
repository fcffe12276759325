import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { ArticleRulesMemo } from '../check/byArticle';
import { type CheckMemo, listMedia } from '../check/check';
import type { EditionFindings, KnownFacts, WordIndex } from '../check/editions';
import type { IndexedLinks } from '../check/linkIndex';
import type { InternalLink } from '../check/links';
import type { TitleIndex } from '../check/linkText';
import type { RegisterMemo } from '../check/register';
import type { RouteClashes } from '../check/routes';
import { type RasterCatalogue, readRasters } from '../images/raster';
import { articleFiles, type ParsedArticle } from '../load/articles';
import { type LoadResult, loadContent } from '../load/content';
import { digest } from '../load/digest';
import type { CompiledMarkdown } from '../markdown/compile';
import type { ArticleEdition } from '../model/site';
import type { FeedItems } from '../publish/feed';
import type { PagePlan, PlannedSite } from '../render/plan';
import type { IndexedDocument } from '../search/shardIndex';
import { countAhead, type PlannedShards } from '../search/shards';
import { LANGUAGES, type Lang } from '../shared/lang';
import type { Route } from '../shared/route';
import { changeDays } from '../translations/changed';
import type { ReadLock } from '../translations/lock';
import { type KnownStates, knownStates } from '../translations/state';
import type { BuiltAssets } from '../write/assets';
import { treeSignature } from '../write/commit';
import { type ManifestLog, type OutputManifest, readManifest, readManifestLog, stillDescribes, writeManifest } from '../write/manifest';
import { BodyContents } from './bodyContents';
import { sweepCache } from './cacheSweep';
import { type CodeState, type Codes, codeState, TOOL_ROOT } from './fingerprint';
import type { MarkdownMemory, StoredBody } from './markdown';
import { Memo } from './memo';

/** Articles whose search terms `countAhead` counts in one step (about half a millisecond each). */
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
  checks: Memo<{ fine: string; findings: EditionFindings }>;
  /** The element ids of rendered pages other than articles, for the anchor checks. */
  ids: Memo<readonly string[]>;
  assets: Memo<BuiltAssets>;
  /** Each article edition's counted search terms, in memory only, when the session builds again. */
  search?: Memo<IndexedDocument>;
  /** The check's index of article titles (LINK004), in memory only, when the session builds again. */
  titles?: Memo<TitleIndex>;
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
   * they are the largest part of a cold build's memory (about 130 MB at 4,000 articles).
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
  private readonly save: boolean;
  private readonly scratch: string | undefined;
  /** Whether this session swept the cache folder of what ended processes and old output folders left (`sweepCache`). */
  private swept = false;
  private readonly rebuilds: boolean;
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
  /** The model and pages of the last build, which the next one shares what did not change with (see `createSite`, `planPages`). */
  planned: PlannedSite | undefined;
  /** Each edition's feed item, when the session builds again (see `rssFeed`). */
  readonly feedItems: FeedItems | undefined;
  /** The search shards of the last build, by language (see `searchFiles`). */
  readonly shards: Partial<Record<Lang, PlannedShards>> = {};
  /** Each text's body as the last builds found it (see `compileBodies`), when the session builds again. */
  readonly markdown: MarkdownMemory | undefined;
  private readonly articles = articleFiles();
  /** Each output folder's manifest, as its file in the build cache holds it. */
  private readonly manifests = new Map<string, ManifestLog>();
  /** The page plans each output this session wrote was made from, every one carried over or made (see `madeFrom`). */
  private readonly plansOf = new WeakMap<OutputManifest, readonly PagePlan[]>();
  private memos: Promise<Memos> | undefined;
  private media: Promise<MediaFolder> | undefined;
  private styles: Promise<string> | undefined;
  private codes: Promise<CodeState> | undefined;
  private compilerModule: Promise<typeof import('./compileEdition')> | undefined;
  private workerScript: Promise<string> | undefined;
  /** Each bilingual article's translation states as last worked out (translations/state.ts). */
  readonly translationStates: KnownStates = knownStates();
  /** The translation lock as the session last read it (translations/lock.ts). */
  readonly lock: { read?: ReadLock } = {};
  /** Files the session was told changed (`invalidate`): written while it watched, so changed on the day of their last write. */
  private readonly edited = new Set<string>();
  /** The day each content file last changed, asked once per file and content (translations/changed.ts). */
  readonly changeDays: (file: string, hash: string) => Promise<string>;
  private rendererModule: Promise<typeof import('../render/document')> | undefined;

  constructor(options: SessionOptions) {
    this.root = path.resolve(options.root);
    this.changeDays = changeDays(this.root, (absolute) => this.edited.has(absolute));
    this.cacheDir = options.cache === false ? undefined : path.join(this.root, '.cache', 'site');
    this.save = options.save !== false && this.cacheDir !== undefined;
    this.scratch = this.cacheDir ? undefined : options.scratch;
    this.rebuilds = options.rebuilds === true;
    this.markdown = this.rebuilds ? { seen: new WeakMap(), tables: new WeakMap() } : undefined;
    this.feedItems = this.rebuilds ? new WeakMap() : undefined;
  }

  /**
   * Files that may have changed since the last build (a watcher's report): they are read again,
   * from the file (not a rehearsed text). A folder (content/ written again by a branch switch)
   * stands for everything under it: every article file is listed and looked at again.
   */
  invalidate(files: Iterable<string>): void {
    const media = this.mediaDir();
    const blog = path.join(this.root, 'content', 'blog');
    const within = (folder: string, file: string) => file === folder || file.startsWith(folder + path.sep);
    for (const file of files) {
      const absolute = path.resolve(file);
      this.articles.instead?.delete(absolute);
      if (within(media, absolute) || within(absolute, media)) this.media = undefined;
      if (absolute.endsWith('.css') || within(absolute, path.join(TOOL_ROOT, 'templates', 'styles'))) this.styles = undefined;
      // A folder above the articles or among them (a file is an article's `.md`): all are listed and looked at again.
      if (within(absolute, blog) || (within(blog, absolute) && !absolute.endsWith('.md'))) this.articles.stale = 'all';
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
    const [{ search }, { pipeline }] = await Promise.all([this.cached(), this.code()]);
    const site = this.planned?.site;
    if (!site || !search) return;
    for (const lang of LANGUAGES) {
      const planned = this.shards[lang];
      for (let shard = 0, held = 0; held >= 0; shard++) {
        for (let from = 0; from === 0 || from < held; from += COUNT_AHEAD) {
          // A request that arrives meanwhile is seen between two steps of a few milliseconds.
          await new Promise((resolve) => setImmediate(resolve));
          if (stop()) return;
          held = countAhead(site, lang, pipeline, search, planned, shard, from, from + COUNT_AHEAD);
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
    this.media ??= Promise.all([listMedia(this.root), treeSignature(this.mediaDir())]).then(async ([files, signature]) => ({ files, signature, images: await readRasters(this.mediaDir(), files) }));
    return this.media;
  }

  /** A hash of the tool's stylesheets, read once, and again after a change to a stylesheet was reported. */
  stylesheets(): Promise<string> {
    this.styles ??= import('../write/assets').then(({ stylesheetsHash }) => stylesheetsHash());
    return this.styles;
  }

  /**
   * The markdown compiler, loaded the first time a build must compile a text: the toolchain takes
   * a while to load, and a build that finds every body made does not need it. Each import goes
   * through the module loader, so it is asked for once per session, not once per build.
   */
  compiler(): Promise<typeof import('./compileEdition').compileTracked> {
    this.compilerModule ??= import('./compileEdition');
    return this.compilerModule.then((module) => module.compileTracked);
  }

  /** The markdown worker threads' script, bundled the first time a build compiles texts on workers. */
  workerCode(): Promise<string> {
    this.workerScript ??= import('./workerCode').then((module) => module.compileWorkerCode());
    return this.workerScript;
  }

  /** React and the templates, loaded the first time a build must render a page (as `compiler`). */
  renderer(): Promise<typeof import('../render/document').renderDocument> {
    this.rendererModule ??= import('../render/document');
    return this.rendererModule.then((module) => module.renderDocument);
  }

  private mediaDir(): string {
    return path.join(this.root, 'content', 'media');
  }

  /** Every content file, loaded and validated, and the media folder's listing. */
  async load(): Promise<{ loaded: LoadResult; media: Set<string> }> {
    const [{ articles }, { load }] = await Promise.all([this.cached(), this.code()]);
    this.articles.parsed = {
      get: (file, hash) => articles.get(file, { code: load, text: hash }),
      set: (file, hash, parsed) => articles.set(file, { code: load, text: hash }, parsed),
      keepAll: () => articles.keepAll(),
      keep: (file) => articles.keep(file),
      // The signature is kept with the file's last parsed text: a file read again unchanged (its
      // times moved) is recorded under its new signature.
      hashAt: (file, signature) => (articles.latest(file)?.signature === signature ? articles.previous(file)?.text : undefined),
      readAt: (file, signature, hash) => {
        const inputs = { code: load, text: hash };
        const kept = articles.get(file, inputs);
        if (kept && kept.signature !== signature) articles.set(file, inputs, { ...kept, signature });
      },
    };
    const [loaded, media] = await Promise.all([loadContent(this.root, this.articles, this.planned?.site.content), this.mediaFolder()]);
    return { loaded, media: media.files };
  }

  cached(): Promise<Memos> {
    this.memos ??= (async () => {
      const file = (name: string) => (this.cacheDir ? path.join(this.cacheDir, `${name}.bin`) : undefined);
      const [articles, bodies, checks, ids, assets] = await Promise.all([
        Memo.open<ParsedArticle>(file('articles')),
        Memo.open<StoredBody>(file('markdown')),
        Memo.open<{ fine: string; findings: EditionFindings }>(file('checks')),
        Memo.open<readonly string[]>(file('ids')),
        Memo.open<BuiltAssets>(file('assets')),
      ]);
      const contents = this.scratch ? new BodyContents(this.scratch, true) : new BodyContents(this.cacheDir && path.join(this.cacheDir, 'bodies'), this.save);
      if (!this.rebuilds) return { articles, bodies, contents, checks, ids, assets };
      const [search, titles] = await Promise.all([Memo.open<IndexedDocument>(undefined), Memo.open<TitleIndex>(undefined)]);
      return { articles, bodies, contents, checks, ids, assets, search, titles };
    })();
    return this.memos;
  }

  /**
   * What the check keeps: each edition's findings in the build cache while the pipeline code is
   * unchanged; in a session that builds again, the title index while no article's slug or title
   * changes, and the words of each body's link texts.
   */
  async checkMemo(): Promise<CheckMemo> {
    const [{ checks, titles }, { pipeline }] = await Promise.all([this.cached(), this.code()]);
    // The title index lives on through a build that judged no link text, which a next one may.
    titles?.keep('titles');
    return {
      editions: {
        find: (file, whole, fine) => {
          const inputs = { code: pipeline, ...whole };
          const same = checks.get(file, inputs);
          if (same) return same.findings;
          const kept = checks.latest(file);
          if (!kept || checks.previous(file)?.code !== pipeline || kept.fine !== fine()) return undefined;
          // Found again by what its link texts read of the titles: kept under the new whole key.
          checks.set(file, inputs, kept);
          return kept.findings;
        },
        set: (file, whole, fine, findings) => checks.set(file, { code: pipeline, ...whole }, { fine, findings }),
        keep: (file) => checks.keep(file),
        keepAll: () => checks.keepAll(),
        ...(this.rebuilds && { linkWords: this.linkWords, facts: this.facts, words: this.words }),
      },
      ...(this.rebuilds && { links: this.editionLinks, index: this.linkIndex, register: this.register, clashes: this.routeClashes, articles: this.articleFindings }),
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
   * The fingerprint of each kind of work's code, worked out once per session from the import graph
   * of the modules that do it (see `WORK`): a change of code starts a new session.
   */
  code(): Promise<Codes> {
    return this.codeState().then((state) => state.codes);
  }

  /** The code files that changed since the code graph the build cache kept (for `--explain`). */
  codeChanges(): Promise<readonly string[]> {
    return this.codeState().then((state) => state.changed);
  }

  private codeState(): Promise<CodeState> {
    this.codes ??= (async () => {
      if (this.cacheDir && this.save) await mkdir(this.cacheDir, { recursive: true });
      return codeState(this.cacheDir && path.join(this.cacheDir, 'code.json'), this.save);
    })();
    return this.codes;
  }

  /** The manifest of what the last build wrote into `outDir`, when that folder is still intact. */
  async previousOutput(outDir: string): Promise<OutputManifest | undefined> {
    const file = this.manifestFile(outDir);
    if (!file) return undefined;
    const known = this.manifests.get(file);
    if (known) return stillDescribes(known.manifest, outDir);
    const read = await readManifest(file, outDir);
    // Kept as read: a build that changes nothing ends with this same manifest, and does not write it again.
    if (read) this.manifests.set(file, read);
    return read?.manifest;
  }

  /**
   * The page plans `manifest` was made from, when this session wrote it: a plan of a later build
   * that is one of these very objects, in the same place, has its page in that output from exactly
   * its inputs (plans are shared from build to build while nothing they read changed).
   */
  madeFrom(manifest: OutputManifest | undefined): readonly PagePlan[] | undefined {
    return manifest && this.plansOf.get(manifest);
  }

  /** Forgets what `outDir` holds (its manifest, here and in the build cache): the next build writes it whole. */
  async forgetOutput(outDir: string): Promise<void> {
    const file = this.manifestFile(outDir);
    if (!file) return;
    this.manifests.delete(file);
    await rm(file, { force: true });
  }

  /** The manifest of the output kept beside `outDir` by the last swap (see `spareFolder`), when the build cache has it. */
  async spareOutput(outDir: string): Promise<OutputManifest | undefined> {
    const file = this.manifestFile(outDir, 'spare');
    const read = file ? await readManifestLog(file) : undefined;
    // A log cut short may leave out files the folder holds: no spare is better than a wrong one.
    return read && Number.isFinite(read.records) ? read.manifest : undefined;
  }

  /**
   * Ends a build that wrote `outDir`: its manifest and the work it used are kept for the next, and
   * the manifest of the output a swap kept as the spare (the previous one, whose log it copies).
   */
  async settle(outDir: string, manifest: OutputManifest | undefined, spare?: OutputManifest, plans?: readonly PagePlan[]): Promise<void> {
    const file = this.manifestFile(outDir);
    if (!this.save || !file) return;
    if (manifest && plans) this.plansOf.set(manifest, plans);
    const memos = await this.cached();
    // The spare's log is the previous output's, as it was before this build appends to it. A
    // spare log is never wrong for long: it names its folder's inode, which a swap changes.
    const spareFile = this.manifestFile(outDir, 'spare') as string;
    if (spare && this.manifests.get(file)?.manifest === spare) {
      // Whole or not at all: a reader finds the old log or the new one.
      const temporary = `${spareFile}.${process.pid}.tmp`;
      await copyFile(file, temporary)
        .then(() => rename(temporary, spareFile))
        .catch(() => Promise.all([rm(temporary, { force: true }), rm(spareFile, { force: true })]));
    }
    const known = this.manifests.get(file);
    // Each file on its own: written side by side rather than one after another.
    const manifestWritten =
      manifest && known?.manifest !== manifest
        ? writeManifest(file, manifest, known).then((log) => {
            this.manifests.set(file, log);
          })
        : undefined;
    await Promise.all([
      manifestWritten,
      memos.contents.flush(),
      memos.articles.save(),
      memos.bodies.save(),
      memos.checks.save(),
      memos.ids.save(),
      memos.assets.save(),
      memos.search?.save(),
      memos.titles?.save(),
    ]);
    memos.contents.prune(memos.bodies.size, () => new Set(memos.bodies.values().map((stored) => stored.body.hash)));
    // Once a session: `site dev` settles after every save.
    if (!this.swept && this.cacheDir) {
      this.swept = true;
      await sweepCache(this.cacheDir, file);
    }
  }

  /** One manifest per output folder: `site dev` and `site build` write to different folders; and one for each one's spare. */
  private manifestFile(outDir: string, kind: 'output' | 'spare' = 'output'): string | undefined {
    return this.cacheDir && path.join(this.cacheDir, `${kind}-${digest(path.resolve(outDir)).slice(0, 12)}.log`);
  }
}
