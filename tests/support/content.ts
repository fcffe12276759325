import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export const PROJECT_ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * A throwaway site root holding a copy of the real content (media linked, not copied), for tests
 * that edit content. Call `cleanup` when done.
 */
export async function copyOfContent(): Promise<{ root: string; edit: (file: string, change: (text: string) => string) => Promise<void>; cleanup: () => Promise<void> }> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'site-test-content-'));
  const source = path.join(PROJECT_ROOT, 'content');
  await cp(source, path.join(root, 'content'), { recursive: true, filter: (src) => !src.startsWith(path.join(source, 'media')) });
  await symlink(path.join(source, 'media'), path.join(root, 'content', 'media'));
  return {
    root,
    edit: async (file, change) => {
      const absolute = path.join(root, file);
      await writeFile(absolute, change(await readFile(absolute, 'utf8')));
    },
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}
