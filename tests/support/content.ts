import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadContent } from '../../src/load/content';
import { writeLock } from '../../src/translations/lock';
import { syncAll } from '../../src/translations/sync';
import { appIcon, cameraPhoto } from './photo';

export const PROJECT_ROOT = path.resolve(import.meta.dirname, '../..');

/** A throwaway site root: `edit` changes one of its files (by path from the root), `cleanup` removes it. */
export interface ContentCopy {
  root: string;
  edit: (file: string, change: (text: string) => string) => Promise<void>;
  cleanup: () => Promise<void>;
}

/**
 * A throwaway site root holding a copy of the real content (media linked unless `media: 'copied'`), for tests
 * that edit content. With `articles: 'clean'` the real articles are replaced by the fixed ones of
 * tests/fixtures/clean, so checker fixtures do not depend on articles that are still being
 * written. Call `cleanup` when done.
 */
export async function copyOfContent(
  options: { articles?: 'real' | 'clean'; media?: 'linked' | 'copied' } = {},
): Promise<ContentCopy> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'site-test-content-'));
  const source = path.join(PROJECT_ROOT, 'content');
  const skip = [path.join(source, 'media'), ...(options.articles === 'clean' ? [path.join(source, 'blog')] : [])];
  await cp(source, path.join(root, 'content'), {
    recursive: true,
    filter: (src) => !skip.some((s) => src.startsWith(s)),
  });
  if (options.articles === 'clean')
    await cp(path.join(PROJECT_ROOT, 'tests/fixtures/clean/content/blog'), path.join(root, 'content/blog'), {
      recursive: true,
    });
  // The fixed articles are not the real ones the real lock records: they start in line too.
  if (options.articles === 'clean') await syncTranslations(root);
  // Copied for a test that adds media files, which must not land in the real folder.
  if (options.media === 'copied')
    await cp(path.join(source, 'media'), path.join(root, 'content', 'media'), { recursive: true });
  else await symlink(path.join(source, 'media'), path.join(root, 'content', 'media'));
  return siteAt(root);
}

/**
 * A small site (see `smallSite`), which `restore` puts back as it was made: each file changed since
 * written again, each file added removed.
 */
export interface SmallSite extends ContentCopy {
  restore: () => Promise<void>;
}

/**
 * A throwaway site of its own (tests/fixtures/small): thirteen article editions in four categories
 * (books, tech, culture, and music with none yet), in both languages and in one only, with headings,
 * code, internal links (one to a heading), figures, a photo and a draft; short site-wide JSON
 * content, and a handful of media files. The UI strings are the real ones (their schema takes
 * exactly the keys the templates use), and every translation starts in line. For the tests of the
 * build itself, which build it many times: an edit's build takes some tens of milliseconds, a build
 * from nothing about a second, most of it the tool's own work (its client bundle compressed, the
 * image encoder's process started).
 */
export async function smallSite(): Promise<SmallSite> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'site-test-small-'));
  await writeSmallSite(root);
  const made = await filesIn(path.join(root, 'content'));
  return { ...siteAt(root), restore: () => restoreFiles(path.join(root, 'content'), made) };
}

/** Writes the small site's content (see `smallSite`) into `root`/content, its translations in line. */
export async function writeSmallSite(root: string): Promise<void> {
  const content = path.join(root, 'content');
  await cp(path.join(PROJECT_ROOT, 'tests/fixtures/small/content'), content, { recursive: true });
  const { photo, icon } = await smallRasters();
  await Promise.all([
    cp(path.join(PROJECT_ROOT, 'content/strings.json'), path.join(content, 'strings.json')),
    writeFile(path.join(content, 'media/harbour.jpg'), photo),
    writeFile(path.join(content, 'media/icon.png'), icon),
  ]);
  await syncTranslations(root);
}

/** The small site's raster images, made once per process: a photo small enough to encode in a moment, and an icon. */
let rasters: Promise<{ photo: Buffer; icon: Buffer }> | undefined;
function smallRasters(): Promise<{ photo: Buffer; icon: Buffer }> {
  rasters ??= Promise.all([cameraPhoto('#6a8caf', 480), appIcon()]).then(([photo, icon]) => ({ photo, icon }));
  return rasters;
}

/** Every file under a folder with its bytes, by path below it. */
async function filesIn(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const absolute = path.join(entry.parentPath, entry.name);
    if (entry.isFile()) files.set(path.relative(dir, absolute), await readFile(absolute));
  }
  return files;
}

/**
 * Makes `dir` hold exactly `files` again: what is not among them is removed, and each of them that
 * differs is written. A file that did not change keeps its times, as a checkout leaves it.
 */
async function restoreFiles(dir: string, files: ReadonlyMap<string, Buffer>): Promise<void> {
  const folders = new Set(
    [...files.keys()].flatMap((file) =>
      path
        .dirname(file)
        .split(path.sep)
        .map((_, i, parts) => parts.slice(0, i + 1).join(path.sep)),
    ),
  );
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const relative = path.relative(dir, path.join(entry.parentPath, entry.name));
    if (entry.isDirectory() ? !folders.has(relative) : !files.has(relative))
      await rm(path.join(dir, relative), { recursive: true, force: true });
  }
  for (const [file, bytes] of files) {
    const absolute = path.join(dir, file);
    const now = await readFile(absolute).catch(() => undefined);
    if (now?.equals(bytes)) continue;
    await mkdir(path.dirname(absolute), { recursive: true });
    await writeFile(absolute, bytes);
  }
}

function siteAt(root: string): ContentCopy {
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
