/** Calls to the site's own /api, with the anti-forgery header the server expects on writes. */

function xsrfToken(): string {
  const match = /(?:^|;\s*)XSRF-TOKEN=([^;]*)/.exec(document.cookie);
  return match ? decodeURIComponent(match[1] ?? '') : '';
}

export function postJson(path: string, body?: unknown): Promise<Response> {
  return fetch(path, {
    method: 'POST',
    headers: { 'X-XSRF-TOKEN': xsrfToken(), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? null : JSON.stringify(body),
    credentials: 'same-origin',
  });
}
