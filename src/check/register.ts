import { type Diagnostic, diagnostic, type Place } from '../diagnostics/diagnostic';
import { type Register, type RegisterMark, registerMarks } from '../markdown/register';
import type { ArticleEdition, Site } from '../model/site';
import { bodyPlace, frontMatterPlace, jsonPlace } from './place';

interface PortugueseText {
  /** The marks of register in the text (an article body's come with its compiled body). */
  marks: readonly RegisterMark[];
  place: (offset: number) => Place;
}

/** Every Portuguese text of the site that speaks to its reader, with where to report in it. */
/** The marks of register in a Portuguese edition's title or description, when already found (editions.ts). */
export type FrontMatterMarks = (edition: ArticleEdition, key: 'title' | 'description') => readonly RegisterMark[] | undefined;

function portugueseTexts(site: Site, known: FrontMatterMarks): PortugueseText[] {
  const texts: PortugueseText[] = [];
  const json = (file: string, value: unknown, path: (string | number)[] = []) => {
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) json(file, item, [...path, i]);
    } else if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        if (key === 'pt' && typeof child === 'string') texts.push({ marks: registerMarks(child), place: () => jsonPlace(site, file, [...path, key]) });
        else if (key === 'pt' && Array.isArray(child)) {
          for (const [i, line] of child.entries()) {
            if (typeof line === 'string') texts.push({ marks: registerMarks(line), place: () => jsonPlace(site, file, [...path, key, i]) });
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
      if (value) texts.push({ marks: known(edition, key) ?? registerMarks(value), place: () => frontMatterPlace(edition, [key]) });
    }
    texts.push({
      marks: edition.body.register,
      place: (offset) => {
        const before = edition.source.body.slice(0, offset);
        const line = before.split('\n').length;
        return bodyPlace(edition, line, offset - before.lastIndexOf('\n'));
      },
    });
  }
  return texts;
}

/**
 * I18N004: the Portuguese texts address the reader in one register. When both *tu* and *você*
 * appear, the less used one is reported at each place it appears (a tie reports *você*).
 */
export function checkRegister(site: Site, known: FrontMatterMarks = () => undefined): Diagnostic[] {
  const found = portugueseTexts(site, known).flatMap((t) => t.marks.map((mark) => ({ mark, place: () => t.place(mark.offset) })));
  const count = (r: Register) => found.filter((f) => f.mark.register === r).length;
  const tu = count('tu');
  const voce = count('você');
  if (tu === 0 || voce === 0) return [];
  const odd: Register = voce <= tu ? 'você' : 'tu';
  const usual = found.find((f) => f.mark.register !== odd)!;
  const example = { words: usual.mark.words, file: usual.place().file };
  return found.filter((f) => f.mark.register === odd).map(({ mark, place }) => diagnostic('I18N004', place(), { words: mark.words, form: odd, places: Math.max(tu, voce), example }));
}
