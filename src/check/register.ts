import { type Diagnostic, diagnostic, type Place } from '../diagnostics/diagnostic';
import { type Register, type RegisterMark, registerMarks } from '../markdown/register';
import type { ArticleEdition, Site } from '../model/site';
import { bodyPlace, frontMatterPlace, jsonPlace } from './place';

/** Where a Portuguese text is: the place of a mark at an offset of it. */
type PlaceIn = (offset: number) => Place;

/** The marks of register in a Portuguese edition's title or description, when already found (editions.ts). */
export type FrontMatterMarks = (edition: ArticleEdition, key: 'title' | 'description') => readonly RegisterMark[] | undefined;

/** Every Portuguese text of the site that speaks to its reader: its marks of register (an article body's come with its compiled body), and where it is. */
function eachPortugueseText(site: Site, known: FrontMatterMarks, visit: (marks: readonly RegisterMark[], place: PlaceIn) => void): void {
  const json = (file: string, value: unknown, path: (string | number)[] = []) => {
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) json(file, item, [...path, i]);
    } else if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        if (key === 'pt' && typeof child === 'string') visit(registerMarks(child), () => jsonPlace(site, file, [...path, key]));
        else if (key === 'pt' && Array.isArray(child)) {
          for (const [i, line] of child.entries()) {
            if (typeof line === 'string') visit(registerMarks(line), () => jsonPlace(site, file, [...path, key, i]));
          }
        } else json(file, child, [...path, key]);
      }
    }
  };
  const { content } = site;
  json('content/strings.json', content.strings);
  json('content/navigation.json', content.navigation);
  json('content/owner.json', content.owner);
  for (const [name, page] of Object.entries(content.pages)) json(`content/pages/${name}.json`, page);
  for (const category of site.categories.values()) json(category.file, category.data);
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
 * I18N004: the Portuguese texts address the reader in one register. When both *tu* and *você*
 * appear, the less used one is reported at each place it appears (a tie reports *você*).
 */
export function checkRegister(site: Site, known: FrontMatterMarks = () => undefined): Diagnostic[] {
  // Counted first: most sites keep to one register, and nothing more is needed.
  const counts: Record<Register, number> = { tu: 0, você: 0 };
  eachPortugueseText(site, known, (marks) => {
    for (const mark of marks) counts[mark.register]++;
  });
  const { tu, você: voce } = counts;
  if (tu === 0 || voce === 0) return [];
  const found: { mark: RegisterMark; place: () => Place }[] = [];
  eachPortugueseText(site, known, (marks, place) => {
    for (const mark of marks) found.push({ mark, place: () => place(mark.offset) });
  });
  const odd: Register = voce <= tu ? 'você' : 'tu';
  const usual = found.find((f) => f.mark.register !== odd)!;
  const example = { words: usual.mark.words, file: usual.place().file };
  return found.filter((f) => f.mark.register === odd).map(({ mark, place }) => diagnostic('I18N004', place(), { words: mark.words, form: odd, places: Math.max(tu, voce), example }));
}
