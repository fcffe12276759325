/**
 * `site dev`'s answer to the most common save: the body of an article edited, its front matter as
 * it was. Then only that edition's page can change, and only its own links, ids and media, and
 * the links into it, can break. This rebuilds just that, from the site model of the last build,
 * so that the open tab reloads at once; the ordinary build runs right after it, and settles
 * everything else (search index, warnings, and anything this path declines).
 *
 * It declines (returns undefined, writing nothing) whenever the save is anything else: another
 * kind of file, a new or removed file, changed front matter, a markdown problem or any error.
 */
import path from 'node:path';
import { checkEdition } from '../check/check';
import type { CheckMemory } from '../check/memory';
import { splitHref } from '../check/targets';
import { hasErrors, type Diagnostic } from '../diagnostics/diagnostic';
import { readArticleFile } from '../load/articles';
import { relativeFile } from '../load/files';
import type { Article, ArticleEdition, Site } from '../model/site';
import { editionInputs, type RenderContext } from '../render/inputs';
import type { Lang } from '../shared/lang';
import { pageFile, type Route } from '../shared/route';
import { OutputWriter, type WriteReport } from '../write/output';
import { pageKey } from './pageKey';
import { pageSignatures } from './signatures';

/** What the last build leaves for a quick edit to start from. */
export interface QuickBase {
  root: string;
  outDir: string;
  manifestFile: string;
  copies: { from: string; to: string }[];
  /** The site model and render context the last build's pages were made from. */
  ctx: RenderContext;
  media: ReadonlySet<string>;
  /** Fingerprint of the rendering code. */
  code: string;
}

export interface QuickResult {
  site: Site;
  /** The output files written, by path. */
  written: string[];
  write: WriteReport;
  diagnostics: Diagnostic[];
}

export async function quickEdit(base: QuickBase, changed: ReadonlySet<string>, check: CheckMemory): Promise<QuickResult | undefined> {
  const { root, ctx } = base;
  const blogDir = path.join(root, 'content', 'blog');
  if (changed.size === 0 || [...changed].some((file) => !file.startsWith(blogDir + path.sep) || !file.endsWith('.md'))) return undefined;

  const byFile = editionsByFile(ctx.site);
  let site = ctx.site;
  const edited: { article: Article; edition: ArticleEdition }[] = [];
  const { compileTracked } = await import('./compileEdition');
  for (const file of changed) {
    const before = byFile.get(relativeFile(root, file));
    if (!before) return undefined;
    const { article: source, diagnostics } = readArticleFile(root, file);
    if (!source || diagnostics.length > 0) return undefined;
    if (JSON.stringify(source.frontMatter) !== JSON.stringify(before.edition.source.frontMatter)) return undefined;
    const { body } = compileTracked(source.body, source.lang, site.routeByPath, site.content.config.imageCdn, path.join(root, 'content', 'media'));
    if (body.problems.length > 0) return undefined;
    const current = site.articleByPath.get(before.article.route.path) ?? before.article;
    const edition: ArticleEdition = { ...before.edition, source, body };
    const article: Article = { ...current, editions: { ...current.editions, [source.lang]: edition } };
    site = {
      ...site,
      articles: site.articles.map((a) => (a === current ? article : a)),
      articleByPath: new Map(site.articleByPath).set(article.route.path, article),
    };
    edited.push({ article, edition });
  }

  const diagnostics: Diagnostic[] = [];
  for (const { article, edition } of edited) {
    // Links elsewhere into this article; its own links are taken from its new body.
    const inbound = check.links.filter((link) => link.place.file !== edition.source.file && link.href.includes('#') && splitHref(link.href).path === article.route.path);
    const checked = site;
    const reuse = { memory: check, signature: (route: Route, lang: Lang) => `${base.code} ${pageSignatures(checked).of(route, lang)}` };
    diagnostics.push(...checkEdition(site, article, edition, base.media, inbound, reuse));
  }
  if (hasErrors(diagnostics)) return undefined;

  const next: RenderContext = { ...ctx, site };
  const pages = edited.map(({ article, edition }) => ({ file: pageFile(edition.url), inputs: editionInputs(next, article.route, edition.lang), body: edition.body }));
  const writer = await OutputWriter.open(base.outDir, base.manifestFile, { inPlace: true });
  const replaced = new Set(pages.map((p) => p.file));
  if (![...replaced].every((file) => writer.had(file))) return undefined;
  try {
    for (const file of writer.previousFiles()) if (!replaced.has(file)) writer.keep(file);
    const { renderDocument } = await import('../render/document');
    for (const page of pages) await writer.add(page.file, renderDocument(page.inputs), pageKey(base.code, page.inputs, page.body));
    // Only article files changed: media are as they were, and the full build that follows writes the manifest.
    const write = await writer.commit(base.copies, { copiesUnchanged: true, manifestLater: true });
    return { site, written: [...replaced], write, diagnostics };
  } catch (error) {
    await writer.abort();
    throw error;
  }
}

const EDITIONS_BY_FILE = new WeakMap<Site, Map<string, { article: Article; edition: ArticleEdition }>>();

/** Every article edition of a site by its project-relative file, made once per site model. */
function editionsByFile(site: Site): Map<string, { article: Article; edition: ArticleEdition }> {
  let byFile = EDITIONS_BY_FILE.get(site);
  if (!byFile) {
    byFile = new Map();
    for (const article of site.articles) {
      for (const edition of Object.values(article.editions)) byFile.set(edition.source.file, { article, edition });
    }
    EDITIONS_BY_FILE.set(site, byFile);
  }
  return byFile;
}
