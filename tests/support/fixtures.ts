import { existsSync } from 'node:fs';
import { cp, lstat, mkdir, readdir, readFile, realpath, rm, stat, symlink, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PROJECT_ROOT, syncTranslations } from './content';

export const FIXTURES = path.join(PROJECT_ROOT, 'tests/fixtures/checks');

/** What a checker fixture does to a copy of the real content, and what it must report. */
export interface Fixture {
  name: string;
  description: string;
  /** A broken site-wide file stops modelling, so the fixture is left out of the combined run. */
  fatal?: boolean;
  /** Text replacements in content files, each of which must match exactly once. */
  patches?: { file: string; find: string; replace: string }[];
  delete?: string[];
  /**
   * Files written whole, for what a text overlay cannot hold: `text` repeated `repeat` times (a file
   * too large or nested too deep), or raw bytes in `base64` (text that is not UTF-8).
   */
  write?: { file: string; text?: string; repeat?: number; base64?: string }[];
  /** Symbolic links made in the content, pointing at `target` as written (it may not exist). */
  symlinks?: { file: string; target: string }[];
  expected: { code: string; file: string; line: number }[];
}

export async function listFixtures(): Promise<Fixture[]> {
  const names = (await readdir(FIXTURES)).sort();
  return Promise.all(
    names.map(async (name) => ({
      name,
      ...(JSON.parse(await readFile(path.join(FIXTURES, name, 'fixture.json'), 'utf8')) as Omit<Fixture, 'name'>),
    })),
  );
}

/**
 * Copies the fixture's content/ over the site root, then applies its patches and deletions, and
 * marks its translations as in line.
 */
export async function applyFixture(root: string, fixture: Fixture): Promise<void> {
  const overlay = path.join(FIXTURES, fixture.name, 'content');
  if (
    await stat(overlay).then(
      () => true,
      () => false,
    )
  ) {
    // The copy's media folder is a link to the real one: a fixture that adds media gets a copy of its own.
    const media = path.join(root, 'content', 'media');
    if (existsSync(path.join(overlay, 'media')) && (await lstat(media)).isSymbolicLink()) {
      const real = await realpath(media);
      await unlink(media);
      await cp(real, media, { recursive: true });
    }
    await cp(overlay, path.join(root, 'content'), { recursive: true });
  }
  for (const patch of fixture.patches ?? []) {
    const file = path.join(root, patch.file);
    const text = await readFile(file, 'utf8');
    const at = text.indexOf(patch.find);
    if (at === -1 || text.indexOf(patch.find, at + 1) !== -1)
      throw new Error(`fixture ${fixture.name}: the patch of ${patch.file} does not match exactly once`);
    await writeFile(file, text.slice(0, at) + patch.replace + text.slice(at + patch.find.length));
  }
  for (const file of fixture.delete ?? []) await rm(path.join(root, file));
  for (const write of fixture.write ?? []) {
    const file = path.join(root, write.file);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(
      file,
      write.base64 !== undefined ? Buffer.from(write.base64, 'base64') : (write.text ?? '').repeat(write.repeat ?? 1),
    );
  }
  for (const link of fixture.symlinks ?? []) {
    const file = path.join(root, link.file);
    await mkdir(path.dirname(file), { recursive: true });
    await symlink(link.target, file);
  }
  // A fixture's texts start in line: what it changed is its rule's to report, not TRANS001's.
  await syncTranslations(root);
}
