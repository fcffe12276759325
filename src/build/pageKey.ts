import type { CompiledMarkdown } from '../markdown/compile';
import type { DocumentInputs } from '../render/inputs';
import { digest } from './fingerprint';

/** The key a rendered page is kept under: the rendering code's fingerprint and the page's inputs. */
export function pageKey(code: string, inputs: DocumentInputs, body: CompiledMarkdown | undefined): string {
  return digest(code, pageKeyText(inputs, body));
}

/**
 * The text a page's cache key is hashed from: its inputs as JSON, with the bulk that pages share
 * or that is hashed already stood for by a hash: an article's body by its content hash, the UI
 * strings and the inline CSS (one object for every page of a language or a kind) by a hash made once.
 */
function pageKeyText(inputs: DocumentInputs, body: CompiledMarkdown | undefined): string {
  const head = { ...inputs.head, styles: sharedHash(inputs.head.styles) };
  const chrome = { ...inputs.chrome, strings: sharedHash(inputs.chrome.strings) };
  const page = body && inputs.page.kind === 'article' ? { ...inputs.page, html: body.hash } : inputs.page;
  return JSON.stringify({ head, chrome, page });
}

const SHARED_HASHES = new WeakMap<object, string>();

function sharedHash(value: object): string {
  let hash = SHARED_HASHES.get(value);
  if (hash === undefined) {
    hash = digest(JSON.stringify(value));
    SHARED_HASHES.set(value, hash);
  }
  return hash;
}
