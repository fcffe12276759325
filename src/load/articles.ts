import { lstatSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type matter from 'gray-matter';
import { type Diagnostic, diagnostic } from '../diagnostics/diagnostic';
import { OperationalError } from '../diagnostics/failure';
import { frontMatterPosition } from '../diagnostics/position';
import { ArticleFrontMatter } from '../model/schema';
import type { Lang } from '../shared/lang';
import { type EditionPrint, editionPrint } from '../translations/print';
import { digest } from './digest';
import {
  entriesBelow,
  type FileListing,
  filesAmong,
  type ListedEntry,
  listFiles,
  relativeBelow,
  relativeFile,
} from './files';
import { schemaDiagnostics } from './issues';
import { MAX_DEPTH } from './limits';
import { statSignature } from './stat';
import { type ContentBytes, decodeContentText, readContentBytes, textOf } from './text';

/**
 * gray-matter, loaded on the first article file parsed: a build that finds every file as it was
 * (by its stat signature, see `statSignature`) parses none, and never loads its YAML parser.
 */
let frontMatterModule: typeof matter | undefined;
function frontMatterParser(): typeof matter {
  frontMatterModule ??= createRequire(import.meta.url)('gray-matter') as typeof matter;
  return frontMatterModule;
}

/** A content file that changed between its load and a later read of the same build. */
export class ContentChangedError extends OperationalError {
  constructor(
    /** Project-relative path. */
    readonly file: string,
  ) {
    super(`${file} changed while the build was reading it`, 'Run the command again.');
    this.name = 'ContentChangedError';
  }
}

/** One edition of an article as written on disk: content/blog/<category>/<Slug>.<lang>.md. */
export interface ArticleSource {
  /** Project-relative file path. */
  file: string;
  category: string;
  /** The route's last segment, with its case: "Site", "gulbenkian". */
  slug: string;
  lang: Lang;
  frontMatter: ArticleFrontMatter;
  /** A hash of the front matter as validated: what a listing of the article is made from. */
  frontMatterHash: string;
  /** The markdown after the front matter (read from the file each time it is asked for). */
  readonly body: string;
  /** 1-based line of the file where `body` starts, to place diagnostics on body nodes. */
  bodyLine: number;
  /** The whole file, to place diagnostics on front-matter keys (read from the file each time it is asked for). */
  readonly text: string;
  /** A content hash of the file's bytes: what every output made from this file lists among its inputs. */
  hash: string;
  /** Its title, description and sections as the translation lock records them (src/translations). */
  print: EditionPrint;
}

/** What an article's slug, the last segment of its URL, may hold. */
const SLUG = '[A-Za-z0-9_-]+';
export const ARTICLE_SLUG = new RegExp(`^${SLUG}$`);
/** An article file's name, <Slug>.<en|pt>.md: the slug, then the language. */
export const ARTICLE_FILE = new RegExp(`^(${SLUG})\\.(en|pt)\\.md$`);

/** How the blog folder is listed: links read through, and a folder named as an article reported in its place. */
const ARTICLE_LISTING: FileListing = { links: true, foldersNamed: /\.md$/ };

/** One article file as last read: the article, or the problems that kept it out. */
interface ReadArticle {
  article?: ArticleSource;
  diagnostics: Diagnostic[];
}

/** An article file's front matter, parsed and validated, and where its body starts. */
export interface ParsedArticle {
  frontMatter: ArticleFrontMatter;
  /** A hash of `frontMatter`, worked out once with it. */
  frontMatterHash: string;
  /** The offset in the file's text where the body starts. */
  bodyStart: number;
  bodyLine: number;
  /** See `ArticleSource.print`: worked out with the front matter, so a file not read again still has it. */
  print: EditionPrint;
  /** The file's stat signature when it was last read with this text, when it had settled (see `statSignature`). */
  signature?: string;
}

/** Article files parsed by an earlier build, found again by their path and content hash (the build cache). */
export interface ParsedArticles {
  get(file: string, hash: string): ParsedArticle | undefined;
  set(file: string, hash: string, parsed: ParsedArticle): void;
  /** Keeps every file parsed so far, as lookups that found them would: for a load of the same files. */
  keepAll?(): void;
  /** Keeps a file's entries, as a lookup that found them would: for a file not read again. */
  keep?(file: string): void;
  /** The content hash read from a file when it last had this stat signature (see `statSignature`). */
  hashAt?(file: string, signature: string): string | undefined;
  /** Records the content hash read from a file that had this stat signature just before. */
  readAt?(file: string, signature: string, hash: string): void;
}

/**
 * What a build session remembers of the article files between its builds: each file as last
 * read, the sorted list of files, and which files may have changed since (a watcher reports
 * them). A session that knows nothing has `stale: 'all'` and reads every file; a file whose
 * text it parsed before (`parsed`, by content hash) is not parsed again.
 */
export interface ArticleFiles {
  /** Each listed file as last read, in the order of `listing`. */
  read: readonly ReadArticle[];
  listing?: readonly string[];
  /** Each listed file's place in `listing`. */
  places?: ReadonlyMap<string, number>;
  stale: Set<string> | 'all';
  parsed?: ParsedArticles;
  /**
   * The content folder's entries and its files' stat signatures (by absolute path), taken as the
   * build started (see `contentFiles`), for the next load only: the article files are listed from
   * them, and a file's signature is looked up here before it is taken again.
   */
  listed?: { entries: readonly ListedEntry[]; signatures: ReadonlyMap<string, string | undefined> };
  /**
   * Texts to read instead of files', by absolute path, for the next load only (a rehearsal, see
   * `BuildSession.rehearse`): the file itself is not touched, and is read again by the load after.
   */
  instead?: Map<string, Buffer>;
}

export function articleFiles(): ArticleFiles {
  return { read: [], stale: 'all' };
}

/** The articles under content/blog; files not stale since they were last read are not read again. */
export async function loadArticles(
  root: string,
  diagnostics: Diagnostic[],
  files: ArticleFiles = articleFiles(),
): Promise<ArticleSource[]> {
  const blogDir = path.join(root, 'content', 'blog');
  const { instead } = files;
  // A file read as another text is stale now and once more after: the next load reads the file.
  if (instead && files.stale !== 'all') for (const absolute of instead.keys()) files.stale.add(absolute);
  const { stale } = files;
  const listing =
    (stale !== 'all' && files.listing && listingStillHolds(blogDir, files.listing, files.places, stale)) ||
    (files.listed
      ? filesAmong(entriesBelow(files.listed.entries, blogDir), ARTICLE_LISTING)
      : await listFiles(blogDir, ARTICLE_LISTING)
    ).filter((absolute) => absolute.endsWith('.md'));
  const articles: ArticleSource[] = [];
  // The same listing as last time: each file not stale is taken by its place, and only the stale ones are read.
  const same = listing === files.listing && files.read.length === listing.length;
  const places = same && files.places ? files.places : new Map(listing.map((absolute, i) => [absolute, i]));
  const folder: BlogFolder = { root, blogDir, parsed: files.parsed, signatures: files.listed?.signatures };
  const read = same ? [...files.read] : [];
  if (same && stale !== 'all') {
    for (const absolute of stale) {
      const at = places.get(absolute);
      if (at !== undefined) read[at] = readEntry(folder, absolute, instead?.get(absolute));
    }
    // Every file of the listing is still in use: the parsed ones are kept as they are.
    files.parsed?.keepAll?.();
  } else {
    for (const absolute of listing) {
      let entry = stale === 'all' || stale.has(absolute) ? undefined : files.read[files.places?.get(absolute) ?? -1];
      // Kept though not looked up, so the build cache keeps it: what is not used is dropped.
      if (entry?.article) files.parsed?.keep?.(entry.article.file);
      // Thousands of small files: reading them one after another synchronously is several times
      // faster than sending each through the thread pool (open, stat, read, close round trips).
      entry ??= readEntry(folder, absolute, instead?.get(absolute));
      read.push(entry);
    }
  }
  for (const entry of read) {
    if (entry.diagnostics.length > 0) diagnostics.push(...entry.diagnostics);
    if (entry.article) articles.push(entry.article);
  }
  files.read = read;
  files.listing = listing;
  files.places = places;
  files.stale = new Set(instead?.keys());
  files.instead = undefined;
  files.listed = undefined;
  return articles;
}

/** Where article files are read from, and what was parsed of them before. */
interface BlogFolder {
  /** The site root. */
  root: string;
  /** Its content/blog folder. */
  blogDir: string;
  parsed: ParsedArticles | undefined;
  /** Signatures taken as the build started (see `ArticleFiles.listed`). */
  signatures: ReadonlyMap<string, string | undefined> | undefined;
}

function readEntry(folder: BlogFolder, absolute: string, instead: Buffer | undefined): ReadArticle {
  const found: Diagnostic[] = [];
  const article = readArticle(folder, absolute, found, instead);
  return { diagnostics: found, ...(article ? { article } : {}) };
}

/**
 * The last listing, when every stale file under the blog folder is in it and still there (an
 * edit), or is one a listing would not hold either: not an article's name, or not there now (the
 * temporary file of an editor that saves by writing a copy and renaming it over the article, as
 * vim, JetBrains' editors and `sed -i` do, or vim's "4913" probe). Undefined (list the folder
 * again) when a file was added, removed
 * or renamed: a rename is reported as two changes that may come apart, and a listing sees both at once.
 */
function listingStillHolds(
  blogDir: string,
  listing: readonly string[],
  places: ReadonlyMap<string, number> | undefined,
  stale: ReadonlySet<string>,
): readonly string[] | undefined {
  // The places of the listing's files, kept with it, are looked up rather than a set of thousands made per save.
  const listed = places ?? new Set(listing);
  for (const file of stale) {
    if (!file.startsWith(blogDir + path.sep)) continue;
    // A path not listed changes the listing only when it names an article file and is there.
    if (listed.has(file) ? !isFile(file) : file.endsWith('.md') && isThere(file)) return undefined;
  }
  return listing;
}

/** Whether anything is at a path (a file, a folder, a link, even one that leads nowhere): what a listing would show. */
function isThere(absolute: string): boolean {
  try {
    lstatSync(absolute);
    return true;
  } catch (error) {
    // Only an absent path is absent: a path that cannot be looked at is listed again.
    const code = (error as NodeJS.ErrnoException).code;
    return code !== 'ENOENT' && code !== 'ENOTDIR';
  }
}

function isFile(absolute: string): boolean {
  try {
    return statSync(absolute).isFile();
  } catch {
    return false;
  }
}

function readArticle(
  { root, blogDir, parsed, signatures }: BlogFolder,
  absolute: string,
  diagnostics: Diagnostic[],
  instead: Buffer | undefined,
): ArticleSource | undefined {
  const file = relativeFile(root, absolute);
  const parts = relativeBelow(blogDir, absolute).split(path.sep);
  const match = parts.length === 2 ? ARTICLE_FILE.exec(parts[1] ?? '') : null;
  if (!match || !/^[a-z]+$/.test(parts[0] ?? '')) {
    diagnostics.push(diagnostic('PATH001', { file, line: 0, column: 0 }, { file }));
    return undefined;
  }
  // A file whose stat signature is the one it had when last read, with the text then parsed, is
  // not read: thousands of unchanged files cost a stat each. Taken before the read (or as the
  // build started), so that a write between the two leaves a signature that no longer matches.
  const signature = parsed?.hashAt && !instead ? (signatures?.get(absolute) ?? statSignature(absolute)) : undefined;
  const bytesOf = (): ContentBytes => (instead ? { bytes: instead } : readContentBytes(absolute, file));
  const known = signature === undefined ? undefined : parsed?.hashAt?.(file, signature);
  let front = known === undefined ? undefined : parsed?.get(file, known);
  let hash = known as string;
  if (!front) {
    const read = bytesOf();
    if ('problem' in read) {
      diagnostics.push(read.problem);
      return undefined;
    }
    const { bytes } = read;
    hash = digest(bytes);
    // Bytes parsed before were valid text then: they are neither checked nor parsed again, and
    // their text is decoded only if something asks for it (a body to compile, a diagnostic to place).
    front = parsed?.get(file, hash);
    if (!front) {
      const decoded = decodeContentText(bytes, file);
      if ('problem' in decoded) {
        diagnostics.push(decoded.problem);
        return undefined;
      }
      front = parseArticle(file, decoded.text, diagnostics);
      if (!front) return undefined;
      parsed?.set(file, hash, front);
    }
    if (signature !== undefined) parsed?.readAt?.(file, signature, hash);
  }
  const { frontMatter, frontMatterHash, bodyStart, bodyLine, print } = front;
  // The text is read from the file again each time it is asked for (by the markdown stage when the
  // body must be compiled, and to place a diagnostic), not kept: every file's text and bytes,
  // kept for the whole build, would hold the whole content in memory. What is read must be what
  // was hashed, or a body would be compiled, and cached, under another text's hash.
  const whole = () => {
    const again = bytesOf();
    if ('problem' in again || digest(again.bytes) !== hash) {
      throw new ContentChangedError(file);
    }
    return textOf(again.bytes);
  };
  return new ReadSource(
    {
      file,
      category: parts[0] as string,
      slug: match[1] as string,
      lang: match[2] as Lang,
      frontMatter,
      frontMatterHash,
      bodyLine,
      hash,
      print,
    },
    whole,
    bodyStart,
  );
}

/**
 * An article file as read, its text read from the file each time it is asked for. A class, not an
 * object literal with getters: V8 makes such a literal with its properties in a dictionary (some
 * 800 bytes an article, and a lookup by name on every read), where a class's instances share one
 * hidden class.
 */
class ReadSource implements ArticleSource {
  readonly file: string;
  readonly category: string;
  readonly slug: string;
  readonly lang: Lang;
  readonly frontMatter: ArticleFrontMatter;
  readonly frontMatterHash: string;
  readonly bodyLine: number;
  readonly hash: string;
  readonly print: EditionPrint;
  readonly #whole: () => string;
  readonly #bodyStart: number;

  constructor(fields: Omit<ArticleSource, 'text' | 'body'>, whole: () => string, bodyStart: number) {
    this.file = fields.file;
    this.category = fields.category;
    this.slug = fields.slug;
    this.lang = fields.lang;
    this.frontMatter = fields.frontMatter;
    this.frontMatterHash = fields.frontMatterHash;
    this.bodyLine = fields.bodyLine;
    this.hash = fields.hash;
    this.print = fields.print;
    this.#whole = whole;
    this.#bodyStart = bodyStart;
  }

  get text(): string {
    return this.#whole();
  }

  get body(): string {
    return this.#whole().slice(this.#bodyStart);
  }
}

/** The front matter of an article file, read as YAML and validated, and where the body starts. */
function parseArticle(file: string, source: string, diagnostics: Diagnostic[]): ParsedArticle | undefined {
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
  // YAML nested a thousand levels deep ("a: [[[[..."): the parser would run out of stack where V8
  // cannot throw a RangeError (compiling a regular expression), and the process would abort.
  if (flowDepthBeyond(source, MAX_DEPTH)) {
    diagnostics.push(diagnostic('DEPTH001', { file, line: 2, column: 1 }, { kind: 'frontMatter' }));
    return undefined;
  }
  let parsed: matter.GrayMatterFile<string>;
  try {
    // A fresh options object bypasses gray-matter's cache, which would hide a fixed error.
    parsed = frontMatterParser()(source, {});
  } catch (error) {
    if (error instanceof RangeError) {
      diagnostics.push(diagnostic('DEPTH001', { file, line: 2, column: 1 }, { kind: 'frontMatter' }));
      return undefined;
    }
    const mark = (error as { mark?: { line?: number; column?: number } }).mark;
    const reason = (error as { reason?: string }).reason ?? 'unreadable YAML';
    diagnostics.push(
      diagnostic(
        'FM001',
        { file, line: (mark?.line ?? 0) + 2, column: (mark?.column ?? 0) + 1 },
        { kind: 'invalid', reason },
      ),
    );
    return undefined;
  }
  const result = ArticleFrontMatter.safeParse(parsed.data);
  if (!result.success) {
    diagnostics.push(...schemaDiagnostics(file, parsed.data, result.error, (p) => frontMatterPosition(source, p)));
    return undefined;
  }
  const bodyStart = source.length - parsed.content.length;
  return {
    frontMatter: result.data,
    frontMatterHash: digest(JSON.stringify(result.data)),
    bodyStart,
    bodyLine: source.slice(0, bodyStart).split('\n').length,
    print: editionPrint(result.data.title, result.data.description, parsed.content),
  };
}

/**
 * Whether the front matter (up to its closing "---") nests YAML flow collections ("[", "{")
 * deeper than `limit`. Quotes are not followed: a bracket inside a quoted string counts too, which
 * only a front matter far from any real one would reach.
 */
function flowDepthBeyond(source: string, limit: number): boolean {
  const end = source.indexOf('\n---', 3);
  let depth = 0;
  for (let i = 3, stop = end === -1 ? source.length : end; i < stop; i++) {
    const c = source.charCodeAt(i);
    if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if ((c === 0x5d || c === 0x7d) && depth > 0) depth--;
  }
  return false;
}
