import path from 'node:path';
import type { Diagnostic } from '../diagnostics/diagnostic';
import { hasErrors } from '../diagnostics/diagnostic';
import { checkSite, listMedia } from '../check/check';
import { checkMemory, type CheckMemory } from '../check/memory';
import { loadContent } from '../load/content';
import { deriveRoutes, routeTable } from '../model/routes';
import { createSite, markdownTexts, type Site } from '../model/site';
import type { CompiledMarkdown } from '../markdown/compile';
import { baseUrlOf, editionInputs, notFoundInputs, renderRedirect, type DocumentInputs, type RenderContext } from '../render/inputs';
import { feedUrl, rssFeed } from '../publish/feed';
import { webManifest } from '../publish/manifest';
import { robotsTxt, sitemapXml } from '../publish/sitemap';
import { LANGUAGES, type Lang } from '../shared/lang';
import { searchDocuments } from '../search/documents';
import { editionUrl, pageFile, type Route } from '../shared/route';
import type { BuiltAssets } from '../write/assets';
import { OutputWriter, StaleOutputError, type WriteReport } from '../write/output';
import { WorkCache } from './cache';
import type { TrackedBody } from './resolutions';
import { codeFingerprint, digest } from './fingerprint';
import { compileBodies } from './markdown';
import { pageKey } from './pageKey';
import type { QuickBase } from './quickEdit';
import { pageSignatures, type PageMemory, type PageSignatures } from './signatures';

/** A stage of the build, reported as it starts; `done`/`total` count its items when it has them. */
export interface BuildProgress {
  stage: 'load' | 'markdown' | 'check' | 'render' | 'search' | 'assets' | 'write';
  done?: number;
  total?: number;
}

export type ProgressListener = (progress: BuildProgress) => void;

/**
 * The pipeline code each kind of cached work depends on. Markdown bodies depend on the compiler
 * and link resolution only; pages, indexes and the bundle on templates and the whole pipeline.
 */
const MARKDOWN_CODE = ['src/markdown', 'src/build/compileEdition.ts', 'src/build/resolutions.ts', 'src/model/links.ts', 'src/shared/route.ts', 'src/shared/lang.ts'];
const PIPELINE_CODE = ['src', 'templates'];

export interface SiteLoad {
  /** Present when the content loaded without errors. */
  site?: Site;
  diagnostics: Diagnostic[];
  /** The files under content/media, by path below it. */
  media?: ReadonlySet<string>;
}

export interface LoadOptions {
  /** Reuse and refresh compiled markdown from the build cache under this root. */
  cache?: WorkCache<TrackedBody>;
  /**
   * `site dev`'s build thread: what it keeps between builds, the fingerprint of the pipeline code,
   * and the files changed since the last build (undefined: not known, look at every file).
   */
  dev?: { memory: BuildMemory; code: string; changed?: ReadonlySet<string> };
  onProgress?: ProgressListener;
}

/**
 * Load, model and check: every content file validated, routes derived, markdown compiled, then
 * every rule of `site check`. The site is returned only when no error was found.
 */
export async function loadSite(root: string, options: LoadOptions = {}): Promise<SiteLoad> {
  const progress = options.onProgress ?? (() => {});
  progress({ stage: 'load' });
  const { dev } = options;
  const [loaded, media] = await Promise.all([loadContent(root, dev?.changed), listMedia(root)]);
  if (!loaded.content) return { diagnostics: loaded.diagnostics };
  const content = loaded.content;
  const cache = options.cache ?? (await WorkCache.open<TrackedBody>(root, 'markdown', await codeFingerprint(MARKDOWN_CODE)));
  const texts = markdownTexts(content);
  const total = texts.length;
  progress({ stage: 'markdown', done: 0, total });
  const routes = deriveRoutes(content);
  const mediaDir = path.join(root, 'content', 'media');
  // A cached body is checked against the route table and image sizes it was compiled with; in
  // `site dev`, not again while neither the routes nor any media file changed since the last build.
  const table = routeTable(routes);
  const trusted = dev?.changed !== undefined && dev.memory.routes === table && ![...dev.changed].some((file) => file.startsWith(mediaDir + path.sep) || file === mediaDir);
  const bodies = await compileBodies(texts, { routes, imageCdn: content.config.imageCdn, mediaDir, trusted }, cache, (done) => progress({ stage: 'markdown', done, total }));
  if (dev) dev.memory.routes = table;
  // By the text itself, not a string made from it: the engine keeps a string's hash, and in
  // `site dev` the texts of unchanged files are the same strings from one build to the next.
  const byText: Record<Lang, Map<string, CompiledMarkdown>> = { en: new Map(), pt: new Map() };
  texts.forEach((t, i) => byText[t.lang].set(t.markdown, bodies[i]!));
  const { site, diagnostics } = createSite(
    content,
    (markdown, lang) => {
      const body = byText[lang].get(markdown);
      if (!body) throw new Error('createSite asked for markdown that markdownTexts does not list');
      return body;
    },
    routes,
  );
  progress({ stage: 'check' });
  const reuse = dev && { memory: dev.memory.check, signature: (route: Route, lang: Lang) => `${dev.code} ${pageSignatures(site).of(route, lang)}` };
  const all = [...loaded.diagnostics, ...diagnostics, ...checkSite(site, media, reuse)];
  return hasErrors(all) ? { diagnostics: all } : { site, diagnostics: all, media };
}

export interface RenderOptions {
  /** Fingerprint of the rendering code (templates, pipeline): part of every page's key. */
  code?: string;
  /** Search indexes by the hash of their documents. */
  indexes?: WorkCache<string>;
  /** Keep the previous search indexes, sitemap and feeds for now; `build` remakes them once the pages are out. */
  siteFilesLater?: boolean;
  /** `site dev`: page signatures, and the keys pages had, to skip keying pages that cannot have changed. */
  memory?: { signatures: PageSignatures; pages: PageMemory };
  onProgress?: ProgressListener;
}

/** React and the templates, loaded on the first page that must be rendered. */
function renderer(): Promise<typeof import('../render/document')> {
  return import('../render/document');
}

/** What a language's search index is built from: each edition's fields, its body by hash. */
function searchKeyText(site: Site, lang: Lang): string {
  return JSON.stringify(
    site.articles.flatMap((article) => {
      const edition = article.editions[lang];
      if (!edition) return [];
      const fm = edition.source.frontMatter;
      return [[edition.url, fm.title, fm.description, article.category, site.categories.get(article.category)?.data.title[lang], edition.body.hash]];
    }),
  );
}

/** Every page of the site with its kind, for the page-weight report. */
export interface PageEntry {
  path: string;
  kind: DocumentInputs['page']['kind'];
}

export interface RenderedSite {
  pages: Record<Lang, number>;
  entries: PageEntry[];
  /**
   * Files carried over as they were, to be made again after the pages are out (`siteFilesLater`):
   * the search indexes, sitemap, feeds and manifest, which no open tab is showing.
   */
  later: { file: string; make: () => Promise<string> }[];
}

/** A language's search index as JSON, from the cache when its documents are unchanged. */
async function searchIndex(site: Site, lang: Lang, cache: WorkCache<string> | undefined): Promise<string> {
  const key = digest(lang, searchKeyText(site, lang));
  let index = cache?.get(key);
  if (index === undefined) {
    const { buildSearchIndex } = await import('../shared/search');
    index = JSON.stringify(buildSearchIndex(lang, searchDocuments(site, lang)));
    cache?.set(key, index);
  }
  return index;
}

/**
 * Every HTML document of the site, its search indexes, sitemap, feeds and manifest, added to the
 * output as they are made. A page whose inputs hash the same as the one in the previous output is
 * carried over without rendering it again.
 */
export async function renderSite(ctx: RenderContext, writer: OutputWriter, options: RenderOptions = {}): Promise<RenderedSite> {
  const progress = options.onProgress ?? (() => {});
  const documents: { path: string; route?: Route; lang: Lang; inputs: () => DocumentInputs; body?: CompiledMarkdown }[] = [];
  const pages: Record<Lang, number> = { en: 0, pt: 0 };
  for (const route of ctx.site.routes) {
    for (const lang of route.meta.availableLangs) {
      const body = ctx.site.articleByPath.get(route.path)?.editions[lang]?.body;
      documents.push({ path: pageFile(editionUrl(route, lang)), route, lang, inputs: () => editionInputs(ctx, route, lang), ...(body ? { body } : {}) });
      pages[lang]++;
    }
  }
  documents.push({ path: '404.html', lang: 'en', inputs: () => notFoundInputs(ctx, 'en') });
  documents.push({ path: 'pt/404.html', lang: 'pt', inputs: () => notFoundInputs(ctx, 'pt') });

  const entries: PageEntry[] = [];
  const total = documents.length;
  const memory = options.memory;
  const remembered: PageMemory = new Map();
  // What every page depends on besides the content.
  const renderedWith = memory ? digest(options.code ?? '', JSON.stringify(ctx.styles), ctx.script, String(ctx.year), ctx.baseUrl ?? '') : '';
  for (const [i, doc] of documents.entries()) {
    if (i % 100 === 0) progress({ stage: 'render', done: i, total });
    const signature = memory && `${renderedWith} ${memory.signatures.of(doc.route, doc.lang)}`;
    const known = memory?.pages.get(doc.path);
    if (known && known.signature === signature && writer.previousKey(doc.path) === known.key) {
      // Made from the very same objects as last time: the same key, and the same file.
      writer.keep(doc.path);
      remembered.set(doc.path, known);
      entries.push({ path: doc.path, kind: known.kind });
      continue;
    }
    const inputs = doc.inputs();
    const key = pageKey(options.code ?? '', inputs, doc.body);
    if (writer.previousKey(doc.path) === key) writer.keep(doc.path);
    else await writer.add(doc.path, (await renderer()).renderDocument(inputs), key);
    if (signature !== undefined) remembered.set(doc.path, { signature, key, kind: inputs.page.kind });
    entries.push({ path: doc.path, kind: inputs.page.kind });
  }
  if (memory) {
    memory.pages.clear();
    for (const [file, known] of remembered) memory.pages.set(file, known);
  }
  progress({ stage: 'render', done: total, total });

  progress({ stage: 'search' });
  const base = baseUrlOf(ctx);
  const siteFiles: { file: string; make: () => Promise<string> }[] = [
    ...LANGUAGES.map((lang) => ({ file: `search/${lang}.json`, make: () => searchIndex(ctx.site, lang, options.indexes) })),
    { file: 'sitemap.xml', make: async () => sitemapXml(ctx.site, base) },
    { file: 'robots.txt', make: async () => robotsTxt(base) },
    ...LANGUAGES.map((lang) => ({ file: feedUrl(lang).slice(1), make: async () => rssFeed(ctx.site, lang, base) })),
    { file: 'manifest.webmanifest', make: async () => webManifest(ctx.site) },
    { file: 'index.html', make: async () => renderRedirect('en') },
    { file: 'pt.html', make: async () => renderRedirect('pt') },
  ];
  const later: RenderedSite['later'] = [];
  for (const siteFile of siteFiles) {
    if (options.siteFilesLater && writer.had(siteFile.file)) {
      writer.keep(siteFile.file);
      later.push(siteFile);
    } else {
      await writer.add(siteFile.file, await siteFile.make());
    }
  }
  return { pages, entries, later };
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
  /** Cancels the build (`site dev` when a newer change arrives); the output is left as it was. */
  signal?: AbortSignal;
  /** Replace changed files one by one instead of swapping the whole folder (site dev's own output). */
  inPlace?: boolean;
  /**
   * With `inPlace`: the pages are written first and this is called with their result; then the
   * search indexes (the slowest part of a small change on a large site), sitemap and feeds are
   * remade and replaced.
   * `site dev` reloads the open tabs at the callback.
   */
  onPagesWritten?: (result: BuildResult) => void;
  /** `site dev`'s build thread: what it keeps from one build to the next to skip unchanged work. */
  memory?: BuildMemory;
  /** With `memory`: every file changed since the last build, as a watcher reported them. */
  changed?: ReadonlySet<string>;
}

/** What a long-lived build process keeps between builds (see signatures.ts). */
export interface BuildMemory {
  pages: PageMemory;
  check: CheckMemory;
  /** The route table of the last build, which the compiled bodies in memory were checked against. */
  routes: string;
  /**
   * The last build whose pages were written and whose full check `check` remembers, for a quick
   * edit to start from (see quickEdit.ts); cleared by a quick edit until the next such build.
   */
  base?: QuickBase;
}

export function buildMemory(): BuildMemory {
  return { pages: new Map(), check: checkMemory(), routes: '' };
}

export interface BuildResult {
  ok: boolean;
  diagnostics: Diagnostic[];
  pages: Record<Lang, number>;
  milliseconds: number;
  /** Milliseconds spent in each stage, in the order they ran. */
  stages: Partial<Record<BuildProgress['stage'], number>>;
  /** The built output (present when ok), for the page-weight report. */
  output?: { entries: PageEntry[]; write: WriteReport };
}

/**
 * check, render every edition, bundle the client, write dist/ atomically. Work whose inputs and
 * code are unchanged since the last build (compiled markdown, rendered pages, search indexes, the
 * client bundle) comes from the build cache, and unchanged files are not written again.
 */
export async function build(options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const stages: BuildResult['stages'] = {};
  let current: { stage: BuildProgress['stage']; since: number } | undefined;
  const onProgress: ProgressListener = (progress) => {
    options.signal?.throwIfAborted();
    const now = performance.now();
    if (current?.stage !== progress.stage) {
      if (current) stages[current.stage] = (stages[current.stage] ?? 0) + now - current.since;
      current = { stage: progress.stage, since: now };
    }
    options.onProgress?.(progress);
  };
  const finish = () => {
    if (current) stages[current.stage] = (stages[current.stage] ?? 0) + performance.now() - current.since;
    return { stages, milliseconds: performance.now() - started };
  };
  // Set again once this build's pages are written: a build cancelled or failed leaves none.
  if (options.memory) options.memory.base = undefined;
  const cacheRoot = options.cache === false ? undefined : options.root;
  const [markdownCode, pipelineCode] = await Promise.all([codeFingerprint(MARKDOWN_CODE), codeFingerprint(PIPELINE_CODE)]);
  const markdown = await WorkCache.open<TrackedBody>(cacheRoot, 'markdown', markdownCode);
  const dev = options.memory && { memory: options.memory, code: pipelineCode, ...(options.changed ? { changed: options.changed } : {}) };
  const { site, diagnostics, media } = await loadSite(options.root, { cache: markdown, onProgress, ...(dev ? { dev } : {}) });
  if (!site) return { ok: false, diagnostics, pages: { en: 0, pt: 0 }, ...finish() };
  onProgress({ stage: 'assets' });
  const assetCache = await WorkCache.open<BuiltAssets>(cacheRoot, 'assets', pipelineCode);
  const assets = assetCache.get('client') ?? (await (await import('../write/assets')).buildAssets());
  assetCache.set('client', assets);
  const ctx: RenderContext = {
    site,
    styles: assets.styles,
    script: assets.script,
    year: options.year ?? new Date().getFullYear(),
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
  };
  const indexCache = await WorkCache.open<string>(cacheRoot, 'search', pipelineCode);
  const memory = options.memory && { signatures: pageSignatures(site), pages: options.memory.pages };
  // One manifest per output folder: `site dev` and `site build` write to different folders.
  const manifestFile = cacheRoot ? path.join(cacheRoot, '.cache', 'site', `output-${digest(path.resolve(options.outDir)).slice(0, 12)}.json`) : undefined;
  const copies = [{ from: path.join(options.root, 'content', 'media'), to: 'media' }];
  const write = async (reuse: boolean) => {
    const writer = await OutputWriter.open(options.outDir, manifestFile, { reuse, inPlace: options.inPlace ?? false });
    try {
      const rendered = await renderSite(ctx, writer, { code: pipelineCode, indexes: indexCache, siteFilesLater: Boolean(options.inPlace && options.onPagesWritten), onProgress, ...(memory ? { memory } : {}) });
      for (const file of assets.files) await writer.add(file.path, file.contents);
      onProgress({ stage: 'write' });
      return { ...rendered, write: await writer.commit(copies) };
    } catch (error) {
      await writer.abort();
      throw error;
    }
  };
  // A hand-deleted file in the previous output cannot be carried over: build it all again.
  const rendered = await write(true).catch((error: unknown) => {
    if (error instanceof StaleOutputError) return write(false);
    throw error;
  });
  const { pages, entries } = rendered;
  let report = rendered.write;
  if (options.memory && manifestFile && media) {
    options.memory.base = { root: options.root, outDir: options.outDir, manifestFile, copies, ctx, media, code: pipelineCode };
  }
  if (rendered.later.length > 0) {
    options.onPagesWritten?.({ ok: true, diagnostics, pages, ...finish(), output: { entries, write: report } });
    onProgress({ stage: 'search' });
    const writer = await OutputWriter.open(options.outDir, manifestFile, { inPlace: true });
    try {
      const remade = new Set(rendered.later.map((later) => later.file));
      for (const file of Object.keys(report.files)) if (!remade.has(file)) writer.keep(file);
      for (const later of rendered.later) await writer.add(later.file, await later.make());
      onProgress({ stage: 'write' });
      report = await writer.commit(copies);
    } catch (error) {
      await writer.abort();
      throw error;
    }
  }
  await Promise.all([markdown.save(), assetCache.save(), indexCache.save()]);
  return { ok: true, diagnostics, pages, ...finish(), output: { entries, write: report } };
}
