import { appendFileSync, closeSync, openSync, readSync, statSync } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { threadId } from 'node:worker_threads';
import { OperationalError, operational } from '../diagnostics/failure';
import type { CompiledMarkdown } from '../markdown/compile';
import { bodyLinkHrefs, type KeptLinkHrefs } from '../markdown/linkHrefs';
import { processRunning } from '../write/folder';
import { appendLog, readLog, readLogSync, rewriteLog } from '../write/recordLog';

/** What a compiled body weighs most in: its HTML and its plain text. */
export type BodyContent = Pick<CompiledMarkdown, 'html' | 'text'>;

/** A compiled body without its content, which is kept apart and found by the body's hash. */
export type BodyFacts = Omit<CompiledMarkdown, 'html' | 'text'>;

/** A compiled body as its facts and its content, which are kept apart. */
export function splitBody(body: CompiledMarkdown): { facts: BodyFacts; content: BodyContent } {
  const { html, text, ...facts } = body;
  return { facts, content: { html, text } };
}

/** A body's content as its pack holds it. */
function contentBytes(content: BodyContent): Buffer {
  return serialize({ html: content.html, text: content.text });
}

/** Where a body's content is kept: the pack it was appended to, and the place of its bytes there. */
export interface ContentPlace {
  pack: string;
  at: number;
  length: number;
}

/** The index of the folder: a record log of `[key, pack, at, length]`, a later record of a key replacing an earlier one. */
const INDEX = 'index.log';
/** A pack: `<pid>-<thread>-<made>.pack`, appended to by that thread of that process alone. */
const PACK = /^(\d+)-\d+-[\w]+\.pack$/;
/** Packs below this size are merged once there are more than SMALL_PACKS of them. */
const SMALL_PACK_BYTES = 8 * 1024 * 1024;
const SMALL_PACKS = 16;

/**
 * A pack of one writer (a markdown worker thread, or the build's own thread), appended to as it
 * stores contents: one file written in sequence rather than a file per body made under a temporary
 * name and renamed, since making and naming thousands of files costs far more than writing their
 * bytes. Appended by one writer only, so it knows where each content starts.
 */
export class PackWriter {
  private name = packName();
  private at = 0;

  constructor(private readonly dir: string) {}

  /** Appends a content, and tells where it is. */
  append(content: BodyContent): ContentPlace {
    return this.appendBytes(contentBytes(content));
  }

  /** Appends a content's bytes as a pack holds them. */
  appendBytes(bytes: Buffer): ContentPlace {
    try {
      appendFileSync(path.join(this.dir, this.name), bytes);
    } catch (error) {
      // Some of the bytes may have been written: the next content starts a pack of its own.
      this.name = packName();
      this.at = 0;
      throw error;
    }
    const place = { pack: this.name, at: this.at, length: bytes.length };
    this.at += bytes.length;
    return place;
  }
}

function packName(): string {
  return `${process.pid}-${threadId}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}.pack`;
}

/** The bytes of a content at `place` in `dir`; throws when they cannot all be read. */
function readPlace(dir: string, place: ContentPlace): Buffer {
  const fd = openSync(path.join(dir, place.pack), 'r');
  try {
    const bytes = Buffer.allocUnsafe(place.length);
    const read = readSync(fd, bytes, 0, place.length, place.at);
    if (read !== place.length) throw new Error(`${place.pack} ends before ${place.at + place.length}`);
    return bytes;
  } finally {
    closeSync(fd);
  }
}

/**
 * The HTML and plain text of compiled bodies, kept apart from the rest of the markdown cache under
 * `.cache/site/bodies/`, found by the body's hash (of its HTML and text): packs, each the contents
 * one thread of one build appended in turn, and an index of where each content is. The markdown
 * cache holds what every build needs of every body (headings, references, ids, the hash); a body's
 * content is read only by the work that uses it: its page when it is rendered again, its search
 * shard when that is made again. A cold build keeps no body's content in memory once it is stored,
 * and a warm one reads a few of them rather than deserializing hundreds of megabytes.
 *
 * A content is in the index once the build that stored it saves (`flush`); a pack no index record
 * names, of a process that ended, is one that ended before saving, and is removed with the others
 * no record needs any more (`prune`).
 *
 * When nothing may be written (`site check`), what is made is kept in memory instead.
 * `site build --no-cache` gives it a temporary folder of the system's, removed at the end (see
 * `build` in pipeline.ts), so that a build without the cache holds no more than one with it.
 */
export class BodyContents {
  /** Contents kept in memory: all of them without a folder, and those that could not be stored otherwise. */
  private readonly held = new Map<string, BodyContent>();
  /** Places stored since the index was last written to. */
  private added: [string, ContentPlace][] = [];
  /** This thread's pack, once it stored a content. */
  private writer: PackWriter | undefined;
  /** The body made for each facts object, for as long as something holds those facts. */
  private readonly bodies = new WeakMap<BodyFacts, CompiledMarkdown>();
  private failure: unknown;

  private constructor(
    private readonly dir: string | undefined,
    private readonly write: boolean,
    /** Where each content is, as the index says and this build added. */
    private places: Map<string, ContentPlace>,
    /** Whether the index can be appended to: it ends with a whole record. */
    private whole: boolean,
  ) {}

  /** The contents kept in `dir` (none when undefined); written to only when `write`. */
  static async open(dir: string | undefined, write: boolean): Promise<BodyContents> {
    const places = new Map<string, ContentPlace>();
    if (!dir) return new BodyContents(dir, write, places, true);
    const { records, whole } = await readLog(path.join(dir, INDEX));
    for (const record of records) {
      const [key, pack, at, length] = record as [string, string, number, number];
      places.set(key, { pack, at, length });
    }
    if (write) await mkdir(dir, { recursive: true });
    return new BodyContents(dir, write, places, whole);
  }

  /**
   * The folder contents are written into, when they are: where a worker thread appends to a pack
   * of its own (see `PackWriter`), and tells the build's thread where (`adopt`).
   */
  get folder(): string | undefined {
    return this.write ? this.dir : undefined;
  }

  /** Takes note of a content stored into the folder by a worker thread. */
  adopt(key: string, place: ContentPlace): void {
    this.places.set(key, place);
    this.added.push([key, place]);
  }

  /** Whether the content of a body with this hash can be read. */
  has(key: string): boolean {
    return this.held.has(key) || this.places.has(key);
  }

  /** Keeps a body's content under its hash, appended to this thread's pack. */
  put(key: string, content: BodyContent): void {
    if (this.has(key)) return;
    if (!this.dir || !this.write) {
      this.held.set(key, content);
      return;
    }
    try {
      this.writer ??= new PackWriter(this.dir);
      this.adopt(key, this.writer.append(content));
    } catch (error) {
      // Kept in memory for this build; the save reports the failure.
      this.held.set(key, content);
      this.failure ??= error;
    }
  }

  get(key: string): BodyContent {
    const held = this.held.get(key);
    if (held) return held;
    const place = this.places.get(key);
    try {
      if (!place || !this.dir) throw new Error('not in the index');
      try {
        return deserialize(readPlace(this.dir, place)) as BodyContent;
      } catch (error) {
        // Moved meanwhile by another process's save (see `prune`): read where the index says now.
        const moved = this.movedPlace(key, place);
        if (!moved) throw error;
        this.places.set(key, moved);
        return deserialize(readPlace(this.dir, moved)) as BodyContent;
      }
    } catch (error) {
      // Gone (another build pruned it, or a hand deleted it): the next build compiles the body again.
      this.places.delete(key);
      throw new OperationalError(
        `a compiled body in the build cache cannot be read (${key})`,
        'Run the command again; if it fails again, delete the .cache folder.',
        { cause: error },
      );
    }
  }
  /** Where the index says the content of `key` is, when that is not `place` any more. */
  private movedPlace(key: string, place: ContentPlace): ContentPlace | undefined {
    let found: ContentPlace | undefined;
    for (const record of readLogSync(path.join(this.dir as string, INDEX)).records) {
      const [recorded, pack, at, length] = record as [string, string, number, number];
      if (recorded === key) found = { pack, at, length };
    }
    return found && (found.pack !== place.pack || found.at !== place.at) ? found : undefined;
  }

  /**
   * A body whose content is read from here each time it is asked for, and not kept. The same facts
   * give the same body object: a session's builds find most bodies in the markdown memo, and
   * would otherwise make thousands of these again on every build.
   */
  body(facts: BodyFacts): CompiledMarkdown {
    let body = this.bodies.get(facts);
    if (!body) {
      body = new StoredBodyView(facts, this);
      this.bodies.set(facts, body);
    }
    return body;
  }

  /** Records in the index where the contents stored by this build are; throws the first failure to store one. */
  async flush(): Promise<void> {
    if (this.failure) throw operational(this.failure, 'cannot write the build cache');
    if (!this.dir || !this.write || this.added.length === 0) return;
    const added = this.added;
    this.added = [];
    try {
      if (this.whole) await appendLog(path.join(this.dir, INDEX), added.map(indexRecord));
      else await this.rewriteIndex();
    } catch (error) {
      throw operational(error, 'cannot write the build cache');
    }
  }

  /**
   * Moves the contents `used` names (the keys of the bodies the markdown cache keeps) into a pack
   * of their own, and removes the packs they were in, once the packs hold more bytes no body uses
   * than bytes one does, or once there are many small packs (a build that changed a few bodies
   * makes one): only the small ones are merged then. Packs of processes still running are left to
   * them, as are contents stored since the last `flush`.
   */
  async prune(used: () => ReadonlySet<string>): Promise<void> {
    if (!this.dir || !this.write || this.added.length > 0) return;
    const dir = this.dir;
    const keys = used();
    let live = 0;
    for (const key of keys) live += this.places.get(key)?.length ?? 0;
    // The packs' sizes as they are on disk: what no used content takes in them is spent, whether
    // superseded, unused, or written by a build that ended before recording it.
    const names = await readdir(dir).catch(() => [] as string[]);
    const sizes = new Map(names.filter((name) => PACK.test(name)).map((name) => [name, sizeOf(path.join(dir, name))]));
    let total = 0;
    for (const size of sizes.values()) total += size;
    // Never a pack another process still appends to: it goes on from where it was.
    const named = packsOf(this.places);
    const packs = [...sizes].filter(([pack]) => named.has(pack) && ownedOrEnded(pack));
    const small = packs.filter(([, size]) => size < SMALL_PACK_BYTES).map(([pack]) => pack);
    const merged =
      total - live > live
        ? new Set(packs.map(([pack]) => pack))
        : small.length > SMALL_PACKS
          ? new Set(small)
          : new Set<string>();
    if (merged.size > 0) await this.merge(merged, keys);
    const left = packsOf(this.places);
    await Promise.all(
      names
        .filter((name) => unused(name, left, merged))
        .map((name) => rm(path.join(dir, name), { force: true }).catch(() => undefined)),
    );
  }

  /** Moves the contents of `merged` packs that `keys` names into a new pack, and forgets the others. */
  private async merge(merged: ReadonlySet<string>, keys: ReadonlySet<string>): Promise<void> {
    const dir = this.dir as string;
    const writer = new PackWriter(dir);
    const places = new Map<string, ContentPlace>();
    for (const [key, place] of this.places) {
      if (!merged.has(place.pack)) places.set(key, place);
      else if (keys.has(key)) {
        try {
          places.set(key, writer.appendBytes(readPlace(dir, place)));
        } catch {
          // Unreadable or gone: the body is compiled again when it is next needed.
        }
      }
    }
    this.places = places;
    await this.rewriteIndex();
    // This thread's next content starts a pack of its own: its last one may have been merged.
    this.writer = undefined;
  }

  private async rewriteIndex(): Promise<void> {
    await rewriteLog(path.join(this.dir as string, INDEX), Array.from(this.places, indexRecord));
    this.whole = true;
  }
}

/** The packs that hold the contents at `places`. */
function packsOf(places: ReadonlyMap<string, ContentPlace>): Set<string> {
  return new Set(Array.from(places.values(), (place) => place.pack));
}

/** The size of a file; none when it is gone. */
function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

function indexRecord([key, place]: [string, ContentPlace]): [string, string, number, number] {
  return [key, place.pack, place.at, place.length];
}

/** The process that wrote a pack, by its name; NaN for a name that is not a pack's. */
function packPid(name: string): number {
  return Number(PACK.exec(name)?.[1] ?? Number.NaN);
}

/** Whether a pack is this process's, or one of a process that ended. */
function ownedOrEnded(pack: string): boolean {
  const pid = packPid(pack);
  return pid === process.pid || !processRunning(pid);
}

/**
 * Whether a file of the folder is no longer needed once the packs in `merged` were merged: a pack
 * the index no longer names, merged or of a process that ended without recording it; or a
 * content of the layout before packs (a file named by its key).
 */
function unused(name: string, named: ReadonlySet<string>, merged: ReadonlySet<string>): boolean {
  if (name === INDEX || name.endsWith('.tmp') || named.has(name)) return false;
  const pid = packPid(name);
  if (Number.isNaN(pid)) return !name.includes('.');
  return merged.has(name) || !processRunning(pid);
}

/**
 * A body's facts other than its headings and references, copied from another object that has
 * them, for the classes whose instances stand for thousands of bodies: classes, not object literals
 * with getters, which V8 makes with their properties in a dictionary, one per body. The headings
 * and references are getters of each, read only when asked for (see packedFacts), and so are the
 * hrefs of its links, which every check reads (`KeptLinkHrefs`).
 */
export abstract class BodyFactFields implements BodyFacts, KeptLinkHrefs {
  readonly words: number;
  readonly hash: string;
  readonly ids: string[];
  readonly register: BodyFacts['register'];
  readonly problems: BodyFacts['problems'];

  constructor(from: Omit<BodyFacts, 'headings' | 'references'>) {
    this.words = from.words;
    this.hash = from.hash;
    this.ids = from.ids;
    this.register = from.register;
    this.problems = from.problems;
  }

  abstract get headings(): BodyFacts['headings'];
  abstract get references(): BodyFacts['references'];
  abstract get linkHrefs(): readonly string[];
}

/**
 * A compiled body whose facts are kept in memory and whose content is read from the build cache
 * when asked for (`BodyContents.body`).
 */
class StoredBodyView extends BodyFactFields implements CompiledMarkdown {
  readonly #facts: BodyFacts;
  readonly #contents: BodyContents;

  constructor(facts: BodyFacts, contents: BodyContents) {
    super(facts);
    this.#facts = facts;
    this.#contents = contents;
  }

  get headings(): CompiledMarkdown['headings'] {
    return this.#facts.headings;
  }

  get references(): CompiledMarkdown['references'] {
    return this.#facts.references;
  }

  get linkHrefs(): readonly string[] {
    return bodyLinkHrefs(this.#facts);
  }

  get html(): string {
    return this.#contents.get(this.hash).html;
  }

  get text(): string {
    return this.#contents.get(this.hash).text;
  }
}
