import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { threadId } from 'node:worker_threads';
import { OperationalError, operational } from '../diagnostics/failure';
import type { CompiledMarkdown } from '../markdown/compile';

/** What a compiled body weighs most in: its HTML and its plain text. */
export type BodyContent = Pick<CompiledMarkdown, 'html' | 'text'>;

/** A compiled body without its content, which is kept apart and found by the body's hash. */
export type BodyFacts = Omit<CompiledMarkdown, 'html' | 'text'>;

/** A compiled body as its facts and its content, which are kept apart. */
export function splitBody(body: CompiledMarkdown): { facts: BodyFacts; content: BodyContent } {
  const { html, text, ...facts } = body;
  return { facts, content: { html, text } };
}

/** A body's content as its file holds it. */
function contentBytes(content: BodyContent): Buffer {
  return serialize({ html: content.html, text: content.text });
}

/**
 * Writes a body's content into the folder, whole or not at all (a temporary file renamed). For a
 * markdown worker thread, which stores what it compiled itself: the HTML and text of a cold
 * build's thousands of bodies never pass through the build's own thread. A file already there is
 * written again: it was compiled again because it could not be read (see `get`).
 */
export function storeBodyContent(dir: string, key: string, content: BodyContent): void {
  const file = path.join(dir, key);
  const temporary = `${file}.${process.pid}.${threadId}.tmp`;
  try {
    writeFileSync(temporary, contentBytes(content));
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/**
 * The HTML and plain text of compiled bodies, kept apart from the rest of the markdown cache, one
 * file per content under `.cache/site/bodies/`, named by the body's hash (of its HTML and text). The markdown
 * cache holds what every build needs of every body (headings, references, ids, the hash); a body's
 * content is read only by the work that uses it: its page when it is rendered again, its search
 * shard when that is made again. A cold build keeps no body's content in memory once it is stored,
 * and a warm one reads a few of them rather than deserializing hundreds of megabytes.
 *
 * When nothing may be written (`site check`), what is made is kept in memory instead.
 * `site build --no-cache` gives it a temporary folder of the system's, removed at the end (see
 * `build` in pipeline.ts), so that a build without the cache holds no more than one with it.
 */
export class BodyContents {
  /** Keys of the files in the folder, listed once and kept up to date. */
  private readonly stored: Set<string>;
  /** Contents kept in memory: all of them without a folder, and those still being written otherwise. */
  private readonly held = new Map<string, BodyContent>();
  private readonly writes = new Set<Promise<void>>();
  /** The body made for each facts object, for as long as something holds those facts. */
  private readonly bodies = new WeakMap<BodyFacts, CompiledMarkdown>();
  private failure: unknown;

  constructor(
    private readonly dir: string | undefined,
    private readonly write: boolean,
  ) {
    this.stored = new Set(dir ? listKeys(dir) : []);
    if (dir && write) mkdirSync(dir, { recursive: true });
  }

  /**
   * The folder contents are written into, when they are: where a worker thread may store them
   * itself (see `storeBodyContent`).
   */
  get folder(): string | undefined {
    return this.write ? this.dir : undefined;
  }

  /** Takes note of a content stored into the folder by a worker thread. */
  adopt(key: string): void {
    this.stored.add(key);
  }

  /** Whether the content of a body with this hash can be read. */
  has(key: string): boolean {
    return this.held.has(key) || this.stored.has(key);
  }

  /**
   * Keeps a body's content under its hash. The file is written in the background (the markdown
   * stage's thread mostly waits for its workers); until then the content stays in memory.
   */
  put(key: string, content: BodyContent): void {
    if (this.has(key)) return;
    this.held.set(key, content);
    if (!this.dir || !this.write) return;
    const file = path.join(this.dir, key);
    const temporary = `${file}.${process.pid}.tmp`;
    const task = writeFile(temporary, contentBytes(content))
      .then(() => rename(temporary, file))
      .then(
        () => {
          this.stored.add(key);
          this.held.delete(key);
        },
        (error: unknown) => {
          this.failure ??= error;
        },
      );
    this.writes.add(task);
    void task.finally(() => this.writes.delete(task));
  }

  get(key: string): BodyContent {
    const held = this.held.get(key);
    if (held) return held;
    try {
      return deserialize(readFileSync(path.join(this.dir ?? '', key))) as BodyContent;
    } catch (error) {
      // Gone (another build pruned it, or a hand deleted it): the next build compiles the body again.
      this.stored.delete(key);
      throw new OperationalError(
        `a compiled body in the build cache cannot be read (${key})`,
        'Run the command again; if it fails again, delete the .cache folder.',
        { cause: error },
      );
    }
  }

  /**
   * A body whose content is read from here each time it is asked for, and not kept. The same facts
   * give the same body object: a session's builds find most bodies in the markdown memo, and
   * would otherwise make thousands of these again on every build.
   */
  body(facts: BodyFacts): CompiledMarkdown {
    const known = this.bodies.get(facts);
    if (known) return known;
    const contents = this;
    // One object made whole at once, its accessors enumerable (a copy or a serialization of the body
    // has them all); the headings are read from the facts when asked for, since the markdown cache
    // parses them only then (see packedFacts).
    const body: CompiledMarkdown = {
      words: facts.words,
      hash: facts.hash,
      references: facts.references,
      ids: facts.ids,
      register: facts.register,
      problems: facts.problems,
      get headings() {
        return facts.headings;
      },
      get html() {
        return contents.get(facts.hash).html;
      },
      get text() {
        return contents.get(facts.hash).text;
      },
    };
    this.bodies.set(facts, body);
    return body;
  }

  /** Waits for the contents being written; throws the first failure. */
  async flush(): Promise<void> {
    await Promise.all(this.writes);
    if (this.failure) throw operational(this.failure, 'cannot write the build cache');
  }

  /** Removes the files of contents no longer used, once they outnumber the `live` used ones (listed by `used`). */
  prune(live: number, used: () => ReadonlySet<string>): void {
    if (!this.dir || !this.write || this.stored.size <= 2 * live) return;
    const keep = used();
    for (const key of this.stored) {
      if (keep.has(key)) continue;
      rmSync(path.join(this.dir, key), { force: true });
      this.stored.delete(key);
    }
  }
}

/** The keys of the contents in `dir`; none when it does not exist. */
function listKeys(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => !name.endsWith('.tmp'));
  } catch {
    return [];
  }
}
