import { INTL_LOCALES, type Lang } from './lang';

/**
 * Dates as the site writes them. Content dates are calendar days, "YYYY-MM-DD", read and
 * written in UTC so that no time zone moves them a day.
 */

/** The start (00:00 UTC) of a content date "YYYY-MM-DD". */
export function dayStart(date: string): Date {
  return new Date(`${date}T00:00:00Z`);
}

/** A moment's calendar day in UTC, "YYYY-MM-DD" (a YAML date in front matter becomes this). */
export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** A content date as a reader of `lang` writes it: "16 February 2025", "16 de fevereiro de 2025". */
export function readableDate(date: string, lang: Lang): string {
  return READABLE[lang].format(dayStart(date));
}

/** A content date as RSS writes it (RFC 822): "Sun, 16 Feb 2025 00:00:00 GMT". */
export function rssDate(date: string): string {
  return dayStart(date).toUTCString();
}

/** Built once: constructing an Intl formatter costs far more than formatting a date with it. */
const READABLE: Record<Lang, Intl.DateTimeFormat> = {
  en: new Intl.DateTimeFormat(INTL_LOCALES.en, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }),
  pt: new Intl.DateTimeFormat(INTL_LOCALES.pt, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }),
};
