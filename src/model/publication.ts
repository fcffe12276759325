import type { ArticleSource } from '../load/articles';
import type { LoadedContent } from '../load/content';
import { isoDay } from '../shared/date';

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
export function publishable(content: LoadedContent, publication: Publication): { content: LoadedContent; held: HeldEdition[] } {
  if (publication.drafts) return { content, held: [] };
  const held: HeldEdition[] = [];
  const articles = content.articles.filter((source) => {
    const state = unpublished(source, publication.today);
    if (state) held.push({ source, state });
    return !state;
  });
  return { content: held.length > 0 ? { ...content, articles } : content, held };
}
