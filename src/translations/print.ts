/**
 * What the translation lock (lock.ts) records of a text: a short hash of each part a reader would
 * name. An article edition's parts are its title, its description and each section of its body
 * (the text before the first "## " heading, then each "## " heading with what follows it up to the
 * next), so an outdated translation can say which sections changed. A JSON text is one part.
 */
import { createHash } from 'node:crypto';

/** One part of a text: its name ("" for the body's opening, before any heading) and a hash of its words. */
export interface PrintedPart {
  name: string;
  hash: string;
}

/** An article edition's parts, in order. */
export interface EditionPrint {
  title: string;
  description: string;
  /** The body's sections, each as "hash name" (the opening's name is empty): compact in the lock file. */
  sections: readonly string[];
}

/** A text's hash: its words, with line endings and trailing spaces made the same. */
export function textHash(text: string): string {
  const normal = text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+$/gm, '')
    .trim();
  return createHash('sha1').update(normal).digest('hex').slice(0, 10);
}

/** The hash and name of each "## " section of a markdown body; fenced code is never a heading. */
export function bodySections(body: string): PrintedPart[] {
  const parts: PrintedPart[] = [];
  let name = '';
  let lines: string[] = [];
  let fence: string | undefined;
  const close = () => {
    // The heading is part of its section: renaming it changes the section.
    if (name !== '' || lines.some((line) => line.trim() !== ''))
      parts.push({ name, hash: textHash(`${name}\n${lines.join('\n')}`) });
  };
  for (const line of body.split(/\r?\n/)) {
    const opening = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== undefined) {
      if (opening && opening[0] === fence[0] && opening.length >= fence.length && line.trim() === opening)
        fence = undefined;
    } else if (opening) {
      fence = opening;
    } else {
      const heading = /^ {0,3}##[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line);
      if (heading) {
        close();
        name = heading[1] ?? '';
        lines = [];
        continue;
      }
    }
    lines.push(line);
  }
  close();
  return parts;
}

/** An article edition's print, from its front matter and body. */
export function editionPrint(title: string, description: string | undefined, body: string): EditionPrint {
  return {
    title: textHash(title),
    description: textHash(description ?? ''),
    sections: bodySections(body).map((part) => ownCopy(`${part.hash} ${part.name}`)),
  };
}

/**
 * A string of its own. A heading cut out of a body is a slice of the whole file's text, and holds
 * all of it in memory for as long as the heading is kept: a print is kept for the whole build,
 * and every article's file would be kept with it.
 */
function ownCopy(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

/**
 * The parts of a print, named as a reader would: "the title", "the description", "the opening", or
 * a section's heading.
 */
export function printedParts(print: EditionPrint): PrintedPart[] {
  return [
    { name: 'the title', hash: print.title },
    { name: 'the description', hash: print.description },
    ...print.sections.map((entry) => {
      const space = entry.indexOf(' ');
      const name = entry.slice(space + 1);
      return { name: name === '' ? 'the opening' : `"${name}"`, hash: entry.slice(0, space) };
    }),
  ];
}

/**
 * What changed from the print `was` to `now`: parts changed or added (by name, in order), and how
 * many were removed.
 */
export function printChanges(was: EditionPrint, now: EditionPrint): { changed: string[]; removed: number } {
  const before = printedParts(was);
  const after = printedParts(now);
  const hashes = new Set(before.map((part) => part.hash));
  const names = new Set(after.map((part) => part.name));
  const changed = after.filter((part) => !hashes.has(part.hash)).map((part) => part.name);
  // Names gone, less the new names that took their places (a renamed section is a changed one).
  const named = new Set(before.map((part) => part.name));
  const gone = before.filter((part) => !names.has(part.name)).length;
  const added = after.filter((part) => !named.has(part.name)).length;
  return { changed, removed: Math.max(0, gone - added) };
}

/** Whether two prints record the same text. */
export function samePrint(a: EditionPrint, b: EditionPrint): boolean {
  if (a instanceof PackedPrint && b instanceof PackedPrint) return a.packed === b.packed;
  return (
    a.title === b.title &&
    a.description === b.description &&
    a.sections.length === b.sections.length &&
    a.sections.every((s, i) => s === b.sections[i])
  );
}

/**
 * A print as the build cache keeps it: its parts in one text, a line each (a part is a hash, or a
 * hash and a heading, which holds no line break), read back as one string rather than an object,
 * an array and a dozen strings. Thousands of prints are read on every build (each article's, and
 * each the lock holds) to be compared, most of them only to find them the same: two packed prints
 * are compared as their texts, and a part is read out of the text when asked for.
 */
export class PackedPrint implements EditionPrint {
  readonly #text: string;
  #sections: readonly string[] | undefined;

  private constructor(text: string) {
    this.#text = text;
  }

  /** The print kept as `text` (`packPrint`). */
  static read(text: string): PackedPrint {
    return new PackedPrint(text);
  }

  get title(): string {
    return this.#text.slice(0, this.#text.indexOf('\n'));
  }

  get description(): string {
    const start = this.#text.indexOf('\n') + 1;
    const end = this.#text.indexOf('\n', start);
    return this.#text.slice(start, end === -1 ? undefined : end);
  }

  get sections(): readonly string[] {
    if (!this.#sections) {
      const lines = this.#text.split('\n');
      this.#sections = lines.slice(2);
    }
    return this.#sections;
  }

  /** The text it is kept as. */
  get packed(): string {
    return this.#text;
  }

  /** As the lock file writes a print. */
  toJSON(): EditionPrint {
    return { title: this.title, description: this.description, sections: this.sections };
  }
}

/**
 * A print as one text for the build cache (`PackedPrint`), or undefined when one of its parts
 * holds a line break (none that `editionPrint` makes does; a lock edited by hand might).
 */
export function packPrint(print: EditionPrint): string | undefined {
  if (print instanceof PackedPrint) return print.packed;
  const parts = [print.title, print.description, ...print.sections];
  return parts.some((part) => part.includes('\n')) ? undefined : parts.join('\n');
}
