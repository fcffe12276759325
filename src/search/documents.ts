import type { Article, Site } from '../model/site';
import { plainTitle } from '../render/breadcrumbs';
import type { Lang } from '../shared/lang';
import type { SearchDocument } from '../shared/search';

/** An article's edition in `lang` as a search document (headings and captions are in the body). */
export function searchDocument(site: Site, article: Article, lang: Lang): SearchDocument | undefined {
  const edition = article.editions[lang];
  if (!edition) return undefined;
  const fm = edition.source.frontMatter;
  return {
    id: edition.url,
    title: fm.title,
    category: categoryTitle(site, article, lang),
    endpoint: edition.url,
    text: `${fm.description ?? ''} ${edition.body.text}`,
  };
}

/** Every article edition in `lang`, as a search document. */
export function searchDocuments(site: Site, lang: Lang): SearchDocument[] {
  return site.articles.flatMap((article) => searchDocument(site, article, lang) ?? []);
}

/**
 * What an edition's search document is made from, small enough to hash for every edition on every
 * build: the body by its hash rather than its text.
 */
export function documentFields(site: Site, article: Article, lang: Lang): string[] {
  const edition = article.editions[lang];
  if (!edition) return [];
  const fm = edition.source.frontMatter;
  return [edition.url, fm.title, fm.description ?? '', categoryTitle(site, article, lang), edition.body.hash];
}

function categoryTitle(site: Site, article: Article, lang: Lang): string {
  const category = site.categories.get(article.category);
  return category ? plainTitle(category.data.title[lang]) : article.category;
}
