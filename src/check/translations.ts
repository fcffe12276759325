import { type Diagnostic, diagnostic } from '../diagnostics/diagnostic';
import type { Article, Site } from '../model/site';
import { LANGUAGES } from '../shared/lang';
import { UI_STRING_KEYS } from '../shared/strings';
import { type ArticleRulesMemo, byArticle } from './byArticle';
import { frontMatterPlace, jsonPlace } from './place';

/**
 * I18N001-003: every UI string in both languages; every text a page shows in each language the
 * page offers; hand-picked listing entries titled in every language their article is written in.
 */
export function checkTranslations(site: Site, memo?: ArticleRulesMemo): Diagnostic[] {
  const out: Diagnostic[] = [];
  const strings = site.content.strings;
  for (const key of UI_STRING_KEYS) {
    for (const lang of LANGUAGES) {
      if (!strings[key][lang]) {
        out.push(diagnostic('I18N001', jsonPlace(site, 'content/strings.json', [key]), { key, lang }));
      }
    }
  }
  for (const category of site.categories.values()) {
    const { msg, breadcrumbs } = category.data;
    for (const lang of LANGUAGES) {
      if (msg && !msg[lang])
        out.push(
          diagnostic('I18N002', jsonPlace(site, category.file, ['msg']), {
            kind: 'note',
            lang,
            category: category.data.blogcategory,
          }),
        );
      breadcrumbs?.forEach((item, i) => {
        if (!item.title[lang])
          out.push(
            diagnostic('I18N002', jsonPlace(site, category.file, ['breadcrumbs', i, 'title']), {
              kind: 'breadcrumb',
              lang,
              path: item.path,
              edition: false,
            }),
          );
      });
    }
  }
  // What an article's front matter says is judged from the article alone.
  for (const d of byArticle(site, { name: 'translations', reads: [], judge: untranslatedEntries }, memo)) out.push(d);
  for (const [key, entries] of Object.entries(site.content.pages.blog.highlights ?? {})) {
    entries.forEach((entry, i) => {
      const article = site.articleByPath.get(entry.path);
      if (!article) return;
      for (const lang of LANGUAGES) {
        if (article.editions[lang] && !entry.title[lang]) {
          out.push(
            diagnostic('I18N003', jsonPlace(site, 'content/pages/blog.json', ['highlights', key, i, 'title']), {
              path: entry.path,
              lang,
              title: article.editions[lang]!.source.frontMatter.title,
            }),
          );
        }
      }
    });
  }
  return out;
}

/** I18N002 on an article's own front matter: its breadcrumbs and its index entries, titled in its language. */
function untranslatedEntries(article: Article): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const edition of Object.values(article.editions)) {
    const { breadcrumbs, index } = edition.source.frontMatter;
    breadcrumbs?.forEach((item, i) => {
      if (!item.title[edition.lang])
        out.push(
          diagnostic('I18N002', frontMatterPlace(edition, ['breadcrumbs', i, 'title']), {
            kind: 'breadcrumb',
            lang: edition.lang,
            path: item.path,
            edition: true,
          }),
        );
    });
    if (Array.isArray(index)) {
      index.forEach((entry, i) => {
        if (!entry.text[edition.lang])
          out.push(
            diagnostic('I18N002', frontMatterPlace(edition, ['index', i, 'text']), {
              kind: 'indexEntry',
              lang: edition.lang,
              id: entry.id,
            }),
          );
      });
    }
  }
  return out;
}
