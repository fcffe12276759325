import type { Diagnostic } from '../diagnostics/diagnostic';
import { RULES, type RuleCode } from '../diagnostics/codes';
import { frontMatterPosition, jsonPathPosition } from '../diagnostics/position';
import type { ArticleEdition, Site } from '../model/site';

/** Where a diagnostic points: a file and a 1-based line and column (0 when unknown). */
export interface Place {
  file: string;
  line: number;
  column: number;
}

const WARNINGS: ReadonlySet<RuleCode> = new Set(['ORPHAN001', 'HTTP001', 'I18N004']);

/** A diagnostic of a checker rule; the hint defaults to the rule's catalogue hint. */
export function diagnostic(code: RuleCode, place: Place, message: string, hint?: string): Diagnostic {
  return {
    code,
    severity: WARNINGS.has(code) ? 'warning' : 'error',
    file: place.file,
    line: place.line,
    column: place.column,
    message,
    hint: hint ?? RULES[code].hint,
  };
}

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
