// The messages of `site dev`'s event stream: sent by the server (src/dev/events.ts) and read by
// the dev client in the browser (src/dev/client.ts), so they live where both may import.

/** What `site dev` tells the open pages. */
export type DevEvent =
  /** Pages were rebuilt: tabs showing one of `pages` (site paths, "*" for all) reload. */
  | { type: 'reload'; pages: string[] }
  /** Only stylesheets changed: tabs take the new CSS without reloading. */
  | { type: 'css' }
  /** The last build failed: tabs show these errors over the page. */
  | { type: 'errors'; errors: OverlayError[] }
  /** The errors are fixed: tabs hide the overlay. */
  | { type: 'ok' }
  /**
   * The warnings of the last good build (drafts, translations behind, ...), sent when they change:
   * tabs list them in a corner, out of the page's way; none hides the list.
   */
  | { type: 'warnings'; warnings: OverlayError[] };

/** One error as the overlay shows it: the same facts `site check` prints. */
export interface OverlayError {
  file: string;
  line: number;
  column: number;
  /** The rule code; absent for an exception thrown by a template or the pipeline. */
  code?: string;
  message: string;
  hint?: string;
  /** The lines around the position, with a caret, as the terminal shows them. */
  frame: string;
}
