import { mkdir, mkdtemp, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codeGraph, TOOL_ROOT } from '../../../src/build/fingerprint';
import { contentFiles, type Footprint, SHAPING_ENVIRONMENT, sameFootprint } from '../../../src/build/footprint';
import { listFiles } from '../../../src/load/files';

/** Variables the build's code reads that shape nothing it makes, and why. */
const NOT_SHAPING: Record<string, string> = {
  SITE_CHECK_SHORTCUTS: 'checks each shortcut against its data; the build makes the same',
  SITE_VERBOSE: 'how much of a failure is told',
  DEBUG: 'how much of a failure is told',
  GIT_DIR: 'whether git is asked the day a file changed: the days are asked again by every replay (replay.ts)',
};

describe("the build's footprint", () => {
  it('names every environment variable the build reads that shapes what it makes', async () => {
    const graph = await codeGraph();
    const read = new Set<string>();
    for (const file of new Set(Object.values(graph.reach).flat())) {
      if (file.includes('node_modules') || !/\.(ts|tsx|mjs|js)$/.test(file)) continue;
      const text = await readFile(path.join(TOOL_ROOT, file), 'utf8');
      for (const match of text.matchAll(/process\.env(?:\.([A-Z_][A-Z0-9_]*)|\[['"]([A-Z_][A-Z0-9_]*)['"]\])/g))
        read.add(match[1] ?? match[2] ?? '');
    }
    expect(read.size).toBeGreaterThan(0);
    const unnamed = [...read].filter(
      (name) => !(SHAPING_ENVIRONMENT as readonly string[]).includes(name) && !NOT_SHAPING[name],
    );
    expect(unnamed).toEqual([]);
    // React, read in its own package, picks its build by NODE_ENV.
    expect(SHAPING_ENVIRONMENT).toContain('NODE_ENV');
  });

  describe('the content folder', () => {
    let root: string;
    const later = () => Date.now() + 10_000;
    beforeEach(async () => {
      root = await mkdtemp(path.join(os.tmpdir(), 'site-footprint-'));
      await mkdir(path.join(root, 'content/blog/tech'), { recursive: true });
      await writeFile(path.join(root, 'content/blog/tech/Git.en.md'), 'a');
      await writeFile(path.join(root, 'content/blog/tech/Git.pt.md'), 'b');
      await writeFile(path.join(root, 'content/strings.json'), '{}');
    });
    afterEach(() => rm(root, { recursive: true, force: true }));

    it('has no digest while a file was written in the last two seconds: its signature cannot be trusted yet', async () => {
      const now = await contentFiles(root);
      expect(now.digest).toBeUndefined();
      expect(now.signatures.get(path.join(root, 'content/strings.json'))).toBeUndefined();
      const settled = await contentFiles(root, later());
      expect(settled.digest).toEqual(expect.any(String));
      expect(settled.signatures.get(path.join(root, 'content/strings.json'))).toEqual(expect.any(String));
    });

    it('changes with any file written (even with the same bytes), added, renamed or removed, and with a folder added', async () => {
      const digest = async () => (await contentFiles(root, later())).digest;
      const seen = new Set([await digest()]);
      const changes = [
        () => writeFile(path.join(root, 'content/strings.json'), '{}'),
        () => writeFile(path.join(root, 'content/blog/tech/Notes.en.md'), 'c'),
        () =>
          rename(path.join(root, 'content/blog/tech/Notes.en.md'), path.join(root, 'content/blog/tech/Later.en.md')),
        () => rm(path.join(root, 'content/blog/tech/Git.pt.md')),
        () => mkdir(path.join(root, 'content/blog/music')),
      ];
      for (const change of changes) {
        await change();
        const now = await digest();
        expect(seen.has(now), String(change)).toBe(false);
        seen.add(now);
      }
      // Unchanged, the same.
      expect(await digest()).toBe([...seen].at(-1));
    });

    it('follows a link to a file, and has no digest with a link that leads nowhere', async () => {
      const outside = path.join(root, 'outside.md');
      await writeFile(outside, 'x');
      await symlink(outside, path.join(root, 'content/blog/tech/Linked.en.md'));
      const linked = await contentFiles(root, later());
      expect(linked.digest).toEqual(expect.any(String));
      await writeFile(outside, 'y');
      expect((await contentFiles(root, later())).digest).not.toBe(linked.digest);
      await rm(outside);
      expect((await contentFiles(root, later())).digest).toBeUndefined();
    });

    it('lists the files the loader lists, in its order', async () => {
      const { entries } = await contentFiles(root, later());
      const files = entries.filter((e) => e.kind === 'file').map((e) => e.absolute);
      expect(files).toEqual(await listFiles(path.join(root, 'content')));
    });
  });

  it('is the same footprint whatever the order of its keys, and another when any field differs', () => {
    const footprint: Footprint = {
      code: { load: 'a', markdown: 'b', images: 'c', pipeline: 'd', assets: 'e', cards: 'f' },
      styles: 's',
      node: 'v20',
      publication: { drafts: false, today: '2026-11-28' },
      year: 2026,
      outDir: '/site/dist',
      baseUrl: undefined,
      env: { NODE_ENV: 'production', SITE_CARDS: undefined },
      content: 'c',
    };
    const reverse = <T extends object>(value: T): T => Object.fromEntries(Object.entries(value).reverse()) as T;
    const reordered = { ...reverse(footprint), code: reverse(footprint.code), env: reverse(footprint.env) };
    expect(Object.keys(reordered)[0]).toBe('content');
    expect(sameFootprint(footprint, reordered)).toBe(true);
    expect(sameFootprint(footprint, { ...footprint, code: { ...footprint.code, pipeline: 'x' } })).toBe(false);
    expect(sameFootprint(footprint, { ...footprint, publication: { drafts: false, today: '2026-11-29' } })).toBe(false);
    expect(sameFootprint(footprint, { ...footprint, env: { ...footprint.env, SITE_CARDS: 'off' } })).toBe(false);
    expect(sameFootprint(footprint, { ...footprint, baseUrl: 'https://example.org' })).toBe(false);
  });
});
