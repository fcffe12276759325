import type { Site } from '../model/site';
import { plainTitle } from '../render/breadcrumbs';
import type { Lang } from '../shared/lang';
import type { SearchDocument } from '../shared/search';

/** The text of compiled HTML: tags dropped, entities of the serializer decoded. */
function textOf(html: string): string {
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&(amp|lt|gt|quot);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"' })[e] ?? '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Every article edition in `lang`, as a search document (headings and captions are in the body). */
export function searchDocuments(site: Site, lang: Lang): SearchDocument[] {
  return site.articles.flatMap((article) => {
    const edition = article.editions[lang];
    if (!edition) return [];
    const category = site.categories.get(article.category);
    const fm = edition.source.frontMatter;
    return [{
      id: edition.url,
      title: fm.title,
      category: category ? plainTitle(category.data.title[lang]) : article.category,
      endpoint: edition.url,
      text: `${fm.description} ${textOf(edition.body.html)}`,
    }];
  });
}
