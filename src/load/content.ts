import path from 'node:path';
import type { z } from 'zod';
import { type Diagnostic, diagnostic } from '../diagnostics/diagnostic';
import {
  AboutMePage,
  AtelierPage,
  BlogPage,
  Category,
  Navigation,
  Owner,
  ProfessionalPage,
  ProjectsPage,
  SiteConfig,
  UiStrings,
} from '../model/schema';
import { categoryPath } from '../shared/route';
import { type ArticleFiles, type ArticleSource, loadArticles } from './articles';
import { listFiles, relativeFile } from './files';
import { type JsonFiles, type JsonReading, loadJsonFile, type ValidatedJson } from './json';

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
  /**
   * The text (to locate diagnostics) and the validated value of every JSON content file that
   * loaded, by project-relative path. Later stages use these and never read the files again.
   */
  json: ReadonlyMap<string, { readonly text: string; readonly value: unknown }>;
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
 * `articles`: what a build session remembers of the article files (see `loadArticles`).
 * `validated`: the JSON files' values an earlier build validated (see `loadJsonFile`).
 */
export async function loadContent(
  root: string,
  articleMemory?: ArticleFiles,
  previous?: LoadedContent,
  validated?: ValidatedJson,
): Promise<LoadResult> {
  const diagnostics: Diagnostic[] = [];
  const json: JsonFiles = new Map();
  const reading: JsonReading = {
    root,
    diagnostics,
    loaded: json,
    ...(previous && { known: previous.json }),
    ...(validated && { validated }),
  };
  const load = <S extends z.ZodType>(relative: string, schema: S) =>
    loadJsonFile(reading, `content/${relative}`, schema);

  const [config, owner, navigation, strings, aboutme, professional, projects, atelier, blog] = await Promise.all([
    load('site.json', SiteConfig),
    load('owner.json', Owner),
    load('navigation.json', Navigation),
    load('strings.json', UiStrings),
    load('pages/aboutme.json', AboutMePage),
    load('pages/professional.json', ProfessionalPage),
    load('pages/projects.json', ProjectsPage),
    load('pages/atelier.json', AtelierPage),
    load('pages/blog.json', BlogPage),
  ]);
  const { categories, unreadable } = await loadCategories(reading, previous);
  const articles = await loadArticles(root, diagnostics, articleMemory);

  const known = new Set(categories.map((c) => c.key));
  for (const article of articles) {
    // A category whose file could not be read has its own diagnostic: its articles are not in error.
    if (!known.has(article.category) && !unreadable.has(article.category)) {
      diagnostics.push(
        diagnostic(
          'CAT001',
          { file: article.file, line: 0, column: 0 },
          { category: article.category, listedBy: 'folder' },
        ),
      );
    }
  }

  // The Blog index and every listing need each category: one that cannot be read stops modelling,
  // as a site-wide file does, rather than leaving each of its pages to be reported as missing.
  if (
    !config ||
    !owner ||
    !navigation ||
    !strings ||
    !aboutme ||
    !professional ||
    !projects ||
    !atelier ||
    !blog ||
    unreadable.size > 0
  ) {
    return { diagnostics };
  }
  return {
    content: {
      root,
      config,
      owner,
      navigation,
      strings,
      pages: { aboutme, professional, projects, atelier, blog },
      categories,
      articles: articles.filter((a) => known.has(a.category)),
      json,
    },
    diagnostics,
  };
}

/** The categories that loaded, and the keys of those whose file could not be read or validated. */
async function loadCategories(
  reading: JsonReading,
  previous: LoadedContent | undefined,
): Promise<{ categories: CategorySource[]; unreadable: Set<string> }> {
  const { root, diagnostics } = reading;
  const dir = path.join(root, 'content', 'categories');
  const categories: CategorySource[] = [];
  const unreadable = new Set<string>();
  for (const absolute of await listFiles(dir, { links: true, foldersNamed: /\.json$/ })) {
    if (!absolute.endsWith('.json')) continue;
    const file = relativeFile(root, absolute);
    const key = path.basename(absolute, '.json');
    const data = await loadJsonFile(reading, file, Category);
    if (!data) {
      unreadable.add(key);
      continue;
    }
    if (data.blogCategoryName !== key || data.blogcategory !== categoryPath(key)) {
      diagnostics.push(
        diagnostic(
          'CAT002',
          { file, line: 1, column: 1 },
          { key, blogCategoryName: data.blogCategoryName, blogcategory: data.blogcategory },
        ),
      );
      continue;
    }
    const known = previous?.categories.find((category) => category.file === file);
    categories.push(known?.data === data ? known : { key, file, data });
  }
  return { categories, unreadable };
}
