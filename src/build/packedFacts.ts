import type { Heading, Reference } from '../markdown/compile';
import { bodyLinkHrefs, linkHrefs } from '../markdown/linkHrefs';
import { BodyFactFields, type BodyFacts } from './bodyContents';
import type { FoundInputs } from './found';
import type { Inputs } from './inputs';
import type { StoredBody } from './markdown';
import type { MemoCodec } from './memo';

/**
 * A body's facts as the markdown cache writes them: the headings and the references each as one
 * JSON text, and the hrefs of its links beside them.
 */
type PackedFacts = Omit<BodyFacts, 'headings' | 'references'> & {
  headingsJson: string;
  referencesJson: string;
  linkHrefs: string[];
};

/** Facts as the cache held them before the references were packed: the headings alone were. */
type HeadingsPacked = Omit<BodyFacts, 'headings'> & { headingsJson: string };

/**
 * The markdown cache keeps each body's headings and references (a large share of its values, many
 * small objects and strings) as JSON texts, parsed when they are first read. Only the render stage
 * (a page's table of contents) and the anchor checks read the headings, and only the edition rules
 * of an edition judged read its references, while every check reads the paths all links lead to:
 * those are read from the hrefs of its links (`linkHrefs`), kept beside them. Read up front, they
 * were deserialized and then marked by the collector at the start of every build.
 */
export const packedFacts: MemoCodec<StoredBody> = {
  write({ body, found }) {
    const { words, hash, ids, register, problems } = body;
    // What was read from the cache and never asked for is written back as the text it was read as, not parsed.
    const packed = body instanceof PackedBodyFacts;
    const headingsJson = packed ? body.headingsJson : JSON.stringify(body.headings);
    const referencesJson = packed ? body.referencesJson : JSON.stringify(body.references);
    const written: PackedFacts = {
      words,
      hash,
      ids,
      register,
      problems,
      headingsJson,
      referencesJson,
      linkHrefs: [...bodyLinkHrefs(body)],
    };
    return { body: written, found };
  },
  read(stored) {
    const { body, found: kept } = stored as {
      body: PackedFacts | HeadingsPacked | BodyFacts;
      found: FoundInputs | Inputs;
    };
    // Found inputs an older build kept as an object: listed (its code is not this, so no lookup finds it).
    const found = Array.isArray(kept) ? kept : Object.entries(kept).flat();
    // A record of other code, written before the headings were packed: given back as it is. Its
    // inputs name that code, so no lookup finds it (this module is part of the markdown code, WORK).
    if (!('headingsJson' in body)) return { body, found };
    if (!('referencesJson' in body)) {
      // Of other code too, written before the references were packed: packed as this code would
      // (none, should a record hold none: it is never found, but must not stop the cache's read).
      const { headingsJson, references: held, ...rest } = body;
      const references = Array.isArray(held) ? held : [];
      return {
        body: new PackedBodyFacts(rest, headingsJson, JSON.stringify(references), linkHrefs(references)),
        found,
      };
    }
    const { headingsJson, referencesJson, linkHrefs: hrefs, ...rest } = body;
    return { body: new PackedBodyFacts(rest, headingsJson, referencesJson, hrefs), found };
  },
};

/**
 * A body's facts as read from the markdown cache, its headings and references parsed from the JSON
 * texts they were kept as when first read.
 */
class PackedBodyFacts extends BodyFactFields {
  readonly #headingsJson: string;
  readonly #referencesJson: string;
  readonly #linkHrefs: readonly string[];
  #headings: Heading[] | undefined;
  #references: Reference[] | undefined;

  constructor(
    rest: Omit<BodyFacts, 'headings' | 'references'>,
    headingsJson: string,
    referencesJson: string,
    hrefs: readonly string[],
  ) {
    super(rest);
    this.#headingsJson = headingsJson;
    this.#referencesJson = referencesJson;
    this.#linkHrefs = hrefs;
  }

  get headings(): Heading[] {
    this.#headings ??= JSON.parse(this.#headingsJson) as Heading[];
    return this.#headings;
  }

  get references(): Reference[] {
    this.#references ??= JSON.parse(this.#referencesJson) as Reference[];
    return this.#references;
  }

  get linkHrefs(): readonly string[] {
    return this.#linkHrefs;
  }

  /** The text the headings were read as: written back as it is. */
  get headingsJson(): string {
    return this.#headingsJson;
  }

  /** The text the references were read as: written back as it is. */
  get referencesJson(): string {
    return this.#referencesJson;
  }
}
