/**
 * How long an article takes to read, in whole minutes: its words at an unhurried reading pace,
 * never less than one. Listings and the article's header show the same figure.
 */
export const WORDS_PER_MINUTE = 220;

export function readingMinutes(words: number): number {
  return Math.max(1, Math.round(words / WORDS_PER_MINUTE));
}
