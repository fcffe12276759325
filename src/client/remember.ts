import { isLang, type Lang } from '../shared/lang';

/** Name of the cookie and storage key that remember the visitor's language. */
export const LANG_KEY = 'lang';

/**
 * Remembers the chosen language: in localStorage for the static-host redirect page, and in a
 * cookie so the server can send "/" straight to the right About Me.
 */
function rememberLang(lang: Lang): void {
  try {
    window.localStorage.setItem(LANG_KEY, lang);
  } catch {
    // Storage can be disabled; the cookie still carries the choice.
  }
  // biome-ignore lint/suspicious/noDocumentCookie: the link's navigation follows at once, and the Cookie Store API writes asynchronously (older browsers lack it): its cookie might not be set before the page goes.
  document.cookie = `${LANG_KEY}=${lang}; path=/; max-age=31536000; samesite=lax`;
}

/**
 * A language flag followed (a link of the language switch, in the toolbar or the drawer)
 * remembers its language. One listener on the document, in the page's own script: it holds from
 * the page's first moment, before the islands are hydrated.
 */
export function rememberLangChoices(root: Document): void {
  root.addEventListener('click', (event) => {
    const link =
      event.target instanceof Element ? event.target.closest<HTMLAnchorElement>('.lang-switch a[hreflang]') : null;
    if (link && isLang(link.hreflang)) rememberLang(link.hreflang);
  });
}
