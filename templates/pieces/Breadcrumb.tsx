import type { BreadcrumbView } from '../../src/shared/props';

/** Items separated by '>', each linking to its page; the last is the current page. */
export function Breadcrumb({ items, label }: { items: BreadcrumbView[]; label: string }) {
  return (
    <nav className="breadcrumb" aria-label={label}>
      <ol>
        {items.map((item, i) => {
          const last = i === items.length - 1;
          return (
            <li key={item.url}>
              {last ? (
                <a href={item.url} aria-current="page">
                  {item.title}
                </a>
              ) : (
                <>
                  <a href={item.url}>{item.title}</a>
                  <span className="breadcrumb__separator" aria-hidden="true">
                    &gt;
                  </span>
                </>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
