import { statSync } from 'node:fs';
import path from 'node:path';
import matter from 'gray-matter';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic';
import { frontMatterPosition } from '../diagnostics/position';
import { ArticleFrontMatter } from '../model/schema';
import type { Lang } from '../shared/lang';
import { listFiles, relativeFile } from './files';
import { schemaDiagnostics } from './issues';
import { readContentText } from './text';

/** One edition of an article as written on disk: content/blog/<category>/<Slug>.<lang>.md. */
export interface ArticleSource {
  /** Project-relative file path. */
  file: string;
  category: string;
  /** The route's last segment, with its case: "Site", "gulbenkian". */
  slug: string;
  lang: Lang;
  frontMatter: ArticleFrontMatter;
  /** The markdown after the front matter. */
  body: string;
  /** 1-based line of the file where `body` starts, to place diagnostics on body nodes. */
  bodyLine: number;
  /** The whole file, to place diagnostics on front-matter keys. */
  text: string;
}

const ARTICLE_FILE = /^([A-Za-z0-9_-]+)\.(en|pt)\.md$/;

/**
 * `site dev` loads the same thousands of articles again after every save: with `keep` on, a
 * parsed article is kept and reused while its file's size and modification time are unchanged,
 * so only the saved file is read and parsed again.
 */
export const parsedArticles = { keep: false, entries: new Map<string, { stamp: string; article?: ArticleSource; diagnostics: Diagnostic[] }>() };

/**
 * The articles under content/blog. `changed` (absolute paths, from a file watcher that reported
 * every change since the last load) lets kept articles be trusted without looking at their files:
 * only the files it names are looked at again.
 */
export async function loadArticles(root: string, diagnostics: Diagnostic[], changed?: ReadonlySet<string>): Promise<ArticleSource[]> {
  const blogDir = path.join(root, 'content', 'blog');
  const hinted = parsedArticles.keep && parsedArticles.entries.size > 0 && changed ? changed : undefined;
  const files = (hinted && articleFilesAfter(blogDir, hinted)) || (await listFiles(blogDir, { links: true, foldersNamed: /\.md$/ })).filter((absolute) => absolute.endsWith('.md'));
  const articles: ArticleSource[] = [];
  const kept = new Map<string, { stamp: string; article?: ArticleSource; diagnostics: Diagnostic[] }>();
  for (const absolute of files) {
    let entry = parsedArticles.keep ? parsedArticles.entries.get(absolute) : undefined;
    const trusted = entry && hinted && !hinted.has(absolute);
    // Thousands of small files: reading them one after another synchronously is several times
    // faster than sending each through the thread pool (open, stat, read, close round trips).
    const stamp = trusted ? (entry?.stamp ?? '') : parsedArticles.keep ? fileStamp(absolute) : '';
    if (!entry || entry.stamp !== stamp || !stamp) {
      const found: Diagnostic[] = [];
      const article = readArticle(root, blogDir, absolute, found);
      entry = { stamp, diagnostics: found, ...(article ? { article } : {}) };
    }
    kept.set(absolute, entry);
    diagnostics.push(...entry.diagnostics);
    if (entry.article) articles.push(entry.article);
  }
  if (parsedArticles.keep) parsedArticles.entries = kept;
  return articles;
}

/**
 * The article files, from the kept list when every change is an edit of a kept file; undefined
 * (list the folder again) when a file was added, removed or renamed: a rename is reported as two
 * changes that may come apart, and the listing sees both at once.
 */
function articleFilesAfter(blogDir: string, changed: ReadonlySet<string>): string[] | undefined {
  for (const file of changed) {
    if (file.startsWith(blogDir + path.sep) && !(parsedArticles.entries.has(file) && fileStamp(file))) return undefined;
  }
  // The kept entries are in the sorted order of the last load.
  return [...parsedArticles.entries.keys()];
}

function fileStamp(absolute: string): string {
  try {
    const info = statSync(absolute);
    return `${info.size}:${info.mtimeMs}`;
  } catch {
    return '';
  }
}

/** One article file, read and parsed on its own, with the problems found in it. */
export function readArticleFile(root: string, absolute: string): { article?: ArticleSource; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const article = readArticle(root, path.join(root, 'content', 'blog'), absolute, diagnostics);
  return { ...(article ? { article } : {}), diagnostics };
}

function readArticle(root: string, blogDir: string, absolute: string, diagnostics: Diagnostic[]): ArticleSource | undefined {
  const file = relativeFile(root, absolute);
  const parts = path.relative(blogDir, absolute).split(path.sep);
  const match = parts.length === 2 ? ARTICLE_FILE.exec(parts[1] ?? '') : null;
  if (!match || !/^[a-z]+$/.test(parts[0] ?? '')) {
    diagnostics.push(diagnostic('PATH001', { file, line: 0, column: 0 }, { file }));
    return undefined;
  }
  const read = readContentText(absolute, file);
  if ('problem' in read) {
    diagnostics.push(read.problem);
    return undefined;
  }
  return parseArticle(file, read.text, parts[0] as string, match[1] as string, match[2] as Lang, diagnostics);
}

function parseArticle(file: string, source: string, category: string, slug: string, lang: Lang, diagnostics: Diagnostic[]): ArticleSource | undefined {
  if (!source.startsWith('---')) {
    diagnostics.push(diagnostic('FM001', { file, line: 1, column: 1 }, { kind: 'missing' }));
    return undefined;
  }
  // gray-matter reads "---js" front matter by running it as JavaScript: only YAML is accepted.
  const opening = /^---[^\S\r\n]*(\r?\n|$)/.test(source) ? undefined : source.slice(0, source.search(/\r?\n|$/));
  if (opening !== undefined) {
    diagnostics.push(diagnostic('FM001', { file, line: 1, column: 1 }, { kind: 'notYaml', opening }));
    return undefined;
  }
  let parsed: matter.GrayMatterFile<string>;
  try {
    // A fresh options object bypasses gray-matter's cache, which would hide a fixed error.
    parsed = matter(source, {});
  } catch (error) {
    if (error instanceof RangeError) {
      diagnostics.push(diagnostic('DEPTH001', { file, line: 2, column: 1 }, { kind: 'frontMatter' }));
      return undefined;
    }
    const mark = (error as { mark?: { line?: number; column?: number } }).mark;
    const reason = (error as { reason?: string }).reason ?? 'unreadable YAML';
    diagnostics.push(diagnostic('FM001', { file, line: (mark?.line ?? 0) + 2, column: (mark?.column ?? 0) + 1 }, { kind: 'invalid', reason }));
    return undefined;
  }
  const result = ArticleFrontMatter.safeParse(parsed.data);
  if (!result.success) {
    diagnostics.push(...schemaDiagnostics(file, parsed.data, result.error, (p) => frontMatterPosition(source, p)));
    return undefined;
  }
  const bodyStart = source.length - parsed.content.length;
  const bodyLine = source.slice(0, bodyStart).split('\n').length;
  return { file, category, slug, lang, frontMatter: result.data, body: parsed.content, bodyLine, text: source };
}
