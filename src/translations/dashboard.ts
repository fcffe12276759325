/**
 * `site translations`: every route and language with the state of its translation, and the count
 * of each state; the owner's view of what to translate next.
 */
import type { LoadedContent } from '../load/content';
import { unpublished } from '../model/publication';
import { deriveRoutes } from '../model/routes';
import { LANGUAGES, type Lang } from '../shared/lang';
import { articlePath } from '../shared/route';
import type { Translations } from './state';

export type RowState = 'up to date' | 'outdated' | 'missing' | 'not tracked';

export interface DashboardRow {
  /** The route's path, or "(every page)" for a file of texts every page shows. */
  route: string;
  lang: Lang;
  state: RowState;
  /** The file holding this language's text, when there is one. */
  file?: string;
  /** Outdated: the day the other language changed. */
  since?: string;
  /** A draft, or the day a scheduled edition is published. */
  waiting?: string;
}

export interface Dashboard {
  rows: DashboardRow[];
  counts: Record<RowState, number>;
}

/** Files of texts shown on every page rather than on one route. */
const SITE_WIDE = ['content/strings.json', 'content/navigation.json', 'content/site.json', 'content/owner.json'];

/** The dashboard of `content` (drafts included) given its translations' states, on `today`. */
export function dashboard(content: LoadedContent, translations: Translations, today: string): Dashboard {
  const rows: DashboardRow[] = [];
  const editions = new Map(
    content.articles.map((source) => [`${source.lang} ${articlePath(source.category, source.slug)}`, source]),
  );
  const fileRow = (route: string, file: string, lang: Lang): DashboardRow => {
    const texts = translations.texts.filter((text) => text.file === file);
    const behind = texts.filter((text) => text.kind === 'outdated' && text.lang === lang);
    if (behind.length > 0)
      return {
        route,
        lang,
        state: 'outdated',
        file,
        since: behind
          .map((t) => t.since ?? '')
          .sort()
          .at(-1) as string,
      };
    return { route, lang, state: texts.some((text) => text.kind === 'untracked') ? 'not tracked' : 'up to date', file };
  };
  const pageFile = new Map<string, string>([
    ...(['aboutme', 'professional', 'projects', 'atelier', 'blog'] as const).map((name): [string, string] => [
      `/${name}`,
      `content/pages/${name}.json`,
    ]),
    ...content.categories.map((category): [string, string] => [category.data.blogcategory, category.file]),
  ]);
  for (const route of deriveRoutes(content)) {
    for (const lang of LANGUAGES) {
      if (route.component !== 'article') {
        const file = pageFile.get(route.path);
        if (file) rows.push(fileRow(route.path, file, lang));
        continue;
      }
      const source = editions.get(`${lang} ${route.path}`);
      if (!source) {
        rows.push({ route: route.path, lang, state: 'missing' });
        continue;
      }
      const state = translations.editions.get(source.file);
      const waiting = unpublished(source, today);
      rows.push({
        route: route.path,
        lang,
        file: source.file,
        ...(state?.kind === 'outdated'
          ? { state: 'outdated', since: state.since }
          : { state: state?.kind === 'untracked' ? 'not tracked' : 'up to date' }),
        ...(waiting ? { waiting: waiting.kind === 'draft' ? 'draft' : `scheduled for ${waiting.date}` } : {}),
      });
    }
  }
  for (const file of SITE_WIDE)
    if (content.json.has(file)) for (const lang of LANGUAGES) rows.push(fileRow('(every page)', file, lang));
  const counts: Record<RowState, number> = { 'up to date': 0, outdated: 0, missing: 0, 'not tracked': 0 };
  for (const row of rows) counts[row.state]++;
  return { rows, counts };
}

/** The dashboard as a table: a route per line, a column per language, then the counts. */
export function dashboardText(board: Dashboard): string {
  const cell = (row: DashboardRow | undefined) => {
    if (!row) return '';
    const state = row.state === 'outdated' ? `outdated since ${row.since}` : row.state;
    return row.waiting ? `${state} (${row.waiting})` : state;
  };
  const byRoute = new Map<string, Partial<Record<Lang, DashboardRow>>>();
  const label = (row: DashboardRow) => (row.route === '(every page)' ? `(every page) ${row.file}` : row.route);
  for (const row of board.rows) byRoute.set(label(row), { ...byRoute.get(label(row)), [row.lang]: row });
  const lines = [
    ['route', ...LANGUAGES],
    ...[...byRoute].map(([route, langs]) => [route, ...LANGUAGES.map((lang) => cell(langs[lang]))]),
  ];
  const widths = lines[0]!.map((_, i) => Math.max(...lines.map((line) => (line[i] ?? '').length)));
  const table = lines.map((line) =>
    line
      .map((value, i) => (i === line.length - 1 ? value : value.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
  const counts = Object.entries(board.counts).map(([state, n]) => `${state} ${n}`);
  return [...table, '', counts.join(' · ')].join('\n');
}
