import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Diagnostic } from '../diagnostics/diagnostic';
import { loadContent } from '../load/content';
import { publishedToday } from '../model/publication';
import { changeDays } from '../translations/changed';
import { dashboard, dashboardText } from '../translations/dashboard';
import { emptyLock, LOCK_FILE, readLock, writeLock } from '../translations/lock';
import { translationStates } from '../translations/state';
import { syncAll, syncFile } from '../translations/sync';
import { report } from './report';

/**
 * The content and the lock, or the diagnostics that keep them from loading (printed). `--all`
 * reads no lock: it writes a new one, which is how a broken lock (a merge gone wrong) is mended.
 */
async function load(root: string, withLock = true) {
  const diagnostics: Diagnostic[] = [];
  const loaded = await loadContent(root);
  diagnostics.push(...loaded.diagnostics.filter((d) => d.severity === 'error'));
  const lock = withLock ? await readLock(root, diagnostics) : emptyLock();
  if (!loaded.content || !lock || diagnostics.length > 0) {
    report(root, diagnostics, 'human');
    if (lock === undefined)
      console.error(
        `  ${LOCK_FILE} can be written anew, marking every translation as in line: site translations sync --all`,
      );
    return undefined;
  }
  return { content: loaded.content, lock };
}

/** `site translations`: the table of every route and language with its state. */
export async function runTranslations(options: { root: string; format: 'text' | 'json' }): Promise<number> {
  const loaded = await load(options.root);
  if (!loaded) return 1;
  const states = await translationStates(loaded.content, loaded.lock, changeDays(options.root));
  const board = dashboard(loaded.content, states, publishedToday().today);
  console.log(options.format === 'json' ? JSON.stringify(board, null, 2) : dashboardText(board));
  return 0;
}

/** `site translations sync <file...>` or `--all`: marks texts as in line in the lock. */
export async function runSync(options: { root: string; files: string[]; all: boolean }): Promise<number> {
  if (options.all === options.files.length > 0) {
    console.error('✗ name the files to mark as in line, or --all (not both)');
    return 2;
  }
  const loaded = await load(options.root, !options.all);
  if (!loaded) return 1;
  if (options.all) {
    const lock = syncAll(loaded.content);
    await writeLock(options.root, lock);
    console.log(
      `✓ ${Object.keys(lock.articles).length} bilingual articles and the texts of ${Object.keys(lock.texts).length} JSON files marked as in line in ${LOCK_FILE}`,
    );
    return 0;
  }
  const lock = loaded.lock ?? emptyLock();
  let failed = false;
  const lines: string[] = [];
  for (const file of options.files) {
    // A path as the check prints it (from the site's root), or one from where the command runs.
    const underRoot = path.resolve(options.root, file);
    const relative = path.relative(options.root, existsSync(underRoot) ? underRoot : path.resolve(process.cwd(), file));
    const synced = syncFile(loaded.content, lock, relative);
    if ('problem' in synced) {
      console.error(`✗ ${synced.problem}`);
      failed = true;
    } else {
      lines.push(`✓ ${synced.marked.join(' and ')} marked as in line`);
    }
  }
  if (failed) {
    console.error(`✗ ${LOCK_FILE} left unchanged`);
    return 1;
  }
  await writeLock(options.root, lock);
  console.log([...lines, `  (${LOCK_FILE})`].join('\n'));
  return 0;
}
