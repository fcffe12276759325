import path from 'node:path';
import type { Diagnostic } from '../diagnostics/diagnostic';
import { hasErrors } from '../diagnostics/diagnostic';
import { checkSite, listMedia } from '../check/check';
import { loadContent } from '../load/content';
import { createSite, type Site } from '../model/site';
import { baseUrlOf, renderEdition, renderNotFound, renderRedirect, type RenderContext } from '../render/document';
import { feedUrl, rssFeed } from '../publish/feed';
import { webManifest } from '../publish/manifest';
import { robotsTxt, sitemapXml } from '../publish/sitemap';
import { LANGUAGES, type Lang } from '../shared/lang';
import { buildSearchIndex } from '../shared/search';
import { searchDocuments } from '../search/documents';
import { editionUrl } from '../shared/route';
import { buildAssets, type OutputFile } from '../write/assets';
import { writeAtomically } from '../write/output';

export interface SiteLoad {
  /** Present when the content loaded without errors. */
  site?: Site;
  diagnostics: Diagnostic[];
}

/**
 * Load, model and check: every content file validated, routes derived, markdown compiled, then
 * every rule of `site check`. The site is returned only when no error was found.
 */
export async function loadSite(root: string): Promise<SiteLoad> {
  const [loaded, media] = await Promise.all([loadContent(root), listMedia(root)]);
  if (!loaded.content) return { diagnostics: loaded.diagnostics };
  const { site, diagnostics } = createSite(loaded.content);
  const all = [...loaded.diagnostics, ...diagnostics, ...checkSite(site, media)];
  return hasErrors(all) ? { diagnostics: all } : { site, diagnostics: all };
}

/** The file under dist/ of a page URL: "/blog/tech/Site" -> "blog/tech/Site.html". */
export function pageFile(url: string): string {
  return `${url.replace(/^\//, '')}.html`;
}

/** Every HTML document of the site, by its path under dist/. */
export function renderSite(ctx: RenderContext): { files: OutputFile[]; pages: Record<Lang, number> } {
  const files: OutputFile[] = [];
  const pages: Record<Lang, number> = { en: 0, pt: 0 };
  for (const route of ctx.site.routes) {
    for (const lang of route.meta.availableLangs) {
      files.push({ path: pageFile(editionUrl(route, lang)), contents: renderEdition(ctx, route, lang) });
      pages[lang]++;
    }
  }
  files.push({ path: '404.html', contents: renderNotFound(ctx, 'en') });
  files.push({ path: 'pt/404.html', contents: renderNotFound(ctx, 'pt') });
  for (const lang of LANGUAGES) {
    files.push({ path: `search/${lang}.json`, contents: JSON.stringify(buildSearchIndex(lang, searchDocuments(ctx.site, lang))) });
  }
  const base = baseUrlOf(ctx);
  files.push({ path: 'sitemap.xml', contents: sitemapXml(ctx.site, base) });
  files.push({ path: 'robots.txt', contents: robotsTxt(base) });
  for (const lang of LANGUAGES) files.push({ path: feedUrl(lang).slice(1), contents: rssFeed(ctx.site, lang, base) });
  files.push({ path: 'manifest.webmanifest', contents: webManifest(ctx.site) });
  files.push({ path: 'index.html', contents: renderRedirect('en') });
  files.push({ path: 'pt.html', contents: renderRedirect('pt') });
  return { files, pages };
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
}

export interface BuildResult {
  ok: boolean;
  diagnostics: Diagnostic[];
  pages: Record<Lang, number>;
  milliseconds: number;
}

/** check, render every edition, bundle the client, write dist/ atomically. */
export async function build(options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const { site, diagnostics } = await loadSite(options.root);
  if (!site) return { ok: false, diagnostics, pages: { en: 0, pt: 0 }, milliseconds: performance.now() - started };
  const assets = await buildAssets();
  const ctx: RenderContext = {
    site,
    stylesheet: assets.stylesheet,
    script: assets.script,
    year: options.year ?? new Date().getFullYear(),
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
  };
  const { files, pages } = renderSite(ctx);
  await writeAtomically(options.outDir, [...files, ...assets.files], [{ from: path.join(options.root, 'content', 'media'), to: 'media' }]);
  return { ok: true, diagnostics, pages, milliseconds: performance.now() - started };
}

