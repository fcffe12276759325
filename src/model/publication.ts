import type { ArticleSource } from '../load/articles';
import type { LoadedContent } from '../load/content';
import { isoDay } from '../shared/date';
import { LANGUAGES, type Lang } from '../shared/lang';
import { articlePath } from '../shared/route';

/** What a build publishes of the articles not yet published. */
export interface Publication {
  /** Drafts and scheduled articles are built too, marked (`site dev`, `site build --drafts`). */
  drafts: boolean;
  /** The build's day, "YYYY-MM-DD" (UTC): an article dated later is scheduled. */
  today: string;
}

/** What `site build` publishes on the day it runs. */
export function publishedToday(now: Date = new Date()): Publication {
  return { drafts: false, today: isoDay(now) };
}

/** Why an edition is not published yet: a draft, or scheduled for a later day. */
export type Unpublished = { kind: 'draft' } | { kind: 'scheduled'; date: string };

/** Whether an edition waits: `draft: true` in its front matter, or dated after `today`. */
export function unpublished(source: ArticleSource, today: string): Unpublished | undefined {
  if (source.frontMatter.draft) return { kind: 'draft' };
  // Dates are ISO days: their order is that of their characters.
  if (source.frontMatter.date > today) return { kind: 'scheduled', date: source.frontMatter.date };
  return undefined;
}

/** An article edition a build leaves out, and why. */
export interface HeldEdition {
  source: ArticleSource;
  state: Unpublished;
}

/**
 * The content a build works on: every article edition when it shows drafts, or those published by
 * `today` with the rest held back. A held edition is absent from everything made from the content
 * (pages, listings, search, sitemap, feeds, neighbours), since none of it ever sees it.
 */
export function publishable(
  content: LoadedContent,
  publication: Publication,
): { content: LoadedContent; held: HeldEdition[] } {
  if (publication.drafts) return { content, held: [] };
  const held: HeldEdition[] = [];
  const articles = content.articles.filter((source) => {
    const state = unpublished(source, publication.today);
    if (state) held.push({ source, state });
    return !state;
  });
  return { content: held.length > 0 ? { ...content, articles } : content, held };
}

/** An article edition the published site does not have yet: a draft (no date) or scheduled for `date`. */
export interface Waiting {
  date?: string;
}

/** The key of an edition in `waitingEditions`, by its language and its article's path. */
export const waitingKey = (lang: Lang, path: string) => `${lang} ${path}`;

/** What `waitingEditions` reads of a model. */
interface Shown {
  articles: readonly {
    route: { path: string };
    editions: Partial<Record<Lang, { lang: Lang; source: ArticleSource }>>;
  }[];
  held: readonly HeldEdition[];
  publication: Publication;
}

/**
 * Every article edition the published site does not have, by `waitingKey`: those a build holds
 * back, and, when it shows drafts (`site dev`), the drafts and scheduled ones it shows. Given the
 * last model of a session and its map (`previous`), the same publication, the same editions held
 * back and as many articles, the map is that very one when each article that is not the very one
 * of `previous` in the same place waits as the one it replaces did: the two lists are compared,
 * and an edit that drafts or schedules nothing reads one article.
 */
export function waitingEditions(
  shown: Shown,
  previous?: Shown & { waiting: ReadonlyMap<string, Waiting> },
): ReadonlyMap<string, Waiting> {
  const { articles, held, publication } = shown;
  if (
    previous &&
    sameHeld(held, previous.held) &&
    previous.publication.drafts === publication.drafts &&
    previous.publication.today === publication.today
  ) {
    let same = previous.articles.length === articles.length;
    if (same && publication.drafts) {
      for (let i = 0; i < articles.length && same; i++) {
        const [now, before] = [articles[i], previous.articles[i]];
        if (now !== before)
          same =
            now !== undefined &&
            before !== undefined &&
            now.route.path === before.route.path &&
            waitsAs(now, before, publication.today);
      }
    }
    if (same) return previous.waiting;
  }
  const map = new Map<string, Waiting>();
  const add = (lang: Lang, path: string, state: Unpublished | undefined) => {
    if (state) map.set(waitingKey(lang, path), state.kind === 'scheduled' ? { date: state.date } : {});
  };
  for (const { source, state } of held) add(source.lang, articlePath(source.category, source.slug), state);
  if (publication.drafts) {
    for (const article of articles) {
      for (const edition of Object.values(article.editions))
        if (edition) add(edition.lang, article.route.path, unpublished(edition.source, publication.today));
    }
  }
  return map;
}

function sameHeld(a: readonly HeldEdition[], b: readonly HeldEdition[]): boolean {
  return (
    a.length === b.length &&
    a.every((edition, i) => edition.source === b[i]?.source && sameState(edition.state, b[i]?.state))
  );
}

function sameState(a: Unpublished | undefined, b: Unpublished | undefined): boolean {
  return a?.kind === b?.kind && (a?.kind !== 'scheduled' || a.date === (b as { date?: string }).date);
}

/** Whether two articles' editions wait (or not) alike: the same languages, each in the same state. */
function waitsAs(now: Shown['articles'][number], before: Shown['articles'][number], today: string): boolean {
  for (const lang of LANGUAGES) {
    const [a, b] = [now.editions[lang], before.editions[lang]];
    if ((a === undefined) !== (b === undefined)) return false;
    if (a && b && a.source !== b.source && !sameState(unpublished(a.source, today), unpublished(b.source, today)))
      return false;
  }
  return true;
}
