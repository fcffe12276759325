import { type Diagnostic, diagnostic } from '../diagnostics/diagnostic';
import type { Article, Site } from '../model/site';
import { type ArticleRulesMemo, byArticle } from './byArticle';
import { frontMatterPlace, jsonPlace } from './place';

/**
 * TRANS001 and TRANS002: a warning on each article edition shown by this build whose counterpart
 * changed since the two were last brought in line, or that was never brought in line with it;
 * and the same for the bilingual texts of the JSON content (src/translations).
 */
export function checkOutdated(site: Site, memo?: ArticleRulesMemo): Diagnostic[] {
  const { editions, texts } = site.translations;
  // The states are one map from build to build while none changed (src/translations/state.ts).
  const out = byArticle(
    site,
    { name: 'outdated', reads: [editions], judge: (article) => outdatedEditions(site, article) },
    memo,
  );
  for (const text of texts) {
    const place =
      text.path.length > 0 ? jsonPlace(site, text.file, text.path) : { file: text.file, line: 0, column: 0 };
    if (text.kind === 'outdated')
      out.push(diagnostic('TRANS001', place, { lang: text.lang ?? 'pt', since: text.since ?? '', sync: text.file }));
    else out.push(diagnostic('TRANS002', place, { kind: text.path.length > 0 ? 'text' : 'file', sync: text.file }));
  }
  return out;
}

function outdatedEditions(site: Site, article: Article): Diagnostic[] {
  const out: Diagnostic[] = [];
  const { editions } = site.translations;
  for (const edition of Object.values(article.editions)) {
    const state = editions.get(edition.source.file);
    // A counterpart this build leaves out (a draft being reworked) is nothing a reader can compare with yet.
    if (!article.editions[edition.lang === 'en' ? 'pt' : 'en']) continue;
    if (state?.kind === 'outdated') {
      out.push(
        diagnostic('TRANS001', frontMatterPlace(edition, ['title']), {
          lang: edition.lang,
          since: state.since,
          counterpart: state.counterpart.file,
          changed: state.changed,
          removed: state.removed,
          sync: edition.source.file,
        }),
      );
    } else if (state?.kind === 'untracked' && edition.lang === 'pt') {
      // Said once per article, on the Portuguese edition.
      out.push(
        diagnostic('TRANS002', frontMatterPlace(edition, ['title']), { kind: 'article', sync: edition.source.file }),
      );
    }
  }
  return out;
}
