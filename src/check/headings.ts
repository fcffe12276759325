import { type Diagnostic, diagnostic } from '../diagnostics/diagnostic';
import type { ArticleEdition } from '../model/site';
import { bodyPlace } from './place';

/**
 * MD003 for one article edition: a heading more than one level below the heading it follows.
 * Screen readers list a page by its headings, and a skipped level reads as a missing section
 * (WCAG 1.3.1). The page's title is the level 1 heading, so the body's first heading may be a
 * level 2 one; a heading may go back up any number of levels.
 */
export function editionHeadingProblems(edition: ArticleEdition): Diagnostic[] {
  const out: Diagnostic[] = [];
  let above: { text: string; depth: number } | undefined;
  for (const { text, depth, line, column } of edition.body.headings) {
    if (depth > (above?.depth ?? 1) + 1)
      out.push(diagnostic('MD003', bodyPlace(edition, line, column), { text, depth, above }));
    above = { text, depth };
  }
  return out;
}
