/**
 * The build: a short list of named stages (tasks.ts) over one session (session.ts).
 *
 *   load      every content file, validated            src/load
 *   markdown  every text compiled, or found cached     src/markdown, build/markdown.ts
 *   model     routes, articles, the site in memory     src/model
 *   assets    the client bundle and the stylesheets    src/write/assets.ts
 *   check     every rule of `site check`               src/check
 *   render    every page, or carried over unchanged    src/render
 *   search    each language's search index, in shards  src/search
 *   publish   sitemap, feeds, manifest, redirects,     src/publish
 *             and the pages' share cards               src/cards
 *   images    raster images' variants                  src/images
 *   write     the output swapped in (or updated)       src/write
 *
 * Every output is made from inputs written down as data (build/inputs.ts) and found again by
 * them; a cold build, a warm build and a `site dev` rebuild differ only in what the session holds.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type CardLook, readCardLook } from '../cards/look';
import { basisKey, type CardBasis } from '../cards/plan';
import { type CardFolder, type CardWork, cardFolder, publishCards, startCards } from '../cards/publish';
import { checkSite } from '../check/check';
import { idsInHtml, type RenderedIds } from '../check/ids';
import { type Diagnostic, hasErrors } from '../diagnostics/diagnostic';
import { encodeMissing, type ImageWork, publishImages, variantFolder } from '../images/publish';
import { isRaster } from '../images/raster';
import { type HeldEdition, type Publication, publishable, publishedToday } from '../model/publication';
import { deriveRoutes } from '../model/routes';
import { createSite, markdownTexts, type Site } from '../model/site';
import { type FeedItems, rssFeed } from '../publish/feed';
import { webManifest } from '../publish/manifest';
import { robotsTxt, sitemapXml } from '../publish/sitemap';
import { baseUrlOf, type RenderContext, renderRedirect } from '../render/inputs';
import {
  idInputs,
  lookOf,
  type PageBasis,
  type PagePlan,
  pageDocument,
  planCard,
  planPages,
  planPagesButArticles,
  type SiteHashes,
  siteHashes,
} from '../render/plan';
import { searchFiles } from '../search/shards';
import type { ShardTerms } from '../search/shardTerms';
import { LANGUAGES, type Lang } from '../shared/lang';
import type { PageProps } from '../shared/props';
import { feedUrl, pageFile, rootUrl } from '../shared/route';
import { readLock } from '../translations/lock';
import { translationStates } from '../translations/state';
import type { BuiltAssets, ScriptImports } from '../write/assets';
import {
  type Commit,
  type Copy,
  commitOutput,
  placeWritten,
  StaleOutputError,
  spareFolder,
  type WriteReport,
} from '../write/commit';
import { listFolderAhead } from '../write/folderListing';
import type { OutputManifest } from '../write/manifest';
import { Output } from '../write/output';
import type { Explain, Remade } from './explain';
import type { Codes } from './fingerprint';
import { contentFiles, type Footprint, SHAPING_ENVIRONMENT } from './footprint';
import { changedInputs, type Inputs, type PlannedFile, sameInputs } from './inputs';
import { compileBodies } from './markdown';
import { type BuildRecord, forgetBuild, keepBuild, lastBuild, outputFolder, stillHolds } from './replay';
import { BuildSession, type Memos } from './session';
import { agrees, CHECK_SHORTCUTS } from './shortcuts';
import { type ProgressListener, type Stage, Tasks } from './tasks';

export type { BuildProgress, ProgressListener } from './tasks';

export interface SiteLoad {
  /** Present when the content loaded without errors. */
  site?: Site;
  /**
   * The site as modelled, errors or not: present whenever the content could be modelled (the
   * external links are checked on it).
   */
  modelled?: Site;
  diagnostics: Diagnostic[];
  /** The files under content/media, by path below it. */
  media?: ReadonlySet<string>;
}

/** Every page of the site with its kind, for the page-weight report. */
export interface PageEntry {
  path: string;
  kind: PageProps['kind'];
}

export interface BuildOptions {
  /** Site root: the folder holding content/. */
  root: string;
  /** Output folder, replaced only when the whole build succeeds. */
  outDir: string;
  /** The year shown in the footer; defaults to the current year. */
  year?: number;
  /** Overrides the site config's absolute base URL for this build. */
  baseUrl?: string;
  /** Reuse work from `<root>/.cache/site` (default true); false builds everything from scratch. */
  cache?: boolean;
  onProgress?: ProgressListener;
  /** Also build drafts and scheduled articles, marked as such (`site dev`, `site build --drafts`). */
  drafts?: boolean;
  /** The build's day, "YYYY-MM-DD": articles dated later are scheduled (default: today, UTC). */
  today?: string;
  /** Cancels the build between two pieces of work; the output is left as it was. */
  signal?: AbortSignal;
  /**
   * How the new output replaces the old (default `swap`; see write/commit.ts); `none` makes it and
   * writes nothing, and the session keeps nothing of it on disk (a rehearsal, see `BuildSession.rehearse`).
   */
  commit?: Commit;
  /**
   * In place (`site dev`), the pages are put in place as soon as they are rendered (the check has
   * passed by then), before the search indexes and the rest are made, and told here with each
   * one's hash: an open tab can reload them meanwhile. From then on the build runs to its end.
   */
  onPages?: (pages: ReadonlyMap<string, string>) => void;
}

/** An article edition a build left out, by its file, and why (see `HeldEdition`). */
export interface HeldFile {
  source: { file: string };
  state: HeldEdition['state'];
}

export interface BuildResult {
  ok: boolean;
  diagnostics: Diagnostic[];
  pages: Record<Lang, number>;
  milliseconds: number;
  /** Milliseconds spent in each stage, in the order they ran. */
  stages: Partial<Record<Stage, number>>;
  /** The outputs made again, and the inputs that changed for each (`--explain`). */
  remade: Remade[];
  /** The article editions left out: drafts and scheduled ones (none when drafts are built). */
  held: readonly HeldFile[];
  /** The built output (present when ok and the build ran), for the page-weight report. */
  output?: { entries: PageEntry[]; write: WriteReport; scriptImports: ScriptImports };
  /**
   * Set when nothing the build reads changed since the last build, whose output is still in place
   * (see `BuildRecord`): nothing was made, and what that build said is said again. Its pages, with
   * their sizes, for the page-weight report.
   */
  replayed?: {
    entries: PageEntry[];
    sizes: ReadonlyMap<string, { bytes: number }>;
    scriptImports: ScriptImports;
  };
}

/**
 * `site build`: a session of its own, one build. Without the cache (`--no-cache`), compiled bodies
 * are kept in a temporary folder of the system's, removed at the end, as the cache would keep them.
 */
export async function build(options: BuildOptions): Promise<BuildResult> {
  if (options.cache !== false) return buildWithRecord(new BuildSession({ root: options.root }), options);
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'site-bodies-'));
  try {
    return await buildSite(new BuildSession({ root: options.root, cache: false, scratch }), options);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * A build that keeps its record (see `BuildRecord`) and, when its footprint is the last build's and
 * the output folder the one that build left, makes nothing and says again what that build said.
 * Under `SITE_CHECK_SHORTCUTS=1`, the build is run all the same and must agree: nothing written,
 * the same pages, the same diagnostics.
 */
async function buildWithRecord(session: BuildSession, asked: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const cacheDir = session.cacheDir;
  if (!cacheDir || (asked.commit ?? 'swap') !== 'swap') return buildSite(session, asked);
  // One day and one year for the build and its footprint, worked out once.
  const publication = publicationOf(asked);
  const options = { ...asked, today: publication.today, year: asked.year ?? new Date().getFullYear() };
  const [content, code, styles, record] = await Promise.all([
    contentFiles(session.root),
    session.modules.code(),
    session.stylesheets(),
    lastBuild(cacheDir),
  ]);
  const footprint = content.digest && {
    code,
    styles,
    node: process.version,
    publication,
    year: options.year,
    outDir: path.resolve(options.outDir),
    baseUrl: options.baseUrl,
    env: Object.fromEntries(SHAPING_ENVIRONMENT.map((name) => [name, process.env[name]])) as Footprint['env'],
    content: content.digest,
  };
  // Kept by a build that ran whole, with every content file settled, and wrote its output.
  const keep = async (result: BuildResult) => {
    const output = footprint && result.ok && result.output && (await outputFolder(footprint.outDir));
    if (!footprint || !result.output || !output) return;
    const { entries, write, scriptImports } = result.output;
    const files = write.manifest.files;
    await keepBuild(cacheDir, {
      footprint,
      days: [...session.daysFound],
      output,
      outcome: {
        diagnostics: result.diagnostics,
        pages: result.pages,
        held: result.held.map(({ source, state }) => ({ source: { file: source.file }, state })),
        entries: entries.map(({ path, kind }) => [path, kind, files.get(path)?.bytes ?? 0]),
        scriptImports,
      },
      // Without its record, the next build runs whole: nothing is lost.
    }).catch(() => {});
  };
  if (footprint && record && (await stillHolds(record, footprint, session.root))) {
    const replayed = replayOf(record, performance.now() - started);
    if (CHECK_SHORTCUTS) {
      const built = await buildSite(session, options);
      agreesWithBuild(replayed, built);
      await keep(built);
    }
    return replayed;
  }
  session.contentListed(content);
  const result = await buildSite(session, options);
  await keep(result);
  return result;
}

/** The result of a build that makes nothing: what the last one said, and its pages. */
function replayOf(record: BuildRecord, milliseconds: number): BuildResult {
  const { diagnostics, pages, held, entries, scriptImports } = record.outcome;
  return {
    ok: true,
    diagnostics: [...diagnostics],
    pages,
    milliseconds,
    stages: {},
    remade: [],
    held,
    replayed: {
      entries: entries.map(([path, kind]) => ({ path, kind })),
      sizes: new Map(entries.map(([path, , bytes]) => [path, { bytes }])),
      scriptImports,
    },
  };
}

/** Under `SITE_CHECK_SHORTCUTS=1`: a replayed build must be what the build says when run. */
function agreesWithBuild(replayed: BuildResult, built: BuildResult): void {
  const said = (result: BuildResult) => ({
    ok: result.ok,
    pages: result.pages,
    held: result.held.map(({ source, state }) => [source.file, state]),
    diagnostics: result.diagnostics,
    written: result.output?.write.written ?? 0,
  });
  agrees('the last build replayed', JSON.stringify(said(replayed)), () => JSON.stringify(said(built)));
}

/** `site check`: load, model and check, with what the build cache holds; nothing is written. */
export async function loadSite(root: string, publishing: Partial<Publication> = {}): Promise<SiteLoad> {
  const session = new BuildSession({ root, save: false });
  const tasks = new Tasks(undefined, undefined);
  const modelled = await model(session, tasks, () => {}, publicationOf(publishing));
  if (!modelled.site) return { diagnostics: modelled.diagnostics };
  const { site, media, diagnostics } = modelled;
  // Ids do not depend on styles: a page missing from the cache is rendered here with none.
  const none = { links: [] };
  const styles = {
    aboutme: none,
    professional: none,
    projects: none,
    atelier: none,
    blog: none,
    category: none,
    gallery: none,
    article: none,
    notfound: none,
  };
  const ctx: RenderContext = { site, styles, script: '/check.js', year: 2000 };
  // Nor on the page's share card (see `idInputs`): none is drawn.
  const cards = { code: '', look: '', host: '' };
  const basis = { code: (await session.modules.code()).pipeline, look: '', cards };
  // Only the pages whose ids it reads from their render: an article's ids come with its body.
  const plans = planPagesButArticles(site, siteHashes(site), basis);
  const ids = await renderedIds({
    plans,
    render: ctx,
    cards,
    memo: (await session.cached()).ids,
    rendered: new Map(),
    renderer: () => session.modules.renderer(),
  });
  const checkMemo = await session.checkMemo();
  const all = [...diagnostics, ...(await tasks.run('check', () => checkSite(site, media, ids, checkMemo)))];
  return hasErrors(all) ? { diagnostics: all, modelled: site } : { site, modelled: site, diagnostics: all, media };
}

/**
 * One build in a session: a flat list of named stages over one build context (`Build`), each a
 * plain function that reads what the stages before it made and adds what it makes. Work whose
 * inputs are unchanged since the session (or the build cache) last made it is found again.
 *
 *   images   the photos' variants, in a process of their own, alongside the stages up to publish
 *   model    load, markdown and model: the site in memory, or the errors that stop the build
 *   assets   the client bundle and the stylesheets
 *   plan     every page's inputs, as data, and its share card's; the cards not made yet start
 *            drawing on threads of their own
 *   check    every rule of `site check`; an error stops the build
 *   output   render, search, publish and write, into a new output or the last one in place
 *   settle   what the session keeps for the next build
 */
export async function buildSite(session: BuildSession, options: BuildOptions): Promise<BuildResult> {
  // Whatever this build does to the output, the last build's record no longer describes it.
  if (session.cacheDir && session.save) await forgetBuild(session.cacheDir);
  const build = await startBuild(session, options);
  try {
    if (!(await modelSite(build))) return await withImages(build);
    await build.tasks.run('assets', () => clientAssets(build));
    await planSite(build);
    await build.tasks.run('check', () => checkBuild(build));
    if (hasErrors(build.diagnostics)) return await withImages(build);
    await writeOutput(build);
    await settleBuild(build);
    return result(build);
  } finally {
    // Cards still to draw are not drawn for a build that ends without them (an error, a cancel).
    build.stopCards.abort();
    // A build that failed midway stops the encoder; the folder is removed once it has stopped.
    build.images.stop.abort();
    // A build of a session that builds again (`site dev`) keeps its threads: the fonts stay read.
    if (!session.rebuilds) await session.cardThreads.close();
    await Promise.all([build.cards?.drawing, build.images.encoded.catch(() => {})]);
    for (const folder of [build.images.work.folder, build.cardFolder])
      if (folder.temporary) await rm(folder.dir, { recursive: true, force: true });
  }
}

/** The result of a build that stops before its output, with the encoder's diagnostics among the others'. */
async function withImages(build: Build): Promise<BuildResult> {
  await imagesEncoded(build);
  return result(build);
}

/**
 * Everything one build works with, and what its stages have made so far: each stage reads the
 * fields of the stages before it (a stage that finds one missing is run out of order, a mistake
 * of the code).
 */
interface Build {
  session: BuildSession;
  options: BuildOptions;
  tasks: Tasks;
  /** The fingerprint of each kind of work's code. */
  code: Codes;
  /** The build cache's records, read by the load stage. */
  memos?: Memos;
  /** The outputs made again so far, which `explain` adds to (`--explain`). */
  remade: Remade[];
  explain: Explain;
  /**
   * The raster images and the folder of their variants, and the encoding of those it lacks, under
   * way from the build's start.
   */
  images: Encoding;
  /** Every diagnostic so far: the loader's and model's, the check's, the encoder's (ASSET004) once it has ended. */
  diagnostics: Diagnostic[];
  /** The site in memory and the media folder's files (the model stage). */
  site?: Site;
  media?: ReadonlySet<string>;
  /** The client bundle and stylesheets (the assets stage). */
  assets?: BuiltAssets;
  /** What every page is rendered with, each page's plan, the hashes they read (the plan stage). */
  render?: RenderContext;
  hashes?: SiteHashes;
  basis?: PageBasis;
  plans?: readonly PagePlan[];
  /** Pages the check rendered for their ids, handed on to the render stage: one render per page. */
  rendered: Map<string, string>;
  /** The folder of drawn share cards; the cards of the build and their drawing under way (the plan stage). */
  cardFolder: CardFolder;
  cards?: CardWork;
  /** What every card is drawn on and with (the plan stage). */
  cardLook?: CardLook;
  /** Stops the drawing of cards when the build ends without publishing them. */
  stopCards: AbortController;
  /** The output written (the output stage). */
  written?: NonNullable<BuildResult['output']>;
}

/** The context of a new build: its code, its caches, and the images' folder. */
async function startBuild(session: BuildSession, options: BuildOptions): Promise<Build> {
  const remade: Remade[] = [];
  const [code, codeChanges, folder, cards] = await Promise.all([
    session.modules.code(),
    session.modules.codeChanges(),
    session.mediaFolder(),
    cardFolder(session.cacheDir),
  ]);
  // Code is named by the files that changed in it, so that `--explain` after an edit of the tool says which.
  const codeNote = codeChanges.length > 0 ? `code: ${codeChanges.join(', ')}` : 'code';
  const explain: Explain = (output, changed) =>
    remade.push({ output, changed: changed.map((name) => (name === 'code' ? codeNote : name)) });
  const mediaDir = path.join(session.root, 'content', 'media');
  const work: ImageWork = {
    images: folder.images,
    mediaDir,
    code: code.images,
    folder: await variantFolder(session.cacheDir, code.images),
  };
  const tasks = new Tasks(options.onProgress, options.signal);
  const images = encodeAlongside(work, tasks, explain, options.signal);
  return {
    session,
    options,
    tasks,
    code,
    remade,
    explain,
    images,
    diagnostics: [],
    rendered: new Map(),
    cardFolder: cards,
    stopCards: new AbortController(),
  };
}

/** What a build ends with: its pages when it wrote an output, its diagnostics either way. */
function result(build: Build): BuildResult {
  const { tasks, diagnostics, remade, written, plans } = build;
  const base = { diagnostics, stages: tasks.timings, milliseconds: tasks.milliseconds, remade };
  if (!written || !plans || !build.site) return { ...base, ok: false, pages: { en: 0, pt: 0 }, held: [] };
  const pages = { en: 0, pt: 0 };
  for (const plan of plans) if (plan.route) pages[plan.lang]++;
  return { ...base, ok: true, pages, held: build.site.held, output: written };
}

/** The images stage under way: its work, its end, and what stops it. */
interface Encoding {
  work: ImageWork;
  /** The encoder's diagnostics (ASSET004 for each source it cannot read), once it has ended. */
  encoded: Promise<Diagnostic[]>;
  /** Stops the encoder, for a build that failed before it needed the variants. */
  stop: AbortController;
  /** Whether its diagnostics were added to the build's. */
  reported?: boolean;
}

/**
 * The images stage, started with the build: each raster image's variants the cache lacks are
 * encoded in a process of their own while this one models, checks and renders the site. The
 * encoder uses about as many cores as the machine has, but not all of them all the time, and the
 * render stage leaves one idle: run before the other stages, its time was added to theirs. The
 * variants are needed by the publish stage (and by pages put in place as they are rendered, in
 * `site dev`), which waits for them.
 */
function encodeAlongside(work: ImageWork, tasks: Tasks, explain: Explain, signal: AbortSignal | undefined): Encoding {
  const stop = new AbortController();
  const both = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
  const encoded = tasks.alongside('images', () => encodeMissing(work, explain, both));
  // Settled by the stage that needs it; until then a failure is not an unhandled rejection.
  encoded.catch(() => {});
  return { work, encoded, stop };
}

/** Waits for the encoder, and adds its diagnostics to the build's once. */
async function imagesEncoded(build: Build): Promise<void> {
  const problems = await build.images.encoded;
  if (build.images.reported) return;
  build.images.reported = true;
  build.diagnostics.push(...problems);
}

/** The load, markdown and model stages: false when the site could not be modelled. */
async function modelSite(build: Build): Promise<boolean> {
  const modelled = await model(build.session, build.tasks, build.explain, publicationOf(build.options));
  // Read by the load stage (see `BuildSession.load`): here already.
  build.memos = await build.session.cached();
  build.diagnostics.push(...modelled.diagnostics);
  if (!modelled.site) return false;
  build.site = modelled.site;
  build.media = modelled.media;
  return true;
}

/**
 * The plan stage: what every page is rendered with, each page's inputs as data, and its share
 * card's; the cards that neither the previous output nor the folder of drawn cards holds start
 * drawing, on threads of their own, while this one checks, renders and indexes.
 */
async function planSite(build: Build): Promise<void> {
  const { session, options, code } = build;
  const site = need(build.site, 'the site');
  const assets = need(build.assets, 'the assets');
  const render: RenderContext = {
    site,
    styles: assets.styles,
    script: assets.script,
    year: options.year ?? new Date().getFullYear(),
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    ...(site.publication.drafts ? { preview: site.publication.today } : {}),
  };
  const look = await readCardLook(session.root, site.content.owner.avatar);
  const hashes = siteHashes(site, session.planned);
  const basis: PageBasis = {
    code: code.pipeline,
    look: lookOf(render),
    cards: { code: code.cards, look: look.hash, host: new URL(baseUrlOf(render)).host },
  };
  const plans = planPages(site, hashes, basis, session.planned);
  session.planned = { site, hashes, plans, cards: basisKey(basis.cards) };
  Object.assign(build, { render, hashes, basis, plans, cardLook: look });
  // Pages put in place as they are rendered (`site dev`) are shown first: finding which of the
  // site's cards to draw looks at every page, and waits until they are placed (see `writeInto`).
  if ((options.commit ?? 'swap') !== 'in-place') await startCardDrawing(build);
}

/**
 * The cards that neither the previous output nor the folder of drawn cards holds start drawing, on
 * threads of their own; the publish stage waits for them.
 */
async function startCardDrawing(build: Build): Promise<void> {
  const { session, options } = build;
  const signal = options.signal ? AbortSignal.any([options.signal, build.stopCards.signal]) : build.stopCards.signal;
  const previous = await session.outputs.previousOutput(options.outDir);
  build.cards = await startCards({
    plans: need(build.plans, 'the plans'),
    site: need(build.site, 'the site'),
    basis: need(build.basis, 'the basis').cards,
    previous,
    folder: build.cardFolder,
    look: need(build.cardLook, "the cards' look"),
    threads: session.cardThreads,
    signal,
  });
}

/** The check stage: every rule, with the ids of the rendered pages. */
async function checkBuild(build: Build): Promise<void> {
  const { session, rendered } = build;
  const memos = need(build.memos, 'the caches');
  const ids = await renderedIds({
    plans: need(build.plans, 'the plans'),
    render: need(build.render, 'the render context'),
    cards: need(build.basis, 'the basis').cards,
    memo: memos.ids,
    rendered,
    renderer: () => session.modules.renderer(),
  });
  build.diagnostics.push(
    ...checkSite(need(build.site, 'the site'), need(build.media, 'the media'), ids, await session.checkMemo()),
  );
}

/**
 * The output stages, render, search, publish and write: into a new folder swapped in at the end,
 * or in place (`site dev`). A hand-deleted file of the previous output cannot be carried over: the
 * output is then made again whole.
 */
async function writeOutput(build: Build): Promise<void> {
  const { session, options } = build;
  const intact = await session.outputs.previousOutput(options.outDir);
  // No output folder that is the last output (a fresh clone given the build cache): a new folder
  // made by a swap can take the last output's files from the cache's store.
  const restored =
    !intact && (options.commit ?? 'swap') === 'swap' ? await session.outputs.restorable(options.outDir) : undefined;
  build.written = await writeInto(build, intact ?? restored, restored !== undefined)
    .catch((error: unknown) => {
      if (error instanceof StaleOutputError) return writeInto(build, undefined, false);
      throw error;
    })
    .catch((error: unknown) => {
      // The output was given up, the last one left as it was: the encoder's errors say why.
      if (error instanceof UnreadableImages) return undefined;
      throw error;
    });
}

/** A source the encoder could not read as an image (ASSET004): the output is not written. */
class UnreadableImages extends Error {}

/**
 * Waits for the photos' variants; throws when a source could not be encoded, its error among the
 * build's diagnostics.
 */
async function variantsReady(build: Build): Promise<void> {
  await imagesEncoded(build);
  if (hasErrors(build.diagnostics)) throw new UnreadableImages('a source image could not be read');
}

async function writeInto(
  build: Build,
  previous: OutputManifest | undefined,
  restored: boolean,
): Promise<NonNullable<BuildResult['output']>> {
  const { session, options, tasks, explain, code, rendered } = build;
  const memos = need(build.memos, 'the caches');
  const site = need(build.site, 'the site');
  const assets = need(build.assets, 'the assets');
  const plans = need(build.plans, 'the plans');
  const render = need(build.render, 'the render context');
  const how = options.commit ?? 'swap';
  // In place, pages are served as they are: compressing them would only slow `site dev` down (and a rehearsal of it).
  const output = await Output.open(options.outDir, previous, {
    compress: how === 'swap' || !previous,
    restoredFrom: restored ? session.outputs.store : undefined,
  });
  // A swap that may start from the spare lists its folder now, on the thread pool, rather than at
  // the end of the build on this thread (tens of thousands of files on a large site).
  const spareListed =
    how === 'swap' && previous && !restored ? listFolderAhead(spareFolder(options.outDir)) : undefined;
  try {
    // First, so that the densest compression of the build (brotli 11 of the client script) runs
    // on zlib's threads while the pages are rendered.
    for (const file of assets.files) await output.add(file.path, file.contents);
    // Pages put in place as they are rendered are shown at once: their photos must be there.
    if (how === 'in-place') await variantsReady(build);
    const entries = await tasks.run('render', (progress) =>
      renderPages({
        plans,
        before: session.outputs.madeFrom(previous),
        render,
        cards: need(build.basis, 'the basis').cards,
        output,
        rendered,
        renderer: () => session.modules.renderer(),
        explain,
        progress,
      }),
    );
    // The pages written, the threads compressing them end: the files made after are few.
    await output.endThreads();
    if (how === 'in-place' && previous && options.onPages) {
      const placed = await placeWritten(output);
      tasks.finishing();
      if (placed.size > 0) options.onPages(placed);
    }
    // Put in place, a build's pages are shown before its cards start drawing (see `planSite`).
    if (!build.cards) await startCardDrawing(build);
    // A session counts terms into its memo; a build of its own reads them back from the shards' files.
    const store = memos.search ? undefined : session.shardTerms();
    await tasks.run('search', () =>
      searchIndexes({ site, code: code.pipeline, indexed: memos.search, store, last: session.shards, output, explain }),
    );
    await variantsReady(build);
    await tasks.run('publish', async () => {
      await publishFiles({
        render,
        hashes: need(build.hashes, 'the hashes'),
        basis: need(build.basis, 'the basis'),
        output,
        explain,
        ...(session.feedItems && { feedItems: session.feedItems }),
      });
      await publishImages(build.images.work, output);
      await publishCards(need(build.cards, 'the cards'), output, explain, how !== 'none');
      // Its cards drawn, a build that is not followed by another ends the drawing thread now, not
      // after the write: what it holds is not added to the write's memory.
      if (!session.rebuilds) await session.cardThreads.close();
    });
    // Raster images are published as their variants alone (the images stage), never as they are.
    const copies: Copy[] = [
      {
        from: build.images.work.mediaDir,
        to: 'media',
        signature: (await session.mediaFolder()).signature,
        exclude: isRaster,
      },
    ];
    // The spare's manifest (a log as long as the output's) is read only by a swap: a build that
    // changed nothing makes none.
    const spare = how === 'swap' ? () => session.outputs.spareOutput(options.outDir) : undefined;
    return {
      entries,
      write: await tasks.run('write', () => commitOutput(output, copies, how, spare, spareListed)),
      scriptImports: assets.scriptImports,
    };
  } catch (error) {
    await output.abort();
    // Pages put in place ahead of a build that then failed: the output is no longer the one its
    // manifest describes, and the next build writes it whole.
    if (output.placed.size > 0) await session.outputs.forgetOutput(options.outDir);
    throw error;
  }
}

/** What the session keeps of the build for the next one: the output's manifest and the work it used. */
async function settleBuild(build: Build): Promise<void> {
  const { session, options, written, plans } = build;
  if (options.commit === 'none' || !written) return;
  // The files a swap made are kept in the cache's store; `site dev`'s, rewritten in place, are not.
  const { manifest, spare, made } = written.write;
  await session.settle(
    options.outDir,
    { manifest, ...(spare && { spare }), ...(options.commit !== 'in-place' && { made }) },
    plans,
  );
}

/** A field a stage before this one made: missing only when the stages run out of order. */
function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`the build has no ${what} yet: a stage ran out of order`);
  return value;
}

/** What a build publishes, from its options: no drafts, and today's date, unless told otherwise. */
function publicationOf(options: { drafts?: boolean | undefined; today?: string | undefined }): Publication {
  const today = publishedToday();
  return { drafts: options.drafts ?? today.drafts, today: options.today ?? today.today };
}

/**
 * The load, markdown and model stages: the site in memory, or the errors that stop it. Article
 * editions the build does not publish (drafts, scheduled ones) are set aside before anything is
 * made from the content, so no page, listing or index ever sees them.
 */
async function model(
  session: BuildSession,
  tasks: Tasks,
  explain: Explain,
  publication: Publication,
): Promise<SiteLoad & { diagnostics: Diagnostic[]; media: ReadonlySet<string> }> {
  const { loaded, media } = await tasks.run('load', () => session.load());
  if (!loaded.content) return { diagnostics: loaded.diagnostics, media };
  const { content, held } = publishable(loaded.content, publication);
  const [memos, code, folder] = await Promise.all([session.cached(), session.modules.code(), session.mediaFolder()]);
  // The last build's model: what did not change is shared with it (see createSite).
  const previous = session.planned?.site;
  const routes = deriveRoutes(content, previous);
  const texts = markdownTexts(content);
  const bodies = await tasks.run('markdown', (progress) =>
    compileBodies(texts, {
      site: {
        routes: previous?.routes === routes ? previous.routeByPath : new Map(routes.map((r) => [r.path, r])),
        imageCdn: content.config.imageCdn,
        mediaDir: path.join(session.root, 'content', 'media'),
        images: folder.images,
      },
      routes,
      media: folder.signature,
      memo: memos.bodies,
      contents: memos.contents,
      ...(session.markdown && { memory: session.markdown }),
      code: code.markdown,
      compiler: () => session.modules.compiler(),
      workerCode: () => session.modules.workerCode(),
      explain,
      progress,
    }),
  );
  session.modules.keepCompilerCode();
  // Every edition's translation state, drafts included (`site translations` lists them too): worked
  // out after the markdown stage, whose worker threads are gone by then (the peak of a cold build).
  const lockProblems: Diagnostic[] = [];
  const lock = await readLock(session.root, lockProblems, session.lock, await session.validatedLock());
  // A broken lock is its own error: no translation is judged against it.
  const translations = lock
    ? await translationStates(loaded.content, lock, session.changeDays, session.translationStates)
    : { editions: new Map(), texts: [] };
  return tasks.run('model', () => {
    // The site is modelled from what loaded even when some files did not: the check still reports
    // on the rest, and the errors stop the build after it.
    const { site, diagnostics } = createSite(content, bodies, routes, {
      previous,
      images: folder.images,
      publication,
      held,
      translations,
    });
    return { site, diagnostics: [...loaded.diagnostics, ...lockProblems, ...diagnostics], media };
  });
}

type RenderDocument = typeof import('../render/document').renderDocument;
/** The page renderer, loaded when the first page must be rendered (see `BuildSession.renderer`). */
type Renderer = () => Promise<RenderDocument>;

/** What `renderedIds` reads. */
interface IdWork {
  plans: readonly PagePlan[];
  render: RenderContext;
  /** What the share cards the pages name are drawn with. */
  cards: CardBasis;
  /** The ids of each page, by its inputs. */
  memo: Memos['ids'];
  /** Pages rendered here, left for the render stage. */
  rendered: Map<string, string>;
  renderer: Renderer;
}

/**
 * The ids of every page other than an article (and of the layout, from the Not Found page), from
 * the ids memo while a page's inputs are unchanged, or read from the page rendered now; pages
 * rendered here are left in `rendered` for the render stage.
 */
async function renderedIds({ plans, render: ctx, cards, memo, rendered, renderer }: IdWork): Promise<RenderedIds> {
  const byPage = new Map<string, readonly string[]>();
  const name = (plan: Pick<PagePlan, 'route' | 'lang'>) => `${plan.lang} ${plan.route?.path ?? '404'}`;
  let render: RenderDocument | undefined;
  for (const plan of plans) {
    if (plan.kind === 'article') continue;
    const inputs = idInputs(plan);
    let ids = memo.get(plan.file, inputs);
    if (!ids) {
      render ??= await renderer();
      const html = render(pageDocument(ctx, plan, planCard(plan, ctx.site, cards)));
      rendered.set(plan.file, html);
      ids = idsInHtml(html);
      memo.set(plan.file, inputs, ids);
    }
    byPage.set(name(plan), ids);
  }
  return (route, lang) => byPage.get(name({ route, lang })) ?? [];
}

/** The assets stage: the client bundle and stylesheets, made again when their code or a stylesheet changed. */
async function clientAssets(build: Build): Promise<void> {
  const { code, session, explain } = build;
  const memos = need(build.memos, 'the caches');
  const inputs: Inputs = { code: code.assets, styles: await session.stylesheets() };
  const known = memos.assets.get('client', inputs);
  if (known) {
    build.assets = known;
    return;
  }
  explain('assets', changedInputs(memos.assets.previous('client'), inputs));
  const { buildAssets } = await import('../write/assets');
  const assets = await buildAssets();
  memos.assets.set('client', inputs, assets);
  build.assets = assets;
}

/** What `renderPages` reads and writes. */
interface PageWork {
  plans: readonly PagePlan[];
  /** The plans the previous output was made from, when this session wrote it (see `BuildSession.madeFrom`). */
  before: readonly PagePlan[] | undefined;
  render: RenderContext;
  /** What the share cards the pages name are drawn with. */
  cards: CardBasis;
  output: Output;
  /** Pages the check rendered already. */
  rendered: ReadonlyMap<string, string>;
  renderer: Renderer;
  explain: Explain;
  progress: (done: number, total: number) => void;
}

/**
 * Every page: carried over when made from the same inputs as in the previous output, rendered
 * otherwise. A plan that is the very one the previous output was made from (`before`, in the same
 * place) is carried over without looking its file up: a save's build would otherwise look up every
 * page among all the output's files before its own page is in place, work that grows with the site.
 */
async function renderPages({
  plans,
  before,
  render: ctx,
  cards,
  output,
  rendered,
  renderer,
  explain,
  progress,
}: PageWork): Promise<PageEntry[]> {
  const total = plans.length;
  // React and the templates are loaded on the first page that must be rendered.
  let render: RenderDocument | undefined;
  for (const [i, plan] of plans.entries()) {
    if (i % 100 === 0) progress(i, total);
    if (plan === before?.[i]) {
      // The very plan the previous output was made from, in the same place: its record is the same.
      agrees(`${plan.file} carried over by its plan`, true, () =>
        sameInputs(output.previousInputs(plan.file), plan.inputs),
      );
      output.carryMade(plan.file);
      continue;
    }
    if (output.carry(plan.file, plan.inputs)) continue;
    explain(plan.file, changedInputs(output.previousInputs(plan.file), plan.inputs));
    render ??= rendered.has(plan.file) ? render : await renderer();
    // The page's string is never held across the wait (see Output.add).
    const card = planCard(plan, ctx.site, cards);
    await output.add(
      plan.file,
      rendered.get(plan.file) ?? (render as RenderDocument)(pageDocument(ctx, plan, card)),
      plan.inputs,
      card.file,
    );
  }
  progress(total, total);
  return plans.map((plan) => ({ path: plan.file, kind: plan.kind }));
}

/** What `searchIndexes` reads and writes. */
interface SearchWork {
  site: Site;
  /** The fingerprint of the code that makes the shards. */
  code: string;
  /** Each edition's counted terms, in a session that builds again. */
  indexed: Memos['search'];
  /** Each shard's counted terms in the build cache, for a build without the session's memo. */
  store: ShardTerms | undefined;
  /** The shards of the session's last build, by language. */
  last: BuildSession['shards'];
  output: Output;
  explain: Explain;
}

/** Each language's search index, shard by shard: a shard is carried over while its articles are unchanged. */
async function searchIndexes({ site, code, indexed, store, last, output, explain }: SearchWork): Promise<void> {
  for (const lang of LANGUAGES)
    await addPlanned(searchFiles({ site, lang, code, indexed, store, last }), output, explain);
}

/** What `publishFiles` reads and writes. */
interface PublishWork {
  render: RenderContext;
  hashes: SiteHashes;
  basis: PageBasis;
  output: Output;
  explain: Explain;
  /** Each edition's feed item, in a session that builds again. */
  feedItems?: FeedItems;
}

/**
 * The files made from the whole site (sitemap, feeds, web manifest, the root's redirects), each
 * from the hashes the pages use, so a body edit, which changes no listing, makes none of them; and
 * the client bundle's files, which are written when they changed.
 */
async function publishFiles({ render: ctx, hashes, basis, output, explain, feedItems }: PublishWork): Promise<void> {
  const base = () => baseUrlOf(ctx);
  const whole = { code: basis.code, look: basis.look, site: hashes.site };
  const files: PlannedFile[] = [
    // The routes and the articles' dates: a title edit does not change it.
    { file: 'sitemap.xml', inputs: { ...whole, dates: hashes.dates }, make: () => sitemapXml(ctx.site, base()) },
    { file: 'robots.txt', inputs: whole, make: () => robotsTxt(base()) },
    ...LANGUAGES.map(
      (lang): PlannedFile => ({
        file: feedUrl(lang).slice(1),
        inputs: { ...whole, listing: hashes.listing(undefined, lang) },
        make: () => rssFeed(ctx.site, lang, base(), feedItems),
      }),
    ),
    { file: 'manifest.webmanifest', inputs: whole, make: () => webManifest(ctx.site) },
    ...LANGUAGES.map(
      (lang): PlannedFile => ({
        file: pageFile(rootUrl(lang)),
        inputs: { code: basis.code },
        make: () => renderRedirect(lang),
      }),
    ),
  ];
  await addPlanned(files, output, explain);
}

/** Files made from declared inputs: carried over while those are unchanged, made and added otherwise. */
async function addPlanned(files: readonly PlannedFile[], output: Output, explain: Explain): Promise<void> {
  for (const { file, inputs, make } of files) {
    if (output.carry(file, inputs)) continue;
    explain(file, changedInputs(output.previousInputs(file), inputs));
    await output.add(file, make(), inputs);
  }
}
