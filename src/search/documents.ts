import type { Site } from '../model/site';
import { plainTitle } from '../render/breadcrumbs';
import type { Lang } from '../shared/lang';
import type { SearchDocument } from '../shared/search';

/** Every article edition in `lang`, as a search document (headings and captions are in the body). */
export function searchDocuments(site: Site, lang: Lang): SearchDocument[] {
  return site.articles.flatMap((article) => {
    const edition = article.editions[lang];
    if (!edition) return [];
    const category = site.categories.get(article.category);
    const fm = edition.source.frontMatter;
    return [
      {
        id: edition.url,
        title: fm.title,
        category: category ? plainTitle(category.data.title[lang]) : article.category,
        endpoint: edition.url,
        text: `${fm.description ?? ''} ${edition.body.text}`,
      },
    ];
  });
}
