import { postJson } from './api';

type Listener = () => void;

let count: number | undefined;
const listeners = new Set<Listener>();

/** The visit count for useSyncExternalStore: undefined until the API answers (or for ever, on a static host). */
export const visits = {
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  get: (): number | undefined => count,
  /** What the server rendered: no count yet. */
  getServer: (): number | undefined => undefined,
};

/**
 * Once per page load: counts this visit, then reads the total for the counters in the footer and
 * the drawer. docs/product.md, When something fails: an increment failure is only logged (a bad request as a plain log,
 * anything else as an error); a visitor never sees it.
 */
export async function countVisit(): Promise<void> {
  try {
    const increment = await postJson('/api/view_count/increment');
    if (increment.status === 400) console.log('View count increment: bad request');
    else if (!increment.ok) console.error(`View count increment failed: ${increment.status}`);
  } catch (error) {
    console.error('View count increment failed', error);
  }
  try {
    const response = await fetch('/api/view_count', { credentials: 'same-origin' });
    if (!response.ok) return;
    const body = (await response.json()) as { count?: unknown };
    if (typeof body.count !== 'number') return;
    count = body.count;
    for (const listener of listeners) listener();
  } catch {
    // No API (a static host): the counters keep saying 'Coming soon'.
  }
}
