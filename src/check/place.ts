import type { Place } from '../diagnostics/diagnostic';
import { frontMatterPosition, jsonPathPosition, type Position } from '../diagnostics/position';
import type { ArticleEdition, Site } from '../model/site';

/**
 * The place of a value in a JSON content file, by its path. Its line and column are worked out
 * when first read (the file is parsed for it): most places made by the rules are never reported.
 */
export function jsonPlace(site: Site, file: string, path: readonly (string | number)[]): Place {
  let position: Position | undefined;
  const at = () => {
    const source = site.content.json.get(file)?.text;
    position ??= source ? jsonPathPosition(source, path) : { line: 0, column: 0 };
    return position;
  };
  return {
    file,
    get line() {
      return at().line;
    },
    get column() {
      return at().column;
    },
  };
}

/** The place of a front-matter key of an article edition. */
export function frontMatterPlace(edition: ArticleEdition, path: readonly (string | number)[]): Place {
  return { file: edition.source.file, ...frontMatterPosition(edition.source.text, path) };
}

/** A position in an article's markdown body, as a place in its file. */
export function bodyPlace(edition: ArticleEdition, line: number, column: number): Place {
  return { file: edition.source.file, line: line + edition.source.bodyLine - 1, column };
}
