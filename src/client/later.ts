/** What the islands' chunk (`islands.tsx`) gives the page. */
export interface IslandsModule {
  hydrateIslands(root: Document): Promise<void>;
}

/** The longest the work after the load event waits for an idle moment of the main thread. */
const IDLE_TIMEOUT_MS = 1000;

/**
 * Runs `run` once the page has loaded (its eager images and scripts in) and the main thread is
 * idle, so that it takes neither bandwidth nor the main thread from the page's first paint.
 */
export function afterPageLoad(run: () => void): void {
  const whenIdle = () => {
    // Safari before 18.2 has no requestIdleCallback.
    if (typeof window.requestIdleCallback === 'function')
      window.requestIdleCallback(() => run(), { timeout: IDLE_TIMEOUT_MS });
    else setTimeout(run, 0);
  };
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}

/** The events that show a reader reaching for the page: the islands are loaded at once. */
const FIRST_TOUCH = ['pointerdown', 'keydown', 'focusin'] as const;

/** What works without the islands' code, and is left to the browser: links and form fields. */
const NATIVE = 'a[href], input, select, textarea, label, summary';

/**
 * Loads React and the islands (`load`) once the page has loaded, or at the reader's first touch
 * of it if that comes first, and hydrates them. A click inside an island before it is hydrated (a
 * toolbar button tapped while a slow connection still brings the page's photos) is held and given
 * again once it is: the reader's action is late, never lost. That holds a form's submission too
 * (a submit button's click, which Enter in a field also makes), so the newsletter form never
 * posts without the island that sends its anti-forgery token. Links and form fields are left to
 * the browser. A page with no island loads nothing.
 */
export function loadIslandsLater(root: Document, load: () => Promise<IslandsModule>): void {
  if (!root.querySelector('[data-island]')) return;
  const held: Element[] = [];
  let started = false;

  const hold = (event: Event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (!target?.closest('[data-island]') || target.closest(NATIVE)) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    if (!held.includes(target)) held.push(target);
    start();
  };
  const stopHolding = () => root.removeEventListener('click', hold, true);

  function start(): void {
    if (started) return;
    started = true;
    for (const type of FIRST_TOUCH) root.removeEventListener(type, start, true);
    load()
      .then(({ hydrateIslands }) => hydrateIslands(root))
      .then(
        () => {
          stopHolding();
          for (const target of held.splice(0))
            target.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, composed: true }));
        },
        (error: unknown) => {
          stopHolding();
          console.error("The page's interactive parts could not be loaded", error);
        },
      );
  }

  root.addEventListener('click', hold, true);
  for (const type of FIRST_TOUCH) root.addEventListener(type, start, { capture: true, passive: true });
  afterPageLoad(start);
}
