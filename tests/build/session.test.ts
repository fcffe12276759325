import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../src/build/pipeline';
import { BuildSession } from '../../src/build/session';
import { copyOfContent } from '../support/content';

type Copy = Awaited<ReturnType<typeof copyOfContent>>;

/**
 * A build session owns everything a build keeps: nothing lives in module state. Two sites build
 * side by side in one process without seeing each other's work, and a session told of one edited
 * file makes again exactly what that file's change reaches.
 */
describe('build sessions', () => {
  let first: Copy;
  let second: Copy;

  beforeAll(async () => {
    [first, second] = await Promise.all([copyOfContent({ articles: 'clean' }), copyOfContent({ articles: 'clean' })]);
    await second.edit('content/blog/books/DangerousLiaisons.en.md', (t) => t.replace(/^title: .*$/m, 'title: Liaisons of the second site'));
  });

  afterAll(async () => {
    await Promise.all([first.cleanup(), second.cleanup()]);
  });

  const page = (copy: Copy, file: string) => readFile(path.join(copy.root, 'dist', file), 'utf8');

  it('builds two different sites at once in one process, each from its own content', async () => {
    const sessions = [new BuildSession({ root: first.root }), new BuildSession({ root: second.root })];
    const results = await Promise.all(sessions.map((session) => buildSite(session, { root: session.root, outDir: path.join(session.root, 'dist'), year: 2026 })));
    expect(results.map((r) => r.ok)).toEqual([true, true]);
    expect(await page(first, 'blog/books.html')).not.toContain('Liaisons of the second site');
    expect(await page(second, 'blog/books.html')).toContain('Liaisons of the second site');
  });

  it('makes again only what an edited body reaches when told of the file, and nothing when told of none', async () => {
    const session = new BuildSession({ root: first.root });
    const options = { root: first.root, outDir: path.join(first.root, 'dist'), year: 2026 };
    expect((await buildSite(session, options)).remade).toEqual([]);

    const file = 'content/blog/books/DangerousLiaisons.en.md';
    await first.edit(file, (t) => t.replace('## The book', 'A sentence added in a session.\n\n## The book'));
    // Not told: the session trusts what it read, as a watcher that reported nothing would.
    expect((await buildSite(session, options)).remade).toEqual([]);

    session.invalidate([path.join(first.root, file)]);
    const edited = await buildSite(session, options);
    expect(edited.remade.map((r) => `${r.output}: ${r.changed.join(', ')}`).sort()).toEqual([
      'blog/books/DangerousLiaisons.html: edition en',
      `${file}: text`,
      'pt/blog/books/DangerousLiaisons.html: edition en',
      'search/en.json: documents',
    ]);
    expect(await page(first, 'blog/books/DangerousLiaisons.html')).toContain('A sentence added in a session.');
  });
});
