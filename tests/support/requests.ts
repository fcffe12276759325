import { connect } from 'node:net';
import fc from 'fast-check';
import { listDist } from '../../server/files';
import { pageOfFile } from '../../src/shared/route';

/**
 * Malformed requests for the server's fuzz test (tests/integration/server/requests.fuzz.test.ts): what a
 * scanner, a broken client or an attacker sends, built around the site's real URLs so that most
 * requests reach a handler rather than the Not Found page.
 */
export interface FuzzRequest {
  method: string;
  /** As sent: not normalised, possibly with "..", backslashes, raw unicode or bad escapes. */
  path: string;
  /** "" or "?..." */
  query: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  /** Sent to the app that trusts X-Forwarded-* (started with --trust-proxy). */
  behindProxy: boolean;
}

export const API_ROUTES = [
  '/api/view_count',
  '/api/view_count/increment',
  '/api/newsletter',
  '/api/blog_posts/search',
  '/api',
  '/api/',
  '/api/nothing',
];

/** Every URL the built site answers (pages, assets, media, feeds, search indexes) and the API's. */
export async function siteUrls(distDir: string): Promise<string[]> {
  const files = [...(await listDist(distDir))].filter((f) => !f.endsWith('.br') && !f.endsWith('.gz'));
  const urls = files.map((f) => (f.endsWith('.html') ? pageOfFile(f) : `/${f}`));
  return [...new Set([...urls, '/', '/pt', '/__dev/events', '/__dev/client.js', ...API_ROUTES])].sort();
}

/** The methods Node's HTTP parser (and so app.inject) knows. */
export const KNOWN_METHODS = [
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'DELETE',
  'PATCH',
  'OPTIONS',
  'TRACE',
  'PROPFIND',
  'SEARCH',
  'QUERY',
  'MKCOL',
  'PURGE',
  'M-SEARCH',
  'SOURCE',
  'get',
  'post',
] as const;
/** Methods only a raw socket can send: unknown, malformed, empty. */
export const ODD_METHODS = [
  'FOO',
  'G',
  'GETT',
  'BREW',
  'CONNECT',
  'PRI',
  '',
  'GET\t',
  'G ET',
  'GET/',
  '\u00c9T',
  'X'.repeat(300),
];

/** Path pieces known to have fooled servers: traversal in every encoding, NUL, bad escapes, reserved names. */
const NASTY_SEGMENTS = [
  '..',
  '.',
  '...',
  '%2e%2e',
  '%2E%2E',
  '%2e.',
  '.%2e',
  '%252e%252e',
  '%c0%ae%c0%ae',
  '%C0%AE',
  '%c0%af',
  '%e0%80%ae',
  '%c1%9c',
  '..%2f',
  '..%5c',
  '..%255c',
  '%2f',
  '%252f',
  '%5c',
  '\\',
  '..\\..',
  '%00',
  '%0a',
  '%0d%0a',
  '%',
  '%z',
  '%zz',
  '%2',
  '%u002e',
  '%ff',
  '%fe%ff',
  '%ef%bb%bf',
  '%e2%80%ae',
  '%f0%9f%92%a9',
  '%ed%a0%80',
  '%f4%90%80%80',
  '',
  ';',
  ';x=1',
  '*',
  '~',
  'con',
  'nul',
  'aux',
  '.env',
  '.git',
  'package.json',
  'aboutme.html',
  'aboutme.html.br',
  'aboutme.html.gz',
  '404',
  '404.html',
  'index.html',
  'pt',
  'api',
  'música',
  'Ação',
  'ü',
  '\u202e',
  '\ufeff',
  '\ud83d\udca9',
  '\u0000',
  ' ',
  '\t',
  '#',
  '?',
  '@',
  ':',
  "'",
  '"',
  '<script>',
  '%3Cscript%3E',
];

const LONG = fc.integer({ min: 1_000, max: 40_000 }).map((n) => 'a'.repeat(n));

/** Percent-encodes every byte of a text once or twice (%25-encoded). */
function percentEncoded(text: string, twice: boolean): string {
  const once = [...Buffer.from(text, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
  return twice ? once.replace(/%/g, '%25') : once;
}

/** A path segment: a real one, a nasty one, random text in several alphabets, or random escaped bytes. */
function segmentOf(realSegments: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...realSegments) },
    { weight: 5, arbitrary: fc.constantFrom(...NASTY_SEGMENTS) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
    {
      weight: 1,
      arbitrary: fc
        .uint8Array({ maxLength: 8 })
        .map((bytes) => [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constantFrom(...realSegments), fc.boolean()).map(([s, twice]) => percentEncoded(s, twice)),
    },
    { weight: 1, arbitrary: fc.constantFrom(...realSegments).map((s) => s.toUpperCase()) },
  );
}

function pathOf(urls: string[]): fc.Arbitrary<string> {
  const realSegments = [...new Set(urls.flatMap((u) => u.split('/')).filter(Boolean))];
  const segment = segmentOf(realSegments);
  const api = API_ROUTES.slice(0, 4);
  return fc.oneof(
    // The API's routes as they are, often: each is one of about 150 URLs of the site otherwise.
    { weight: 5, arbitrary: fc.constantFrom(...api) },
    { weight: 4, arbitrary: fc.constantFrom(...urls) },
    // A real URL with a piece inserted, replaced or appended.
    {
      weight: 6,
      arbitrary: fc
        .tuple(
          fc.oneof(fc.constantFrom(...urls), fc.constantFrom(...api)),
          fc.nat(),
          segment,
          fc.constantFrom('insert', 'replace', 'append', 'slash', 'double-slash', 'encode'),
        )
        .map(([url, at, piece, how]) => {
          const parts = url.split('/');
          const i = 1 + (at % Math.max(1, parts.length - 1));
          if (how === 'insert') parts.splice(i, 0, piece);
          else if (how === 'replace') parts[i] = piece;
          else if (how === 'append') parts.push(piece);
          else if (how === 'slash') return `${url}/`;
          else if (how === 'double-slash') return `/${url}`;
          else parts[i] = percentEncoded(parts[i] ?? '', false);
          return parts.join('/');
        }),
    },
    { weight: 3, arbitrary: fc.array(segment, { maxLength: 8 }).map((s) => `/${s.join('/')}`) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...urls), LONG).map(([url, long]) => `${url}/${long}`) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 5_000 }).map((n) => `/${'../'.repeat(n)}etc/passwd`) },
  );
}

const QUERY_KEYS = [
  'searchWord',
  'language',
  'searchWord',
  'language',
  '__proto__',
  'constructor',
  'searchWord[]',
  'language[0]',
  'a',
  '',
  '%',
  '%zz',
  'searchWord%00',
];
const QUERY_VALUES = [
  'en',
  'pt',
  'EN',
  'fr',
  '',
  'docker',
  'gulbenkian',
  'musica',
  'música',
  'm%C3%BAsica',
  'Fassbindr',
  'git',
  '   git   ',
  'para',
  'the',
  '%',
  '%zz',
  '%00',
  '%C0%AE',
  '+',
  '++++',
  '&',
  '=',
  '*',
  '****',
  '"',
  '\\',
  '(',
  ')',
  '[',
  ']',
  '{}',
  '^',
  '~',
  ':',
  '-',
  '--',
  'a b',
  'a+b',
  '%20%20%20%20',
  '\u0000',
  '\ud800',
  'ﬀ',
  'İ',
  'ß',
];

function queryOf(): fc.Arbitrary<string> {
  const value = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...QUERY_VALUES) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
    {
      weight: 1,
      arbitrary: fc
        .string({ unit: 'binary', maxLength: 30 })
        .map((s) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, ''))),
    },
    { weight: 1, arbitrary: LONG },
  );
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant('') },
    {
      weight: 6,
      arbitrary: fc
        .array(fc.tuple(fc.constantFrom(...QUERY_KEYS), value), { maxLength: 5 })
        .map((pairs) => `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`),
    },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }).map((s) => `?${s}`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '?',
        '??',
        '?&&&',
        '?=',
        '?language',
        '?searchWord=docker&language=en&language=pt',
        '?searchWord=docker&searchWord=git&language=en',
      ),
    },
  );
}

/** A header value as HTTP allows it: visible Latin-1 and spaces, no control characters. */
const headerText = (maxLength: number) =>
  fc.string({
    unit: fc
      .integer({ min: 0x20, max: 0xff })
      .filter((c) => c !== 0x7f)
      .map((c) => String.fromCharCode(c)),
    maxLength,
  });

const HEADER_VALUES = {
  'content-type': [
    'application/json',
    'application/json; charset=utf-8',
    'application/json; charset=latin1',
    'application/json; charset=utf-16',
    'APPLICATION/JSON',
    'application/json;;',
    'application/json; charset',
    'application/json; =',
    'application/jsonx',
    'application/*',
    '*/*',
    'text/plain',
    'text/plain; charset=utf-8',
    'text/html',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'multipart/form-data',
    'application/octet-stream',
    '',
    ' ',
    ';',
    '/',
    'json',
    'application/problem+json',
    'application/ld+json',
    'application/json, text/plain',
  ],
  'accept-encoding': [
    'br',
    'gzip',
    'br, gzip',
    'gzip;q=0',
    '*',
    'identity;q=0',
    '*;q=0',
    'br;q=abc',
    'gzip;q=',
    'deflate',
    'zstd',
    ',',
    ';;;',
    'br;q=1.5, gzip;q=-1',
    '',
  ],
  range: [
    'bytes=0-10',
    'bytes=-5',
    'bytes=5-',
    'bytes=100000000-',
    'bytes=5-1',
    'bytes=a-b',
    'bytes=0-0,1-1,2-2',
    'bytes=',
    'bytes=-0',
    'items=1-2',
    'bytes=0-10, 5-15',
    `bytes=${'0-1,'.repeat(500)}0-1`,
    '',
  ],
  'if-none-match': ['*', '""', 'W/"x"', '"abc", W/"def"', 'not-quoted', ',,,', ''],
  'if-modified-since': ['Thu, 01 Jan 1970 00:00:00 GMT', 'garbage', 'Fri, 31 Dec 9999 23:59:59 GMT', '0', '-1', ''],
  'if-match': ['*', '"x"', 'garbage'],
  'if-range': ['"x"', 'Thu, 01 Jan 1970 00:00:00 GMT', 'garbage'],
  accept: ['application/json', 'text/html', '*/*', 'image/*;q=0', ';;', ''],
  'accept-language': ['pt-PT,pt;q=0.9', 'en', '*', ';q=', ''],
  referer: [
    'http://localhost/pt/aboutme',
    'https://example.org/pt',
    '/pt/blog',
    'not a url',
    'http://[::1',
    'javascript:alert(1)',
    '',
  ],
  origin: ['null', 'http://evil.example', ''],
  'x-forwarded-for': ['1.2.3.4', '1.2.3.4, 5.6.7.8', 'unknown', '::1', '999.999.999.999', ',,,', ''],
  'x-forwarded-proto': ['https', 'http', 'HTTPS', 'ftp', 'https, http', ''],
  'x-forwarded-host': ['example.org', 'evil.example:99999', '[::1', ''],
  'content-encoding': ['gzip', 'br', 'deflate', 'identity', 'x'],
  'user-agent': ['curl/8', ''],
} as const;

function headersOf(): fc.Arbitrary<Record<string, string>> {
  const fields: Record<string, fc.Arbitrary<string>> = {};
  for (const [name, values] of Object.entries(HEADER_VALUES)) {
    fields[name] = fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom(...values) },
      { weight: 1, arbitrary: headerText(40) },
      { weight: 1, arbitrary: fc.integer({ min: 8_000, max: 12_000 }).map((n) => 'x'.repeat(n)) },
    );
  }
  const name = fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,15}$/);
  const extra = fc.dictionary(name, headerText(50), { maxKeys: 3 });
  const token = fc.oneof(
    fc.constantFrom('abc', 'a', 'é', 'ab', '%C3%A9', '=', ';', '', ' '),
    headerText(4),
    fc.stringMatching(/^[0-9a-f]{48}$/),
  );
  const xsrf = fc.oneof(
    { weight: 5, arbitrary: token.map((t) => ({ cookie: `XSRF-TOKEN=${t}`, 'x-xsrf-token': t })) },
    {
      weight: 3,
      arbitrary: fc.tuple(token, token).map(([c, h]) => ({ cookie: `XSRF-TOKEN=${c}`, 'x-xsrf-token': h })),
    },
    {
      weight: 1,
      arbitrary: fc.record(
        {
          cookie: fc.oneof(
            headerText(60),
            fc.constantFrom(
              'XSRF-TOKEN',
              'XSRF-TOKEN=',
              'lang=pt',
              'lang=xx; XSRF-TOKEN=a; XSRF-TOKEN=b',
              '=; ;;=',
              `XSRF-TOKEN=${'a'.repeat(9000)}`,
            ),
          ),
        },
        { requiredKeys: [] },
      ),
    },
    { weight: 1, arbitrary: fc.constant({}) },
  );
  // A few headers at a time: with every one present, nearly every request would stop at the first
  // check it fails (415, 412) and the handlers behind would never run.
  const chosen = fc.uniqueArray(fc.constantFrom(...Object.keys(fields)), { maxLength: 4 });
  const known = chosen.chain((names) =>
    fc.tuple(...names.map((n) => fields[n]!)).map((values) => Object.fromEntries(names.map((n, i) => [n, values[i]!]))),
  );
  const more = fc.oneof({ weight: 4, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: extra });
  return fc.tuple(known, xsrf, more).map(([known, anti, more]) => {
    const headers: Record<string, string> = {};
    // Known names win over random ones of the same name; host and content-length are the sender's.
    for (const [k, v] of [...Object.entries(more), ...Object.entries(known), ...Object.entries(anti)]) {
      if (
        v !== undefined &&
        !['host', 'content-length', 'transfer-encoding', 'connection', 'expect', 'upgrade'].includes(k.toLowerCase())
      )
        headers[k.toLowerCase()] = v;
    }
    return headers;
  });
}

const EMAILS = [
  'ana@example.pt',
  'Ana@Example.PT',
  '-2+3@example.com',
  'a@b',
  '@',
  'a@@b.co',
  `${'a'.repeat(330)}@example.com`,
  ' ana@example.pt ',
  'ana@example.pt\u0000',
  '\ud800@x.co',
  '"q"@x.co',
  'a@[127.0.0.1]',
];

function bodyOf(): fc.Arbitrary<string | Uint8Array | undefined> {
  const anything = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.constantFrom(null, 42, -1, 1e308, true, [], {}, '', 'en', 'pt'),
  );
  const email = fc.oneof(
    fc.constantFrom(...EMAILS),
    fc.emailAddress(),
    fc.string({ unit: 'grapheme', maxLength: 30 }),
    anything,
  );
  const language = fc.oneof(fc.constantFrom('en', 'pt', 'EN', 'fr', '', '__proto__', 'toString'), anything);
  const newsletter = fc
    .record({ email, language }, { requiredKeys: [] })
    .chain((r) =>
      fc.dictionary(fc.string({ maxLength: 8 }), anything, { maxKeys: 2 }).map((extra) => ({ ...extra, ...r })),
    );
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    { weight: 6, arbitrary: newsletter.map((r) => JSON.stringify(r)) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v) ?? 'null') },
    // A valid JSON text cut anywhere.
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          newsletter.map((r) => JSON.stringify(r)),
          fc.nat(),
        )
        .map(([s, n]) => s.slice(0, n % (s.length + 1))),
    },
    // Nesting deep enough to hurt a recursive parser or walker; some beyond the body limit.
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.integer({ min: 1, max: 30_000 }),
          fc.constantFrom(['[', ']'], ['{"a":', '}'], ['{"email":', '}'], ['{"__proto__":', '}']),
        )
        .map(([n, [open, close]]) => `${open.repeat(n)}1${close.repeat(n)}`),
    },
    { weight: 2, arbitrary: fc.uint8Array({ maxLength: 600 }) },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 16 * 1024 - 64, max: 100_000 }).map((n) => JSON.stringify({ email: 'a'.repeat(n) })),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '{"__proto__":{"email":"a@b.co"}}',
        '{"constructor":{"prototype":{"email":1}}}',
        '{"email":"a@b.co","email":"c@d.co"}',
        '1e400',
        '"\\ud800"',
        'null',
        '',
        ' ',
        '\ufeff{"email":"a@b.co"}',
        '{"email":"a@b.co"}garbage',
        '{"email":"a@b.co"',
        '{email:"a@b.co"}',
        "{'email':'a@b.co'}",
        '[{"email":"a@b.co"}]',
        'email=a@b.co',
        '{"email":"\\u0000@x.co"}',
        '{"email":"a@b.co","language":"pt"}',
      ),
    },
  );
}

/** A request as a broken client, a scanner or an attacker might send it. */
export function requestOf(urls: string[], methods: readonly string[]): fc.Arbitrary<FuzzRequest> {
  const method = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom('GET', 'POST', 'HEAD') },
    { weight: 2, arbitrary: fc.constantFrom(...methods) },
  );
  const wild = fc
    .record({
      method,
      path: pathOf(urls),
      query: queryOf(),
      headers: headersOf(),
      body: bodyOf(),
      behindProxy: fc.boolean(),
    })
    .map((r) => {
      const request: FuzzRequest = {
        method: r.method,
        path: r.path,
        query: r.query,
        headers: r.headers,
        behindProxy: r.behindProxy,
      };
      if (r.body !== undefined) request.body = r.body;
      return request;
    });
  // Nearly right: the API route with its own method, a JSON content type, usually the right
  // anti-forgery pair, so that the handlers themselves meet the odd values.
  const nearlyRight = fc
    .record({
      route: fc.constantFrom(...API_ROUTES.slice(0, 4)),
      query: queryOf(),
      headers: headersOf(),
      body: bodyOf(),
      json: fc.boolean(),
      behindProxy: fc.boolean(),
    })
    .map((r) => {
      const write = r.route === '/api/newsletter' || r.route === '/api/view_count/increment';
      const headers = { ...r.headers };
      if (write && r.json) headers['content-type'] = 'application/json';
      const request: FuzzRequest = {
        method: write ? 'POST' : 'GET',
        path: r.route,
        query: r.query,
        headers,
        behindProxy: r.behindProxy,
      };
      if (write && r.body !== undefined) request.body = r.body;
      return request;
    });
  return fc.oneof({ weight: 3, arbitrary: wild }, { weight: 2, arbitrary: nearlyRight });
}

/** The request's path as the server sees it after app.inject's URL parsing (WHATWG: ".." resolved, unicode escaped). */
export function injectedPath(request: FuzzRequest): string {
  const url = request.path + request.query;
  // As light-my-request parses it: a path starting "//" is a path on localhost, not another host.
  return new URL(url.startsWith('//') ? `http://localhost${url}` : url, 'http://localhost').pathname;
}

export function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/') || path.startsWith('/api?');
}

/** The request as bytes on the wire, exactly as generated (nothing normalised). */
export function rawRequest(request: FuzzRequest): Buffer {
  const body = request.body === undefined ? undefined : Buffer.from(request.body);
  const headers = [
    'Host: 127.0.0.1',
    'Connection: close',
    ...Object.entries(request.headers).map(([name, value]) => `${name}: ${value}`),
  ];
  if (body) headers.push(`Content-Length: ${body.length}`);
  return Buffer.concat([
    // The path goes out as UTF-8, as a client that does not escape it would send it; headers are Latin-1.
    Buffer.from(`${request.method} ${request.path}${request.query} HTTP/1.1\r\n`, 'utf8'),
    Buffer.from(`${headers.map((h) => `${h}\r\n`).join('')}\r\n`, 'latin1'),
    ...(body ? [body] : []),
  ]);
}

export interface RawAnswer {
  /** The status of each response read, in order (pipelined requests get several). */
  statuses: number[];
  /** Everything the server sent. */
  text: string;
  /** Whether the server closed the connection, by itself or once we closed our side. */
  closed: boolean;
}

/**
 * Sends bytes over a fresh connection and reads what comes back until the server closes the
 * connection. A request may be incomplete (cut short, a body shorter than announced), so when the
 * server has sent nothing for `idleMs` we close our side, as a client that gives up does (not at
 * once: Node's server drops a request whose client half-closes before it is answered), and the
 * server then has `closeMs` to close its side.
 */
export function sendRaw(
  port: number,
  bytes: Buffer,
  options: { idleMs?: number; closeMs?: number } = {},
): Promise<RawAnswer> {
  const idleMs = options.idleMs ?? 150;
  const closeMs = options.closeMs ?? 3_000;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1');
    let done = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('latin1');
      resolve({ statuses: responseStatuses(text), text, closed });
    };
    const idle = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        socket.end();
        timer = setTimeout(() => finish(false), closeMs);
      }, idleMs);
    };
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      idle();
    });
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    socket.on('connect', () => socket.write(bytes, idle));
  });
}

/**
 * The status of each response in what a server sent on one connection, read by their framing
 * (Content-Length, chunked, or to the end), so pipelined answers are told apart from their bodies.
 * A response to HEAD has no body, which this cannot know: it reads one only when the head says so.
 */
export function responseStatuses(text: string): number[] {
  const statuses: number[] = [];
  let at = 0;
  while (at < text.length) {
    const end = text.indexOf('\r\n\r\n', at);
    if (end === -1) break;
    const head = text.slice(at, end);
    const status = /^HTTP\/1\.[01] (\d{3})/.exec(head);
    if (!status) break;
    const code = Number(status[1]);
    statuses.push(code);
    at = end + 4;
    if (code < 200 || code === 204 || code === 304) continue;
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (/\r\ntransfer-encoding: *chunked/i.test(head)) {
      for (;;) {
        const line = text.indexOf('\r\n', at);
        if (line === -1) return statuses;
        const size = parseInt(text.slice(at, line), 16);
        at = line + 2 + (Number.isNaN(size) ? 0 : size) + 2;
        if (!size) break;
      }
    } else if (length) at += Number(length[1]);
    else break;
  }
  return statuses;
}

/** Byte-level damage to a raw request: inserted line breaks, NULs, spaces, high bytes; deletions; truncation. */
export function damagedOf(base: fc.Arbitrary<Buffer>): fc.Arbitrary<{ bytes: Buffer; edits: string[] }> {
  const insertable = fc.oneof(
    fc.constantFrom(
      '\r',
      '\n',
      '\r\n',
      '\0',
      ' ',
      '\t',
      ':',
      '\x7f',
      '\x80',
      '\xff',
      '%',
      'HTTP/1.1',
      'Transfer-Encoding: chunked\r\n',
      'Content-Length: 5\r\n',
      '\r\n\r\n',
    ),
    fc.string({ unit: 'binary-ascii', maxLength: 6 }),
  );
  const edit = fc.oneof(
    fc.tuple(fc.constant('insert' as const), fc.nat(), insertable),
    fc.tuple(fc.constant('delete' as const), fc.nat(), fc.integer({ min: 1, max: 8 })),
    fc.tuple(fc.constant('truncate' as const), fc.nat(), fc.constant(0)),
  );
  return fc.tuple(base, fc.array(edit, { minLength: 1, maxLength: 5 })).map(([bytes, edits]) => {
    let out = Buffer.from(bytes);
    const described: string[] = [];
    for (const [kind, at, what] of edits) {
      const i = at % (out.length + 1);
      if (kind === 'insert') {
        out = Buffer.concat([out.subarray(0, i), Buffer.from(what as string, 'latin1'), out.subarray(i)]);
        described.push(`insert ${JSON.stringify(what)} at ${i}`);
      } else if (kind === 'delete') {
        out = Buffer.concat([out.subarray(0, i), out.subarray(i + (what as number))]);
        described.push(`delete ${what} at ${i}`);
      } else {
        out = out.subarray(0, i);
        described.push(`truncate at ${i}`);
      }
    }
    return { bytes: out, edits: described };
  });
}
