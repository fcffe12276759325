import { cp, mkdtemp, readdir, readFile, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT, writeSmallSite } from './content';

/**
 * A private copy of the whole tool (bin, src, templates, server, config; node_modules linked) with the
 * real site-wide content and the fixed stand-in articles of tests/fixtures/clean, or with the small
 * site of tests/fixtures/small (`content: 'small'`): tests that edit templates or pipeline code do
 * it here, never in the project itself. The copy is its own site root.
 */
export async function copyOfTool(
  options: { content?: 'clean' | 'small' } = {},
): Promise<{ root: string; cleanup: () => Promise<void> }> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'site-tool-copy-'));
  for (const part of ['bin', 'src', 'templates', 'server', 'tsconfig.json', 'package.json', 'package-lock.json']) {
    await cp(path.join(PROJECT_ROOT, part), path.join(root, part), { recursive: true });
  }
  await symlink(path.join(PROJECT_ROOT, 'node_modules'), path.join(root, 'node_modules'));
  if (options.content === 'small') {
    await writeSmallSite(root);
  } else {
    await cp(path.join(PROJECT_ROOT, 'content'), path.join(root, 'content'), {
      recursive: true,
      filter: (src) => !src.startsWith(path.join(PROJECT_ROOT, 'content', 'blog')),
    });
    await cp(path.join(PROJECT_ROOT, 'tests/fixtures/clean/content/blog'), path.join(root, 'content', 'blog'), {
      recursive: true,
    });
  }
  return { root, cleanup: () => rm(root, { recursive: true, force: true }) };
}

/** Every file under a folder with its bytes, by relative path: to compare two builds. */
export async function filesUnder(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const absolute = path.join(entry.parentPath, entry.name);
    files.set(path.relative(dir, absolute), await readFile(absolute));
  }
  return files;
}

/** The files that differ between two folders (missing from one, or with other bytes). */
export function differences(a: Map<string, Buffer>, b: Map<string, Buffer>): string[] {
  const names = new Set([...a.keys(), ...b.keys()]);
  return [...names].filter((name) => !a.get(name)?.equals(b.get(name) ?? Buffer.alloc(0)) || !b.has(name)).sort();
}
