import path from 'node:path';
import type { Diagnostic } from '../diagnostics/diagnostic';
import { RULES } from '../diagnostics/codes';
import {
  AboutMePage, AtelierPage, BlogPage, Category, Navigation, Owner, ProfessionalPage, ProjectsPage, SiteConfig, UiStrings,
} from '../model/schema';
import type { z } from 'zod';
import { listFiles, relativeFile } from './files';
import { loadJsonFile } from './json';
import { loadArticles, type ArticleSource } from './articles';

export interface CategorySource {
  key: string;
  file: string;
  data: z.infer<typeof Category>;
}

/** Everything under content/, parsed and validated, before routes and markdown are derived. */
export interface LoadedContent {
  /** Absolute project root (the folder holding content/). */
  root: string;
  config: z.infer<typeof SiteConfig>;
  owner: z.infer<typeof Owner>;
  navigation: z.infer<typeof Navigation>;
  strings: z.infer<typeof UiStrings>;
  pages: {
    aboutme: z.infer<typeof AboutMePage>;
    professional: z.infer<typeof ProfessionalPage>;
    projects: z.infer<typeof ProjectsPage>;
    atelier: z.infer<typeof AtelierPage>;
    blog: z.infer<typeof BlogPage>;
  };
  categories: CategorySource[];
  articles: ArticleSource[];
  /** The text of every JSON content file by project-relative path, to locate diagnostics. */
  sources: ReadonlyMap<string, string>;
}

export interface LoadResult {
  /**
   * Present when every site-wide file (config, owner, strings, pages) is valid. Articles and
   * categories with errors are left out of it, so the checker can still report everything else;
   * `diagnostics` then holds their errors.
   */
  content?: LoadedContent;
  diagnostics: Diagnostic[];
}

/**
 * Reads and validates every content file; collects every problem rather than stopping at the first.
 * `changed`: see `loadArticles`.
 */
export async function loadContent(root: string, changed?: ReadonlySet<string>): Promise<LoadResult> {
  const diagnostics: Diagnostic[] = [];
  const sources = new Map<string, string>();
  const json = <S extends z.ZodType>(relative: string, schema: S) => loadJsonFile(root, `content/${relative}`, schema, diagnostics, sources);

  const [config, owner, navigation, strings, aboutme, professional, projects, atelier, blog] = await Promise.all([
    json('site.json', SiteConfig),
    json('owner.json', Owner),
    json('navigation.json', Navigation),
    json('strings.json', UiStrings),
    json('pages/aboutme.json', AboutMePage),
    json('pages/professional.json', ProfessionalPage),
    json('pages/projects.json', ProjectsPage),
    json('pages/atelier.json', AtelierPage),
    json('pages/blog.json', BlogPage),
  ]);
  const categories = await loadCategories(root, diagnostics, sources);
  const articles = await loadArticles(root, diagnostics, changed);

  const known = new Set(categories.map((c) => c.key));
  for (const article of articles) {
    if (!known.has(article.category)) {
      diagnostics.push({ code: 'CAT001', severity: 'error', file: article.file, line: 0, column: 0, message: `category "${article.category}" has no content/categories/${article.category}.json`, hint: RULES.CAT001.hint });
    }
  }

  if (!config || !owner || !navigation || !strings || !aboutme || !professional || !projects || !atelier || !blog) {
    return { diagnostics };
  }
  return {
    content: {
      root, config, owner, navigation, strings, pages: { aboutme, professional, projects, atelier, blog }, categories,
      articles: articles.filter((a) => known.has(a.category)),
      sources,
    },
    diagnostics,
  };
}

async function loadCategories(root: string, diagnostics: Diagnostic[], sources: Map<string, string>): Promise<CategorySource[]> {
  const dir = path.join(root, 'content', 'categories');
  const categories: CategorySource[] = [];
  for (const absolute of await listFiles(dir)) {
    if (!absolute.endsWith('.json')) continue;
    const file = relativeFile(root, absolute);
    const key = path.basename(absolute, '.json');
    const data = await loadJsonFile(root, file, Category, diagnostics, sources);
    if (!data) continue;
    if (data.blogCategoryName !== key || data.blogcategory !== `/blog/${key}`) {
      diagnostics.push({ code: 'CAT002', severity: 'error', file, line: 1, column: 1, message: `category file "${key}" declares blogCategoryName "${data.blogCategoryName}" and blogcategory "${data.blogcategory}"`, hint: RULES.CAT002.hint });
      continue;
    }
    categories.push({ key, file, data });
  }
  return categories;
}
