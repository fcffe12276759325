import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { searchBlog } from '../../src/client/search';
import type { Lang } from '../../src/shared/lang';
import type { SearchResult } from '../../src/shared/search';

export interface SearchBoxProps {
  lang: Lang;
  title: string;
  label: string;
  placeholder: string;
  subtext: string;
  /**
   * The shortest term searched (the search module's MIN_TERM_LENGTH), passed in by the server:
   * importing it here would put the whole search module, MiniSearch included, in the bundle
   * every page loads at start, instead of the chunk fetched on the first search.
   */
  minTermLength: number;
}

/** Typing faster than this sends one request for the last term only. */
const DEBOUNCE_MS = 250;

/**
 * The Blog index search: a request only for terms of more than 3 characters (otherwise results
 * cleared and the dropdown hidden), a spinner while loading, results in a 200 px dropdown that
 * scrolls; arrow keys move through them and Enter opens the chosen one (or the first). Answers that
 * arrive after a newer request are dropped. On failure the spinner stops and the error goes to the
 * console only (spec section 8).
 */
export function SearchBox({ lang, title, label, placeholder, subtext, minTermLength }: SearchBoxProps) {
  const [term, setTerm] = useState('');
  const [results, setResults] = useState<SearchResult[] | null>(null);
  const [loading, setLoading] = useState(false);
  const [active, setActive] = useState(-1);
  const latest = useRef(0);
  const field = useRef<HTMLInputElement>(null);

  // Words typed before the island was hydrated (its script comes after the page has loaded) are in
  // the field but not in the state: searched for once hydrated. The field is left uncontrolled, so
  // that no render puts back what the state held before.
  useEffect(() => {
    const typed = field.current?.value ?? '';
    if (typed !== '') setTerm(typed);
  }, []);

  useEffect(() => {
    const query = term.trim();
    const request = ++latest.current;
    if (query.length < minTermLength) {
      setResults(null);
      setLoading(false);
      return undefined;
    }
    const timer = window.setTimeout(async () => {
      setLoading(true);
      try {
        const found = await searchBlog(query, lang);
        if (request !== latest.current) return;
        setResults(found);
        setActive(-1);
      } catch {
        if (request === latest.current) console.error('Error searching blog posts');
      } finally {
        if (request === latest.current) setLoading(false);
      }
    }, DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [term, lang, minTermLength]);

  const open = results !== null;
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (!results || results.length === 0) return;
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setActive((i) => Math.min(results.length - 1, i + 1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((i) => Math.max(0, i - 1));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      window.location.assign(results[Math.max(0, active)]!.endpoint);
    } else if (event.key === 'Escape') {
      setResults(null);
    }
  };

  return (
    <section className="search" aria-labelledby="search-title">
      <h2 id="search-title">{title}</h2>
      <div className="search__field">
        <label className="visually-hidden" htmlFor="search-input">
          {label}
        </label>
        <input
          id="search-input"
          className="search__input"
          type="search"
          placeholder={placeholder}
          autoComplete="off"
          role="combobox"
          aria-expanded={open}
          aria-controls="search-results"
          aria-activedescendant={active >= 0 ? `search-result-${active}` : undefined}
          ref={field}
          onChange={(e) => setTerm(e.target.value)}
          onKeyDown={onKeyDown}
        />
        {loading && <span className="search__spinner" role="progressbar" aria-label={label} />}
      </div>
      <p className="search__subtext">{subtext}</p>
      {open && (
        <div id="search-results" className="search__results" role="listbox" aria-label={title}>
          {/* Focus stays in the input (aria-activedescendant names the active option): tabIndex -1 keeps the options out of the tab order. */}
          {results.map((result, i) => (
            <div
              key={result.id}
              id={`search-result-${i}`}
              role="option"
              tabIndex={-1}
              aria-selected={i === active}
              className={i === active ? 'search__result search__result--active' : 'search__result'}
            >
              <a href={result.endpoint}>
                <span className="search__result-title">{result.title}</span>
                <span className="search__result-category">{result.category}</span>
              </a>
            </div>
          ))}
        </div>
      )}
    </section>
  );
}
