import { type FocusEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { searchBlog } from '../../src/client/search';
import type { Lang } from '../../src/shared/lang';
import type { SearchResult } from '../../src/shared/search';

export interface SearchBoxProps {
  lang: Lang;
  title: string;
  label: string;
  placeholder: string;
  subtext: string;
  /** The line shown when nothing matches, with {term} for the words searched. */
  none: string;
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
 * scrolls; arrow keys move through them (the list scrolls to keep the chosen one in sight) and
 * Enter opens the chosen one (or the first; pressed before the results are in, the first once
 * they are). No match says so. Answers that arrive after a newer request are dropped. The dropdown
 * closes on Escape, when focus leaves the search and on a click elsewhere; focus or typing opens it
 * again. On failure the spinner stops and the error goes to the console only (docs/product.md, When something fails).
 */
export function SearchBox({ lang, title, label, placeholder, subtext, none, minTermLength }: SearchBoxProps) {
  const [term, setTerm] = useState('');
  const [results, setResults] = useState<SearchResult[] | null>(null);
  const [expanded, setExpanded] = useState(true);
  const [loading, setLoading] = useState(false);
  const [active, setActive] = useState(-1);
  const latest = useRef(0);
  const field = useRef<HTMLInputElement>(null);
  const box = useRef<HTMLElement>(null);
  const list = useRef<HTMLDivElement>(null);
  /** Enter was pressed before the results of the term in the field arrived. */
  const enterPending = useRef(false);
  /** The term the results shown are for. */
  const shownFor = useRef('');

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
      enterPending.current = false;
      setResults(null);
      setLoading(false);
      return undefined;
    }
    const timer = window.setTimeout(async () => {
      setLoading(true);
      try {
        const found = await searchBlog(query, lang);
        if (request !== latest.current) return;
        const first = found[0];
        if (enterPending.current && first) {
          window.location.assign(first.endpoint);
          return;
        }
        enterPending.current = false;
        shownFor.current = query;
        setResults(found);
        setExpanded(true);
        setActive(-1);
      } catch {
        if (request === latest.current) console.error('Error searching blog posts');
      } finally {
        if (request === latest.current) setLoading(false);
      }
    }, DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [term, lang, minTermLength]);

  // The chosen result stays in sight in the 200 px list.
  useEffect(() => {
    if (active >= 0) list.current?.children[active]?.scrollIntoView({ block: 'nearest' });
  }, [active]);

  // A click anywhere else closes the list (a click on nothing focusable moves no focus).
  useEffect(() => {
    if (!expanded || !results) return undefined;
    const onPointerDown = (event: PointerEvent) => {
      if (!box.current?.contains(event.target as Node)) setExpanded(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [expanded, results]);

  const open = expanded && results !== null && results.length > 0;
  const onBlur = (event: FocusEvent<HTMLElement>) => {
    if (!box.current?.contains(event.relatedTarget as Node | null)) setExpanded(false);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const query = event.currentTarget.value.trim();
    if (event.key === 'Enter' && query.length >= minTermLength && (results === null || shownFor.current !== query)) {
      // The results are on their way (or the debounce has not started them): open the first once they come.
      event.preventDefault();
      enterPending.current = true;
      return;
    }
    if (!results || results.length === 0) return;
    if (!open && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) setExpanded(true);
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
      setExpanded(false);
    }
  };

  return (
    <section ref={box} className="search" aria-labelledby="search-title" onBlur={onBlur}>
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
          onChange={(e) => {
            enterPending.current = false;
            setTerm(e.target.value);
            setExpanded(true);
          }}
          onFocus={() => setExpanded(true)}
          onKeyDown={onKeyDown}
        />
        {loading && <span className="search__spinner" role="progressbar" aria-label={label} />}
      </div>
      <p className="search__subtext">{subtext}</p>
      <p className="search__none" role="status">
        {expanded && results?.length === 0 ? none.replace('{term}', term.trim()) : ''}
      </p>
      {open && (
        // tabIndex -1: a scrolling box is a tab stop of its own in Chromium; focus stays in the input.
        <div ref={list} id="search-results" className="search__results" role="listbox" aria-label={title} tabIndex={-1}>
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
              <a href={result.endpoint} tabIndex={-1}>
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
