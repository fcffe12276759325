import type { Heading } from '../markdown/compile';
import { BodyFactFields, type BodyFacts } from './bodyContents';
import type { FoundInputs } from './found';
import type { Inputs } from './inputs';
import type { StoredBody } from './markdown';
import type { MemoCodec } from './memo';

/** A body's facts as the markdown cache writes them: the headings as one JSON text. */
type PackedFacts = Omit<BodyFacts, 'headings'> & { headingsJson: string };

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
    const headingsJson = body instanceof PackedBodyFacts ? body.headingsJson : JSON.stringify(body.headings);
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
    return { body: new PackedBodyFacts(rest, headingsJson), found };
  },
};

/**
 * A body's facts as read from the markdown cache, its headings parsed from the JSON text they were
 * kept as when first read.
 */
class PackedBodyFacts extends BodyFactFields {
  readonly #json: string;
  #headings: Heading[] | undefined;

  constructor(rest: Omit<PackedFacts, 'headingsJson'>, json: string) {
    super(rest);
    this.#json = json;
  }

  get headings(): Heading[] {
    this.#headings ??= JSON.parse(this.#json) as Heading[];
    return this.#headings;
  }

  /** The text the headings were read as: written back as it is. */
  get headingsJson(): string {
    return this.#json;
  }
}
