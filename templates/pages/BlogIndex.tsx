import type { BlogProps, Chrome } from '../../src/shared/props';
import { MIN_TERM_LENGTH } from '../../src/shared/search';
import { Island } from '../islands/Island';
import { Status } from '../pieces/Status';

export function BlogIndex({ chrome, page }: { chrome: Chrome; page: BlogProps }) {
  const s = chrome.strings;
  const count = (n: number) =>
    n === 1 ? s['blog.articleCount.one'] : s['blog.articleCount.other'].replace('{n}', String(n));
  return (
    <section className="section">
      <h1>{page.title}</h1>
      <p className="lead">{page.intro}</p>

      <Island
        name="SearchBox"
        props={{
          lang: chrome.lang,
          title: s['search.title'],
          label: s['search.label'],
          placeholder: s['search.placeholder'],
          subtext: s['search.subtext'],
          none: s['search.none'],
          minTermLength: MIN_TERM_LENGTH,
        }}
      />

      <h2>{s['blog.categories']}</h2>
      <ul className="categories">
        {page.categories.map((category) => (
          <li key={category.key} className="categories__item">
            <h3>
              <a href={category.url}>{category.title}</a>
            </h3>
            <p>{category.description}</p>
            <p className="categories__count">
              {category.gallery
                ? s['blog.photos']
                : category.articles.length > 0
                  ? count(category.articles.length)
                  : s['blog.noArticles']}
            </p>
            {category.articles.length > 0 && (
              <ul className="categories__articles">
                {category.articles.map((article) => (
                  <li key={article.url}>
                    <a href={article.url}>{article.title}</a> <Status text={article.status} />
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
