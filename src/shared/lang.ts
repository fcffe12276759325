/** The site's languages. Shared by the pipeline, the templates and the browser bundle. */
export const LANGUAGES = ['en', 'pt'] as const;
export type Lang = (typeof LANGUAGES)[number];
export const DEFAULT_LANG: Lang = 'en';

export function isLang(value: unknown): value is Lang {
  return value === 'en' || value === 'pt';
}

export function otherLang(lang: Lang): Lang {
  return lang === 'en' ? 'pt' : 'en';
}

/** Text in one or both languages (the spec's "localized text"). */
export type Localized = { en?: string; pt?: string };

/** The text in `lang`, or undefined when that language is missing. */
export function pick(text: Localized, lang: Lang): string | undefined {
  return text[lang];
}
