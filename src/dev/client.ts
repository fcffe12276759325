// The dev-only script `site dev` adds to every page it serves (never part of dist/): it listens
// to the dev server's event stream and, when the page was rebuilt, puts its new markdown text in
// place if nothing else of it changed, or reloads it (keeping the scroll position); it swaps
// stylesheets in place on a CSS-only change, and shows build errors over the page.
import type { DevEvent, OverlayError } from '../shared/devEvents';

const SCROLL_KEY = 'site-dev-scroll';
const page =
  (document.currentScript ?? document.querySelector('script[data-dev-page]'))?.getAttribute('data-dev-page') ??
  location.pathname;

restoreScroll();
/** The page as the server last sent it, while the tab shows its markdown text as sent; undefined: reload. */
let served = fetchPage().then((html) => (html !== undefined && sameProse(parse(html), document) ? html : undefined));
const events = new EventSource('/__dev/events');
for (const type of ['reload', 'css', 'errors', 'ok', 'warnings'] as const) {
  events.addEventListener(type, (message) => handle(JSON.parse((message as MessageEvent<string>).data) as DevEvent));
}

function handle(event: DevEvent): void {
  if (event.type === 'reload' && (event.pages.includes(page) || event.pages.includes('*'))) {
    served = update(served);
  } else if (event.type === 'css') {
    void swapStyles();
  } else if (event.type === 'errors') {
    showOverlay(event.errors);
  } else if (event.type === 'ok') {
    document.getElementById('site-dev-overlay')?.remove();
  } else if (event.type === 'warnings') {
    showWarnings(event.warnings);
  }
}

/**
 * The warnings of the last good build (a draft, a translation behind its counterpart, ...) in a
 * corner of the page, folded to their count: the page stays usable, and a save that changes them
 * updates the list. None: the list goes.
 */
function showWarnings(warnings: OverlayError[]): void {
  const open = document.getElementById('site-dev-warnings')?.shadowRoot?.querySelector('details')?.open ?? false;
  document.getElementById('site-dev-warnings')?.remove();
  if (warnings.length === 0) return;
  const root = shadowHost(
    'site-dev-warnings',
    'position: fixed; right: 12px; bottom: 12px; z-index: 2147483646; max-width: min(560px, calc(100vw - 24px))',
    `
    details { font: 13px/1.45 system-ui, sans-serif; color: #f4f4f5; background: #18181b; border-left: 4px solid #facc15; border-radius: 6px; box-shadow: 0 4px 16px rgba(0, 0, 0, .35); }
    summary { padding: 8px 12px; cursor: pointer; color: #fde68a; font-weight: 600; }
    ul { margin: 0; padding: 0 12px 10px 28px; max-height: 50vh; overflow: auto; }
    li { margin: 6px 0; }
    .where { font-family: ui-monospace, monospace; color: #93c5fd; }
    .code { color: #a1a1aa; font-family: ui-monospace, monospace; }
    .hint { color: #86efac; }`,
  );
  const details = document.createElement('details');
  details.open = open;
  const summary = document.createElement('summary');
  summary.textContent = warnings.length === 1 ? '1 warning' : `${warnings.length} warnings`;
  const list = document.createElement('ul');
  for (const warning of warnings) {
    const item = document.createElement('li');
    const where = document.createElement('span');
    where.className = 'where';
    where.textContent = warning.line > 0 ? `${warning.file}:${warning.line}` : warning.file;
    const code = document.createElement('span');
    code.className = 'code';
    code.textContent = ` ${warning.code ?? ''} `;
    const message = document.createElement('div');
    message.textContent = warning.message;
    item.append(where, code, message);
    if (warning.hint) {
      const hint = document.createElement('div');
      hint.className = 'hint';
      hint.textContent = warning.hint;
      item.append(hint);
    }
    list.append(item);
  }
  details.append(summary, list);
  root.append(details);
}

/** A fixed element of the dev client's own, under `id`, styled apart from the page in a shadow root holding `css`. */
function shadowHost(id: string, position: string, css: string): ShadowRoot {
  const host = document.createElement('div');
  host.id = id;
  host.style.cssText = position;
  const root = host.attachShadow({ mode: 'open' });
  const style = document.createElement('style');
  style.textContent = css;
  root.append(style);
  document.body.append(host);
  return root;
}

/**
 * Brings the page up to date: when the new version differs from the one the tab shows only
 * inside its markdown text (the `.prose` blocks, where the page's script only adds elements it
 * marks `data-added`, such as the code blocks' copy buttons), that text is put in place, at once
 * and with nothing else disturbed, and the page's script is told (`site:prose`) to add its
 * elements to it again; otherwise the page is reloaded.
 */
async function update(previous: Promise<string | undefined>): Promise<string | undefined> {
  const [before, after] = await Promise.all([previous, fetchPage()]);
  if (before !== undefined && after !== undefined) {
    const fresh = parse(after);
    const prose = [...fresh.querySelectorAll('.prose')].map((element) => element.innerHTML);
    const live = document.querySelectorAll('.prose');
    if (live.length === prose.length && sameOutsideProse(parse(before), fresh)) {
      live.forEach((element, i) => {
        element.innerHTML = prose[i] ?? '';
      });
      document.dispatchEvent(new Event('site:prose'));
      return after;
    }
  }
  sessionStorage.setItem(SCROLL_KEY, JSON.stringify({ page, y: scrollY }));
  location.reload();
  return undefined;
}

function fetchPage(): Promise<string | undefined> {
  return fetch(location.href, { cache: 'no-store' }).then(
    (response) => (response.ok ? response.text() : undefined),
    () => undefined,
  );
}

function parse(html: string): Document {
  return new DOMParser().parseFromString(html, 'text/html');
}

/** Whether two versions of the page are the same once their markdown text is left out (both are changed). */
function sameOutsideProse(a: Document, b: Document): boolean {
  for (const element of [...a.querySelectorAll('.prose'), ...b.querySelectorAll('.prose')]) element.innerHTML = '';
  return a.documentElement.outerHTML === b.documentElement.outerHTML;
}

/** Whether a page as sent holds the markdown text the tab shows (a rebuild may have come between). */
function sameProse(sent: Document, shown: Document): boolean {
  const text = (doc: Document) =>
    [...doc.querySelectorAll('.prose')]
      .map((element) => {
        const copy = element.cloneNode(true) as Element;
        for (const added of copy.querySelectorAll('[data-added]')) added.remove();
        return copy.innerHTML;
      })
      .join('\0');
  return text(sent) === text(shown);
}

function restoreScroll(): void {
  const saved = sessionStorage.getItem(SCROLL_KEY);
  if (!saved) return;
  sessionStorage.removeItem(SCROLL_KEY);
  const { page: savedPage, y } = JSON.parse(saved) as { page: string; y: number };
  if (savedPage === page) addEventListener('load', () => scrollTo(0, y), { once: true });
}

/** Replaces the page's stylesheets (linked and inline) with those of its freshly built version. */
async function swapStyles(): Promise<void> {
  const html = await (await fetch(location.href, { cache: 'no-store' })).text();
  const fresh = new DOMParser().parseFromString(html, 'text/html');
  const selector = 'link[rel="stylesheet"], style';
  const old = [...document.head.querySelectorAll(selector)];
  for (const element of fresh.head.querySelectorAll(selector)) document.head.append(document.importNode(element, true));
  // The old styles go once the new linked ones have loaded, so the page never shows unstyled.
  const links = [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].filter(
    (l) => !old.includes(l),
  );
  await Promise.all(
    links.map(
      (l) =>
        new Promise((resolve) => {
          l.onload = l.onerror = resolve;
        }),
    ),
  );
  for (const element of old) element.remove();
}

function showOverlay(errors: OverlayError[]): void {
  document.getElementById('site-dev-overlay')?.remove();
  const root = shadowHost(
    'site-dev-overlay',
    'position: fixed; inset: 0; z-index: 2147483647',
    `
    .backdrop { position: absolute; inset: 0; background: rgba(20, 20, 24, .88); overflow: auto; font: 14px/1.5 system-ui, sans-serif; color: #f4f4f5; }
    .panel { max-width: 960px; margin: 5vh auto; padding: 24px; background: #18181b; border-top: 4px solid #f87171; border-radius: 6px; }
    h2 { margin: 0 0 16px; font-size: 18px; color: #fca5a5; }
    .error { margin: 0 0 20px; }
    .where { font-family: ui-monospace, monospace; color: #93c5fd; }
    .code { color: #a1a1aa; font-family: ui-monospace, monospace; }
    pre { margin: 8px 0; padding: 12px; background: #09090b; border-radius: 4px; overflow-x: auto; font: 13px/1.45 ui-monospace, monospace; }
    .hint { color: #86efac; }
    .note { color: #a1a1aa; font-size: 13px; }`,
  );
  const backdrop = document.createElement('div');
  backdrop.className = 'backdrop';
  backdrop.setAttribute('role', 'alertdialog');
  backdrop.setAttribute('aria-label', 'Build errors');
  const panel = document.createElement('div');
  panel.className = 'panel';
  const title = document.createElement('h2');
  title.textContent = errors.length === 1 ? 'The build failed: 1 error' : `The build failed: ${errors.length} errors`;
  panel.append(title);
  for (const error of errors) {
    const block = document.createElement('div');
    block.className = 'error';
    const where = document.createElement('div');
    where.innerHTML = '<span class="where"></span> <span class="code"></span>';
    (where.children[0] as HTMLElement).textContent =
      error.line > 0 ? `${error.file}:${error.line}:${error.column}` : error.file;
    (where.children[1] as HTMLElement).textContent = error.code ?? '';
    const message = document.createElement('div');
    message.textContent = error.message;
    block.append(where, message);
    if (error.frame) {
      const frame = document.createElement('pre');
      frame.textContent = error.frame;
      block.append(frame);
    }
    if (error.hint) {
      const hint = document.createElement('div');
      hint.className = 'hint';
      hint.textContent = `hint: ${error.hint}`;
      block.append(hint);
    }
    panel.append(block);
  }
  const note = document.createElement('p');
  note.className = 'note';
  note.textContent = 'The last good pages are still served. This message goes away when the file is fixed.';
  panel.append(note);
  backdrop.append(panel);
  root.append(backdrop);
}
