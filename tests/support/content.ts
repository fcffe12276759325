import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadContent } from '../../src/load/content';
import { writeLock } from '../../src/translations/lock';
import { syncAll } from '../../src/translations/sync';

export const PROJECT_ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * A throwaway site root holding a copy of the real content (media linked unless `media: 'copied'`), for tests
 * that edit content. With `articles: 'clean'` the real articles are replaced by the fixed ones of
 * tests/fixtures/clean, so checker fixtures do not depend on articles that are still being
 * written. Call `cleanup` when done.
 */
export async function copyOfContent(
  options: { articles?: 'real' | 'clean'; media?: 'linked' | 'copied' } = {},
): Promise<{ root: string; edit: (file: string, change: (text: string) => string) => Promise<void>; cleanup: () => Promise<void> }> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'site-test-content-'));
  const source = path.join(PROJECT_ROOT, 'content');
  const skip = [path.join(source, 'media'), ...(options.articles === 'clean' ? [path.join(source, 'blog')] : [])];
  await cp(source, path.join(root, 'content'), { recursive: true, filter: (src) => !skip.some((s) => src.startsWith(s)) });
  if (options.articles === 'clean') await cp(path.join(PROJECT_ROOT, 'tests/fixtures/clean/content/blog'), path.join(root, 'content/blog'), { recursive: true });
  // The fixed articles are not the real ones the real lock records: they start in line too.
  if (options.articles === 'clean') await syncTranslations(root);
  // Copied for a test that adds media files, which must not land in the real folder.
  if (options.media === 'copied') await cp(path.join(source, 'media'), path.join(root, 'content', 'media'), { recursive: true });
  else await symlink(path.join(source, 'media'), path.join(root, 'content', 'media'));
  return {
    root,
    edit: async (file, change) => {
      const absolute = path.join(root, file);
      await writeFile(absolute, change(await readFile(absolute, 'utf8')));
    },
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

/**
 * Marks every translation of the site at `root` as in line, as `site translations sync --all`
 * does, when its content loads: a test that edits content starts from translations in line.
 */
export async function syncTranslations(root: string): Promise<void> {
  const { content } = await loadContent(root);
  if (content) await writeLock(root, syncAll(content));
}
