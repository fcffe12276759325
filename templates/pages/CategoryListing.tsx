import type { CategoryProps, Chrome } from '../../src/shared/props';
import { CategoryHeader } from '../pieces/CategoryHeader';
import { NewTabLink } from '../pieces/NewTabLink';
import { Status } from '../pieces/Status';

export function CategoryListing({ chrome, page }: { chrome: Chrome; page: CategoryProps }) {
  const s = chrome.strings;
  return (
    <section className="section">
      <CategoryHeader
        breadcrumbs={page.breadcrumbs}
        title={page.title}
        description={page.description}
        label={s['breadcrumb.label']}
      />
      {page.msg && <p className="note">{page.msg}</p>}
      {page.articles.length > 0 ? (
        <ul className="article-list">
          {page.articles.map((article) => (
            <li key={article.url} className="article-list__item">
              <a href={article.url}>
                <span className="article-list__title">
                  {article.title} <Status text={article.status} />
                </span>
                {article.description && <span className="article-list__description">{article.description}</span>}
                {article.date && (
                  <span className="article-list__meta">
                    <time dateTime={article.date}>{article.dateLabel}</time>
                    {article.readingTime && (
                      <>
                        {' · '}
                        <span className="nowrap">{article.readingTime}</span>
                      </>
                    )}
                  </span>
                )}
              </a>
            </li>
          ))}
        </ul>
      ) : (
        !page.msg && <p className="note">{s['category.empty']}</p>
      )}
      {page.plainLinks && page.articles.length > 0 && (
        <ul className="plain-links">
          {page.articles.map((article) => (
            <li key={article.url}>
              <a href={article.url}>{article.title}</a>
            </li>
          ))}
        </ul>
      )}
      {page.links.length > 0 && (
        <>
          <h2>{s['category.links']}</h2>
          <ul className="plain-links">
            {page.links.map((link) => (
              <li key={link.url}>
                {link.external ? (
                  <NewTabLink href={link.url} note={s['external.newTab']}>
                    {link.text}
                  </NewTabLink>
                ) : (
                  <a href={link.url}>{link.text}</a>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
