import type { ServerResponse } from 'node:http';
import type { DevEvent, OverlayError } from '../shared/devEvents';

export type { DevEvent, OverlayError };

/**
 * The server-sent event stream of `site dev`: every open tab holds one connection. A tab that
 * connects while the build is broken is told the errors at once, and any tab the last warnings.
 */
export class DevEvents {
  private readonly clients = new Set<ServerResponse>();
  private errors: OverlayError[] = [];
  private warnings: OverlayError[] = [];
  /**
   * Counts successful builds. `site dev` replaces files in its output folder in place (the folder
   * stays the same), so the server re-reads its listing and indexes when this number changes.
   */
  generation = 0;

  connect(response: ServerResponse): void {
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    response.write(': connected\n\n');
    if (this.errors.length) response.write(frame({ type: 'errors', errors: this.errors }));
    if (this.warnings.length) response.write(frame({ type: 'warnings', warnings: this.warnings }));
    this.clients.add(response);
    response.on('close', () => this.clients.delete(response));
  }

  send(event: DevEvent): void {
    if (event.type === 'errors') this.errors = event.errors;
    if (event.type === 'ok') this.errors = [];
    if (event.type === 'warnings') this.warnings = event.warnings;
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
