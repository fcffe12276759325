import { type Diagnostic, diagnostic, type Place } from '../diagnostics/diagnostic';
import { type Register, type RegisterMark, registerMarks } from '../markdown/register';
import type { ArticleEdition, Site } from '../model/site';
import { bodyPlace, frontMatterPlace, jsonPlace } from './place';

/** Where a Portuguese text is: the place of a mark at an offset of it. */
type PlaceIn = (offset: number) => Place;

/** The marks of register in a Portuguese edition's title or description, when already found (editions.ts). */
export type FrontMatterMarks = (
  edition: ArticleEdition,
  key: 'title' | 'description',
) => readonly RegisterMark[] | undefined;

/** A Portuguese text of a JSON content file that has marks of register, and where it is in its file. */
interface JsonMarks {
  marks: readonly RegisterMark[];
  path: (string | number)[];
}

/**
 * The marks of register of each JSON content value, by the value (a session's memory: a file whose
 * text is unchanged keeps its parsed value, see `loadContent`).
 */
export type JsonMarksMemo = WeakMap<object, readonly JsonMarks[]>;

/**
 * What I18N004 keeps in a session: the marks of each JSON value, and how many of each register each
 * Portuguese edition holds, while they live.
 */
export interface RegisterMemo {
  json: JsonMarksMemo;
  editions: WeakMap<ArticleEdition, Readonly<Record<Register, number>>>;
}

/** The Portuguese texts of a JSON value that have marks of register, with their paths. */
function jsonMarks(value: unknown, known: JsonMarksMemo | undefined): readonly JsonMarks[] {
  const cached = value && typeof value === 'object' ? known?.get(value) : undefined;
  if (cached) return cached;
  const found: JsonMarks[] = [];
  const add = (text: string, path: (string | number)[]) => {
    const marks = registerMarks(text);
    if (marks.length > 0) found.push({ marks, path });
  };
  const walk = (value: unknown, path: (string | number)[]) => {
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) walk(item, [...path, i]);
    } else if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        if (key === 'pt' && typeof child === 'string') add(child, [...path, key]);
        else if (key === 'pt' && Array.isArray(child)) {
          for (const [i, line] of child.entries()) if (typeof line === 'string') add(line, [...path, key, i]);
        } else walk(child, [...path, key]);
      }
    }
  };
  walk(value, []);
  if (value && typeof value === 'object') known?.set(value, found);
  return found;
}

/** Every JSON content file that speaks to the reader, with its value. */
function jsonContent(site: Site): [file: string, value: unknown][] {
  const { content } = site;
  return [
    ['content/strings.json', content.strings],
    ['content/navigation.json', content.navigation],
    ['content/owner.json', content.owner],
    ...Object.entries(content.pages).map(([name, page]): [string, unknown] => [`content/pages/${name}.json`, page]),
    ...[...site.categories.values()].map((category): [string, unknown] => [category.file, category.data]),
  ];
}

/**
 * Every Portuguese text of the site that speaks to its reader: its marks of register (an article
 * body's come with its compiled body), and where it is.
 */
function eachPortugueseText(
  site: Site,
  known: FrontMatterMarks,
  jsonKnown: JsonMarksMemo | undefined,
  visit: (marks: readonly RegisterMark[], place: PlaceIn) => void,
): void {
  for (const [file, value] of jsonContent(site)) {
    for (const { marks, path } of jsonMarks(value, jsonKnown)) visit(marks, () => jsonPlace(site, file, path));
  }
  for (const article of site.articles) {
    const edition = article.editions.pt;
    if (!edition) continue;
    for (const key of ['title', 'description'] as const) {
      const value = edition.source.frontMatter[key];
      if (value) visit(known(edition, key) ?? registerMarks(value), () => frontMatterPlace(edition, [key]));
    }
    visit(edition.body.register, (offset) => {
      const before = edition.source.body.slice(0, offset);
      const line = before.split('\n').length;
      return bodyPlace(edition, line, offset - before.lastIndexOf('\n'));
    });
  }
}

/**
 * How many marks of each register the Portuguese texts hold: what `eachPortugueseText` visits, with
 * no place made for any.
 */
function countRegister(site: Site, known: FrontMatterMarks, memo: RegisterMemo | undefined): Record<Register, number> {
  const counts: Record<Register, number> = { tu: 0, você: 0 };
  const count = (into: Record<Register, number>, marks: readonly RegisterMark[]) => {
    for (const mark of marks) into[mark.register]++;
  };
  for (const [, value] of jsonContent(site)) for (const { marks } of jsonMarks(value, memo?.json)) count(counts, marks);
  for (const article of site.articles) {
    const edition = article.editions.pt;
    if (!edition) continue;
    let own = memo?.editions.get(edition);
    if (!own) {
      const { title, description } = edition.source.frontMatter;
      const made = { tu: 0, você: 0 };
      count(made, known(edition, 'title') ?? registerMarks(title));
      if (description) count(made, known(edition, 'description') ?? registerMarks(description));
      count(made, edition.body.register);
      memo?.editions.set(edition, made);
      own = made;
    }
    counts.tu += own.tu;
    counts.você += own.você;
  }
  return counts;
}

/**
 * I18N004: the Portuguese texts address the reader in one register. When both *tu* and *você*
 * appear, the less used one is reported at each place it appears (a tie reports *você*).
 */
export function checkRegister(
  site: Site,
  known: FrontMatterMarks = () => undefined,
  memo?: RegisterMemo,
): Diagnostic[] {
  // Counted first: most sites keep to one register, and nothing more is needed.
  const { tu, você: voce } = countRegister(site, known, memo);
  if (tu === 0 || voce === 0) return [];
  const found: { mark: RegisterMark; place: () => Place }[] = [];
  eachPortugueseText(site, known, memo?.json, (marks, place) => {
    for (const mark of marks) found.push({ mark, place: () => place(mark.offset) });
  });
  const odd: Register = voce <= tu ? 'você' : 'tu';
  const usual = found.find((f) => f.mark.register !== odd)!;
  const example = { words: usual.mark.words, file: usual.place().file };
  return found
    .filter((f) => f.mark.register === odd)
    .map(({ mark, place }) =>
      diagnostic('I18N004', place(), { words: mark.words, form: odd, places: Math.max(tu, voce), example }),
    );
}
