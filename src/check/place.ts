import type { Place } from '../diagnostics/diagnostic';
import { frontMatterPosition, jsonPathPosition } from '../diagnostics/position';
import type { ArticleEdition, Site } from '../model/site';

/** The place of a value in a JSON content file, by its path. */
export function jsonPlace(site: Site, file: string, path: readonly (string | number)[]): Place {
  const source = site.content.json.get(file)?.text;
  return { file, ...(source ? jsonPathPosition(source, path) : { line: 0, column: 0 }) };
}

/** The place of a front-matter key of an article edition. */
export function frontMatterPlace(edition: ArticleEdition, path: readonly (string | number)[]): Place {
  return { file: edition.source.file, ...frontMatterPosition(edition.source.text, path) };
}

/** A position in an article's markdown body, as a place in its file. */
export function bodyPlace(edition: ArticleEdition, line: number, column: number): Place {
  return { file: edition.source.file, line: line + edition.source.bodyLine - 1, column };
}
