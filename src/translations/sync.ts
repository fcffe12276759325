import path from 'node:path';
import type { LoadedContent } from '../load/content';
import { LANGUAGES } from '../shared/lang';
import { articlePath } from '../shared/route';
import type { TranslationLock } from './lock';
import { bilingualPairs, bilingualTexts, lockedTexts } from './state';

/** What a sync marked as in line, or why it could not. */
export type Synced = { file: string; marked: string[] } | { file: string; problem: string };

/**
 * Marks the texts of `file` (an article edition, with its counterpart; or a JSON content file,
 * every bilingual text of it) as in line in `lock`, as they are now in `content`.
 */
export function syncFile(content: LoadedContent, lock: TranslationLock, file: string): Synced {
  const relative = file.split(path.sep).join('/');
  const source = content.articles.find((a) => a.file === relative);
  if (source) {
    const key = articlePath(source.category, source.slug);
    const pair = bilingualPairs(content.articles).get(key);
    if (!pair)
      return {
        file: relative,
        problem: `${relative} has no ${source.lang === 'en' ? 'Portuguese' : 'English'} edition to be in line with`,
      };
    lock.articles[key] = { en: pair.en.print, pt: pair.pt.print };
    return { file: relative, marked: LANGUAGES.map((lang) => pair[lang].file) };
  }
  const json = content.json.get(relative);
  if (json) {
    if (bilingualTexts(json.value).length === 0)
      return { file: relative, problem: `${relative} holds no text in both languages` };
    lock.texts[relative] = lockedTexts(json.value);
    return { file: relative, marked: [relative] };
  }
  return { file: relative, problem: `${relative} is not an article edition or a JSON file of the content that loaded` };
}

/** Marks every bilingual article and JSON text as in line, and forgets what no longer exists. */
export function syncAll(content: LoadedContent): TranslationLock {
  const lock: TranslationLock = { articles: {}, texts: {} };
  for (const [key, pair] of bilingualPairs(content.articles))
    lock.articles[key] = { en: pair.en.print, pt: pair.pt.print };
  for (const [file, { value }] of content.json)
    if (bilingualTexts(value).length > 0) lock.texts[file] = lockedTexts(value);
  return lock;
}
