/** The site's languages. Shared by the pipeline, the templates and the browser bundle. */
export const LANGUAGES = ['en', 'pt'] as const;
export type Lang = (typeof LANGUAGES)[number];
export const DEFAULT_LANG: Lang = 'en';

export function isLang(value: unknown): value is Lang {
  return (LANGUAGES as readonly unknown[]).includes(value);
}

/** The locale Intl formats a language's dates and numbers in: British English, European Portuguese. */
export const INTL_LOCALES: Readonly<Record<Lang, string>> = { en: 'en-GB', pt: 'pt-PT' };

/** The language tag a feed's <language> and schema.org's inLanguage give: "en", "pt-PT". */
export const LANGUAGE_TAGS: Readonly<Record<Lang, string>> = { en: 'en', pt: 'pt-PT' };

/** The Open Graph locale of a language (og:locale takes an underscore). */
export const OG_LOCALES: Readonly<Record<Lang, string>> = { en: 'en_GB', pt: 'pt_PT' };

export function otherLang(lang: Lang): Lang {
  return lang === 'en' ? 'pt' : 'en';
}

/** Text in one or both languages (docs/product.md, Content model: "localized text"). */
export type Localized = { en?: string; pt?: string };

/** The text in `lang`, or undefined when that language is missing. */
export function pick(text: Localized, lang: Lang): string | undefined {
  return text[lang];
}
