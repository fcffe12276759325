import { agrees } from '../build/shortcuts';
import type { Diagnostic } from '../diagnostics/diagnostic';
import type { Article, Site } from '../model/site';

/** What a rule judged article by article found in each article of a check, by the article's place. */
interface ArticleFindings {
  articles: readonly Article[];
  /** What the rule read besides the article (see `byArticle`). */
  reads: readonly unknown[];
  found: readonly (readonly Diagnostic[])[];
}

/** A session's memory of its rules judged article by article: each rule's last findings, by its name. */
export type ArticleRulesMemo = Map<string, ArticleFindings>;

const NOTHING: readonly Diagnostic[] = Object.freeze([]);

/** A rule judged article by article: its name, what it reads of the site besides the article, and the judge. */
export interface ArticleRule {
  name: string;
  reads: readonly unknown[];
  judge: (article: Article) => readonly Diagnostic[];
}

/**
 * What `judge` finds in each of the site's articles, in their order. `reads` are what the judge
 * reads of the site besides the article it is given, each the same object while it holds the same
 * (the model shares what did not change from one build to the next). In a session (`memo`), an
 * article that is the very one of the rule's last check in the same place, under the same
 * `reads`, keeps what was found in it without being judged again: the two lists are compared, the
 * articles not read, and a one-file edit judges one article.
 */
export function byArticle(
  site: Site,
  { name: rule, reads, judge }: ArticleRule,
  memo?: ArticleRulesMemo,
): Diagnostic[] {
  const { articles } = site;
  const last = memo?.get(rule);
  const carried =
    last !== undefined && last.articles.length === articles.length && sameReads(last.reads, reads) ? last : undefined;
  const found: (readonly Diagnostic[])[] = new Array(articles.length);
  const out: Diagnostic[] = [];
  for (let i = 0; i < articles.length; i++) {
    const article = articles[i] as Article;
    const kept = carried && carried.articles[i] === article ? (carried.found[i] as readonly Diagnostic[]) : undefined;
    // The same article under the same reads is judged the same: checked under SITE_CHECK_SHORTCUTS=1.
    if (kept)
      agrees(
        `${rule}: what was found in ${article.route.path} at the last check`,
        kept,
        () => judge(article),
        sameFindings,
      );
    let findings = kept ?? judge(article);
    if (findings.length === 0) findings = NOTHING;
    else for (const d of findings) out.push(d);
    found[i] = findings;
  }
  memo?.set(rule, { articles, reads, found });
  return out;
}

function sameFindings(a: readonly Diagnostic[], b: readonly Diagnostic[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function sameReads(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}
