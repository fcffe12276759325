import type { ArticleProps, Chrome } from '../../src/shared/props';
import { Breadcrumb } from '../pieces/Breadcrumb';

export function Article({ chrome, page }: { chrome: Chrome; page: ArticleProps }) {
  const s = chrome.strings;
  return (
    <article className="section article">
      <Breadcrumb items={page.breadcrumbs} label={s['breadcrumb.label']} />
      <header className="article__header">
        <h1>{page.title}</h1>
        <p className="article__meta">
          {s['article.published']} <time dateTime={page.date}>{page.dateLabel}</time>
        </p>
      </header>
      {page.index && page.index.length > 0 && (
        <nav className="article__index" aria-labelledby="article-index">
          <h2 id="article-index">{s['article.index']}</h2>
          <ol>
            {page.index.map((entry) => (
              <li key={entry.id}>
                <a href={`#${entry.id}`}>{entry.text}</a>
              </li>
            ))}
          </ol>
        </nav>
      )}
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the article body, compiled by our own markdown pipeline */}
      <div className="prose" dangerouslySetInnerHTML={{ __html: page.html }} />
    </article>
  );
}
