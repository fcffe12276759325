import type { Lang } from '../shared/lang';
import type { SearchResult } from '../shared/search';

/** The in-browser indexes, loaded on first use where the API cannot be reached (a static host). */
const local = new Map<Lang, Promise<(term: string) => SearchResult[]>>();

async function loadLocal(lang: Lang): Promise<(term: string) => SearchResult[]> {
  // The search code is a separate chunk: pages that never search never download it.
  const { loadSearchIndex, searchIn } = await import('../shared/search');
  const index = await loadSearchIndex(lang, async (url) => {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`search index ${url}: ${response.status}`);
    return response.text();
  });
  return (term) => searchIn(index, term);
}

/**
 * Searches the blog in a language: the API first; where it cannot be reached, the index of that
 * language from dist/ with the same ranking. Throws when neither answers.
 */
export async function searchBlog(term: string, lang: Lang): Promise<SearchResult[]> {
  try {
    const response = await fetch(`/api/blog_posts/search?searchWord=${encodeURIComponent(term)}&language=${lang}`, {
      credentials: 'same-origin',
    });
    if (response.ok) return ((await response.json()) as { data: SearchResult[] }).data;
  } catch {
    // No API here (a static host, or the network): search in the browser below.
  }
  let search = local.get(lang);
  if (!search) {
    search = loadLocal(lang);
    local.set(lang, search);
    search.catch(() => local.delete(lang));
  }
  return (await search)(term);
}
