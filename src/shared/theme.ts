/**
 * The colour scheme a reader chose with the toolbar's toggle, kept in localStorage under
 * THEME_KEY ('light' or 'dark'); with none, the page follows prefers-color-scheme. The choice is
 * written on <html data-theme>, which the stylesheet reads (color-scheme, and every light-dark()).
 */
export type Theme = 'light' | 'dark';

export const THEME_KEY = 'theme';

/**
 * Run in <head> before the stylesheet is applied, so a page never shows the other scheme first.
 * Inline, for that reason: the server allows it by its hash (server/app.ts).
 */
export const THEME_SCRIPT = `try{var t=localStorage.getItem('${THEME_KEY}');if(t==='light'||t==='dark')document.documentElement.dataset.theme=t}catch(e){}`;
