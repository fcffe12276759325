import type { Lang } from '../shared/lang';

/** Name of the cookie and storage key that remember the visitor's language. */
export const LANG_KEY = 'lang';

/**
 * Remembers the chosen language: in localStorage for the static-host redirect page, and in a
 * cookie so the server can send "/" straight to the right About Me.
 */
export function rememberLang(lang: Lang): void {
  try {
    window.localStorage.setItem(LANG_KEY, lang);
  } catch {
    // Storage can be disabled; the cookie still carries the choice.
  }
  // biome-ignore lint/suspicious/noDocumentCookie: the link's navigation follows at once, and the Cookie Store API writes asynchronously (older browsers lack it): its cookie might not be set before the page goes.
  document.cookie = `${LANG_KEY}=${lang}; path=/; max-age=31536000; samesite=lax`;
}
