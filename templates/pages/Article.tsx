import type { ArticleProps, Chrome } from '../../src/shared/props';
import { Breadcrumb } from '../pieces/Breadcrumb';
import { Status } from '../pieces/Status';

export function Article({ chrome, page }: { chrome: Chrome; page: ArticleProps }) {
  const s = chrome.strings;
  return (
    <article className="section article">
      <Breadcrumb items={page.breadcrumbs} label={s['breadcrumb.label']} />
      <header className="article__header">
        <Status text={page.status} />
        <h1>{page.title}</h1>
        <p className="article__meta">
          {s['article.published']} <time dateTime={page.date}>{page.dateLabel}</time>
          {' · '}
          <span className="nowrap">{page.readingTime}</span>
        </p>
        {page.outdated && (
          <p className="note" role="note">
            {page.outdated.before}
            <a href={page.outdated.url} hrefLang={page.outdated.lang}>
              {page.outdated.link}
            </a>
            {page.outdated.after}
          </p>
        )}
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
      {/* The words of the code blocks' copy buttons (src/client/codeCopy.ts), when there are code blocks. */}
      <div
        className="prose"
        {...(page.html.includes('code-block__bar') && { 'data-copy': s['code.copy'], 'data-copied': s['code.copied'] })}
        // biome-ignore lint/security/noDangerouslySetInnerHtml: the article body, compiled by our own markdown pipeline
        dangerouslySetInnerHTML={{ __html: page.html }}
      />
      {(page.previous || page.next) && (
        <nav className="article__around" aria-label={s['article.around']}>
          {page.previous && (
            <a className="article__around-link article__around-link--previous" href={page.previous.url} rel="prev">
              <span className="article__around-label">
                <span aria-hidden="true">← </span>
                {s['article.previous']}
              </span>
              <span className="article__around-title">{page.previous.title}</span>
            </a>
          )}
          {page.next && (
            <a className="article__around-link article__around-link--next" href={page.next.url} rel="next">
              <span className="article__around-label">
                {s['article.next']}
                <span aria-hidden="true"> →</span>
              </span>
              <span className="article__around-title">{page.next.title}</span>
            </a>
          )}
        </nav>
      )}
    </article>
  );
}
