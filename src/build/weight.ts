/**
 * Page weight per page kind: how many bytes of HTML, CSS and JavaScript each page of a build costs
 * a first-time visitor who only reads it, raw and gzipped. Pure: it reads only the files it is given.
 */
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { OutputFile, ScriptGraph, ScriptImports } from '../write/assets';

/** An HTML page of the build and the kind of page it is. */
export interface WeighedPage {
  /** Path of the HTML file under the output folder, as in `OutputFile.path`. */
  path: string;
  kind: string;
}

/** A number of bytes, as stored and as gzip (level 9) sends it. */
export interface Bytes {
  raw: number;
  gzip: number;
}

/** The median and the largest page of a kind; raw and gzip sizes are ranked separately. */
export interface Spread {
  median: Bytes;
  max: Bytes;
}

/** What the pages of one kind weigh. */
export interface KindWeight {
  kind: string;
  pages: number;
  /** The HTML document, inline styles and scripts included. */
  html: Spread;
  /** Inline <style> text plus every stylesheet file the page links. */
  css: Spread;
  /**
   * Every script the page loads without a reader's action: its external scripts (and module
   * preloads), what they import statically, and the chunks they import once the page has loaded
   * (React and the islands), with theirs.
   */
  js: Spread;
  /** The part of `js` loaded at start, before the page's load event: the scripts and their static imports. */
  jsAtStart: Spread;
}

/** One page's weight. */
interface PageWeight {
  html: Bytes;
  css: Bytes;
  js: Bytes;
  jsAtStart: Bytes;
}

/**
 * The weight of every page kind, in the order the kinds first appear in `pages`. A linked
 * file counts for every page that loads it (a first visit's cost); an inline style's gzip size
 * is that of its text alone, as if compressed apart from the rest of the page. A page's scripts
 * count with the scripts they import statically and the chunks they import after the load event
 * (`scriptImports`); chunks imported on a reader's action are left out.
 * Throws when a page or a file it loads is not among `files`.
 */
export function pageWeights(
  files: readonly OutputFile[],
  pages: readonly WeighedPage[],
  scriptImports: ScriptImports,
): KindWeight[] {
  const byPath = new Map(files.map((f) => [f.path, f]));
  const sizes = new Map<string, Bytes>();
  const sizeOf = (file: string): Bytes => {
    let size = sizes.get(file);
    if (!size) {
      size = measure(contentsOf(byPath, file));
      sizes.set(file, size);
    }
    return size;
  };
  const kinds = new Map<string, PageWeight[]>();
  for (const page of pages) {
    const html = text(contentsOf(byPath, page.path));
    const refs = pageRefs(html, page.path);
    const atStart = reach(scriptImports.static, refs.scripts);
    const afterLoad = reach(
      scriptImports.static,
      [...atStart].flatMap((script) => scriptImports.afterLoad[script] ?? []),
    );
    const weight: PageWeight = {
      html: sizeOf(page.path),
      css: sum([...refs.inlineStyles.map((css) => measure(css)), ...refs.stylesheets.map(sizeOf)]),
      js: sum([...new Set([...atStart, ...afterLoad])].map(sizeOf)),
      jsAtStart: sum([...atStart].map(sizeOf)),
    };
    const list = kinds.get(page.kind) ?? [];
    list.push(weight);
    kinds.set(page.kind, list);
  }
  return [...kinds].map(([kind, list]) => ({
    kind,
    pages: list.length,
    html: spread(list.map((w) => w.html)),
    css: spread(list.map((w) => w.css)),
    js: spread(list.map((w) => w.js)),
    jsAtStart: spread(list.map((w) => w.jsAtStart)),
  }));
}

/**
 * The weights as a compact text table, one line per page kind, sizes in KB (1024 bytes) as
 * "raw / gzip", for the build to print.
 */
export function formatWeights(weights: readonly KindWeight[]): string {
  const kb = (bytes: number) => (bytes / 1024).toFixed(1);
  const pair = (b: Bytes) => `${kb(b.raw)} / ${kb(b.gzip)}`;
  const header = [
    'page kind',
    'pages',
    'HTML median',
    'HTML max',
    'CSS median',
    'CSS max',
    'JS median',
    'JS max',
    'JS at start max',
  ];
  const rows = weights.map((w) => [
    w.kind,
    String(w.pages),
    pair(w.html.median),
    pair(w.html.max),
    pair(w.css.median),
    pair(w.css.max),
    pair(w.js.median),
    pair(w.js.max),
    pair(w.jsAtStart.max),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  return [
    line(header),
    ...rows.map(line),
    'KB raw / gzipped; JS: every script a page loads unless the reader acts (React and the islands after the load event); at start: before it.',
  ].join('\n');
}

function contentsOf(byPath: ReadonlyMap<string, OutputFile>, file: string): string | Uint8Array {
  const found = byPath.get(file);
  if (!found) throw new Error(`page weight: ${file} is referenced but not among the built files`);
  return found.contents;
}

function text(contents: string | Uint8Array): string {
  return typeof contents === 'string' ? contents : Buffer.from(contents).toString('utf8');
}

function measure(contents: string | Uint8Array): Bytes {
  const bytes = typeof contents === 'string' ? Buffer.from(contents) : contents;
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

function sum(sizes: readonly Bytes[]): Bytes {
  return sizes.reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip }), { raw: 0, gzip: 0 });
}

function spread(sizes: readonly Bytes[]): Spread {
  const raw = sizes.map((s) => s.raw).sort((a, b) => a - b);
  const gzip = sizes.map((s) => s.gzip).sort((a, b) => a - b);
  return { median: { raw: median(raw), gzip: median(gzip) }, max: { raw: raw.at(-1) ?? 0, gzip: gzip.at(-1) ?? 0 } };
}

/** The median of sorted numbers, rounded to a whole byte; 0 for none. */
function median(sorted: readonly number[]): number {
  if (sorted.length === 0) return 0;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] ?? 0)
    : Math.round(((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2);
}

/** What an HTML page loads at start: its inline styles, and the files of its stylesheets and scripts. */
interface PageRefs {
  inlineStyles: string[];
  stylesheets: string[];
  scripts: string[];
}

/** Script types a browser runs; any other (JSON, JSON-LD) is data. */
const SCRIPT_TYPES = new Set(['', 'module', 'text/javascript', 'application/javascript']);

function pageRefs(html: string, page: string): PageRefs {
  const refs: PageRefs = { inlineStyles: [], stylesheets: [], scripts: [] };
  for (const match of html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)) refs.inlineStyles.push(match[1] ?? '');
  for (const match of html.matchAll(/<(link|script)\b([^>]*)>/gi)) {
    const attrs = attributes(match[2] ?? '');
    const href = match[1]?.toLowerCase() === 'link' ? attrs.get('href') : attrs.get('src');
    if (href === undefined || /^(?:[a-z]+:)?\/\//i.test(href)) continue;
    if (match[1]?.toLowerCase() === 'link') {
      const rel = (attrs.get('rel') ?? '').toLowerCase().split(/\s+/);
      if (rel.includes('stylesheet')) refs.stylesheets.push(resolve(page, href));
      if (rel.includes('modulepreload')) refs.scripts.push(resolve(page, href));
    } else if (SCRIPT_TYPES.has((attrs.get('type') ?? '').toLowerCase())) {
      refs.scripts.push(resolve(page, href));
    }
  }
  return refs;
}

/** The attributes of a start tag, names lower-cased, the few entities of URLs decoded. */
function attributes(source: string): Map<string, string> {
  const attrs = new Map<string, string>();
  for (const m of source.matchAll(/([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g)) {
    const value = m[2] ?? m[3] ?? m[4] ?? '';
    attrs.set(
      (m[1] ?? '').toLowerCase(),
      value
        .replace(/&amp;/g, '&')
        .replace(/&quot;/g, '"')
        .replace(/&#x27;|&#39;/g, "'"),
    );
  }
  return attrs;
}

/** A URL of the site as a path under the output folder: "/assets/a.js" or "./a.js" from "blog/x.html". */
function resolve(from: string, url: string): string {
  const bare = url.replace(/[?#].*$/, '');
  return bare.startsWith('/') ? bare.slice(1) : path.posix.join(path.posix.dirname(from), bare);
}

/** The scripts and every script they import in `graph`, each once. */
function reach(graph: ScriptGraph, scripts: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...scripts];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...(graph[file] ?? []));
  }
  return seen;
}
