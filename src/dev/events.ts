import type { ServerResponse } from 'node:http';

/** What `site dev` tells the open pages. */
export type DevEvent =
  /** Pages were rebuilt: tabs showing one of `pages` (site paths, "*" for all) reload. */
  | { type: 'reload'; pages: string[] }
  /** Only stylesheets changed: tabs take the new CSS without reloading. */
  | { type: 'css' }
  /** The last build failed: tabs show these errors over the page. */
  | { type: 'errors'; errors: OverlayError[] }
  /** The errors are fixed: tabs hide the overlay. */
  | { type: 'ok' };

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

/**
 * The server-sent event stream of `site dev`: every open tab holds one connection. A tab that
 * connects while the build is broken is told the errors at once.
 */
export class DevEvents {
  private readonly clients = new Set<ServerResponse>();
  private errors: OverlayError[] = [];
  /**
   * Counts successful builds. `site dev` replaces files in its output folder in place (the folder
   * stays the same), so the server re-reads its listing and indexes when this number changes.
   */
  generation = 0;

  connect(response: ServerResponse): void {
    response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
    response.write(': connected\n\n');
    if (this.errors.length) response.write(frame({ type: 'errors', errors: this.errors }));
    this.clients.add(response);
    response.on('close', () => this.clients.delete(response));
  }

  send(event: DevEvent): void {
    if (event.type === 'errors') this.errors = event.errors;
    if (event.type === 'ok') this.errors = [];
    const data = frame(event);
    for (const client of this.clients) client.write(data);
  }

  get connections(): number {
    return this.clients.size;
  }

  /** Ends every stream (the dev server is stopping). */
  close(): void {
    for (const client of this.clients) client.end();
    this.clients.clear();
  }
}

function frame(event: DevEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}
