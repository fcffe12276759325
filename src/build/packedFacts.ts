import type { Heading } from '../markdown/compile';
import type { BodyFacts } from './bodyContents';
import type { FoundInputs } from './found';
import type { Inputs } from './inputs';
import type { StoredBody } from './markdown';
import type { MemoCodec } from './memo';

/** A body's facts as the markdown cache writes them: the headings as one JSON text. */
type PackedFacts = Omit<BodyFacts, 'headings'> & { headingsJson: string };

/** The JSON text each facts object read from the cache had its headings in: written back as it was read. */
const packed = new WeakMap<BodyFacts, string>();

/**
 * The markdown cache keeps each body's headings (a large share of its values, many small objects
 * and strings) as one JSON text, parsed when they are first read. Only the render stage (a page's
 * table of contents) and the anchor checks read them, and a build in which nothing changed runs
 * neither: the findings are kept by the check's own cache. Read up front, they were deserialized
 * and then copied by the collector at the start of every build.
 */
export const packedFacts: MemoCodec<StoredBody> = {
  write({ body, found }) {
    const { words, hash, references, ids, register, problems } = body;
    // Headings read from the cache and never asked for are written back as the text they were read as, not parsed.
    const headingsJson = packed.get(body) ?? JSON.stringify(body.headings);
    const written: PackedFacts = { words, hash, references, ids, register, problems, headingsJson };
    return { body: written, found };
  },
  read(stored) {
    const { body, found: kept } = stored as { body: PackedFacts | BodyFacts; found: FoundInputs | Inputs };
    // Found inputs an older build kept as an object: listed (its code is not this, so no lookup finds it).
    const found = Array.isArray(kept) ? kept : Object.entries(kept).flat();
    // A record of other code, written before the headings were packed: given back as it is. Its
    // inputs name that code, so no lookup finds it (this module is part of the markdown code, WORK).
    if (!('headingsJson' in body)) return { body, found };
    const { headingsJson, ...rest } = body;
    return { body: withHeadings(rest, headingsJson), found };
  },
};

/** Facts whose headings are parsed from `json` when first read. */
function withHeadings(rest: Omit<PackedFacts, 'headingsJson'>, json: string): BodyFacts {
  const facts = new PackedBodyFacts(rest, json);
  packed.set(facts, json);
  return facts;
}

/**
 * A body's facts as read from the markdown cache. A class, so that they all share one hidden
 * class: an accessor defined on each object (`Object.defineProperties`) gave each a hidden class of
 * its own, and an object literal with a getter is made with its properties in a dictionary; either
 * way every read of a body's words, hash, references or ids, all over the build, paid for it.
 */
class PackedBodyFacts implements BodyFacts {
  readonly words: number;
  readonly hash: string;
  readonly references: BodyFacts['references'];
  readonly ids: string[];
  readonly register: BodyFacts['register'];
  readonly problems: BodyFacts['problems'];
  readonly #json: string;
  #headings: Heading[] | undefined;

  constructor(rest: Omit<PackedFacts, 'headingsJson'>, json: string) {
    this.words = rest.words;
    this.hash = rest.hash;
    this.references = rest.references;
    this.ids = rest.ids;
    this.register = rest.register;
    this.problems = rest.problems;
    this.#json = json;
  }

  get headings(): Heading[] {
    this.#headings ??= JSON.parse(this.#json) as Heading[];
    return this.#headings;
  }
}
