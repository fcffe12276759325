import { mkdir, readdir, readFile, rm, rmdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type CategoryKind, type StarterEdition, startArticle } from '../authoring/newArticle';
import { OperationalError, operational, systemCode } from '../diagnostics/failure';
import { isoDay } from '../shared/date';
import type { Lang } from '../shared/lang';

export interface NewOptions {
  root: string;
  category: string;
  slug: string;
  /** The editions to start. */
  langs: readonly Lang[];
  /** Where `site dev` serves with its defaults ("http://127.0.0.1:3000"): the URLs printed start with it. */
  devOrigin: string;
  /** The moment whose UTC day the editions are dated; now, unless a test fixes it. */
  now?: Date;
}

/**
 * `site new <category>/<Slug>`: writes the editions of a new article as drafts and says where
 * `site dev` shows them. Refuses (exit 1, nothing written) what `startArticle` refuses.
 */
export async function runNew(options: NewOptions): Promise<number> {
  const { root, category } = options;
  const categories = await readCategories(root);
  const folder = path.join(root, 'content', 'blog', category);
  // The folder is read only for a known category: the argument names no other path.
  const existing = categories.some((c) => c.key === category) ? await namesIn(folder) : [];
  const started = startArticle({
    category,
    slug: options.slug,
    langs: options.langs,
    categories,
    existing,
    today: isoDay(options.now ?? new Date()),
  });
  if ('refusal' in started) throw new OperationalError(started.refusal.message, started.refusal.hint);
  await writeEditions(root, folder, started.editions);
  for (const edition of started.editions) console.log(`✓ wrote ${edition.file}`);
  console.log('A draft (site build leaves it out until "draft: true" is removed); with site dev running, open:');
  for (const edition of started.editions) console.log(`  ${options.devOrigin}${edition.url}`);
  return 0;
}

/**
 * The categories of content/categories. A file that cannot be read counts as a listing: its problem
 * is `site check`'s to report.
 */
async function readCategories(root: string): Promise<CategoryKind[]> {
  const dir = path.join(root, 'content', 'categories');
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if (systemCode(error) === 'ENOENT')
      throw new OperationalError(
        `${root} has no content/categories folder`,
        "Run site new in the site's folder, or point --root at it.",
      );
    throw operational(error, `cannot read ${dir}`);
  }
  return Promise.all(
    names
      .filter((name) => name.endsWith('.json'))
      .sort()
      .map(async (name) => {
        let kind: unknown;
        try {
          kind = (JSON.parse(await readFile(path.join(dir, name), 'utf8')) as { kind?: unknown } | null)?.kind;
        } catch {
          kind = undefined;
        }
        return { key: name.slice(0, -'.json'.length), gallery: kind === 'gallery' };
      }),
  );
}

async function namesIn(folder: string): Promise<string[]> {
  try {
    return await readdir(folder);
  } catch (error) {
    if (systemCode(error) === 'ENOENT') return [];
    throw operational(error, `cannot read ${folder}`);
  }
}

/**
 * Writes every edition or none: a file that appeared since the folder was read is never
 * overwritten, and what was written is removed again.
 */
async function writeEditions(root: string, folder: string, editions: readonly StarterEdition[]): Promise<void> {
  let created: string | undefined;
  try {
    created = await mkdir(folder, { recursive: true });
  } catch (error) {
    throw operational(error, `cannot create the folder ${path.relative(root, folder)}`);
  }
  const written: string[] = [];
  for (const edition of editions) {
    const absolute = path.join(root, edition.file);
    try {
      await writeFile(absolute, edition.text, { flag: 'wx' });
      written.push(absolute);
    } catch (error) {
      await Promise.all(written.map((file) => rm(file, { force: true })));
      if (created) await removeEmpty(folder, created);
      if (systemCode(error) === 'EEXIST')
        throw new OperationalError(`${edition.file} already exists`, 'Edit it, or choose another slug.');
      throw operational(error, `cannot write ${edition.file}`);
    }
  }
}

/** Removes `folder` and its parents up to `top`, the first folder this command made, while they are empty. */
async function removeEmpty(folder: string, top: string): Promise<void> {
  for (let dir = folder; dir.startsWith(top); dir = path.dirname(dir)) {
    try {
      await rmdir(dir);
    } catch {
      return;
    }
  }
}
