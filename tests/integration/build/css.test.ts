import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { PAGE_SHEETS } from '../../../templates/styles/sheets';
import { PROJECT_ROOT } from '../../support/content';

/** Class names a stylesheet has rules for. */
function styledClasses(css: string): Set<string> {
  return new Set([...css.replace(/\/\*[\s\S]*?\*\//g, '').matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)].map((m) => m[1] ?? ''));
}

describe('the CSS of every built page', () => {
  it('styles every class the page uses that any sheet styles: no page kind misses a sheet', async () => {
    const distDir = inject('distDir');
    const sheets = [...new Set(Object.values(PAGE_SHEETS).flat())];
    const styled = new Set<string>();
    for (const sheet of sheets)
      for (const name of styledClasses(await readFile(path.join(PROJECT_ROOT, 'templates/styles', sheet), 'utf8')))
        styled.add(name);
    const files = (await readdir(distDir, { recursive: true })).filter((f) => f.endsWith('.html'));
    let checked = 0;
    const problems: string[] = [];
    for (const file of files) {
      const html = await readFile(path.join(distDir, file), 'utf8');
      if (!html.includes('class="page page--')) continue;
      const inline = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1] ?? '');
      const linked = await Promise.all(
        [...html.matchAll(/<link rel="stylesheet" href="\/([^"]+)"/g)].map((m) =>
          readFile(path.join(distDir, m[1] ?? ''), 'utf8'),
        ),
      );
      const own = styledClasses([...inline, ...linked].join('\n'));
      const used = new Set([...html.matchAll(/\sclass="([^"]*)"/g)].flatMap((m) => (m[1] ?? '').split(/\s+/)));
      for (const name of used) if (styled.has(name) && !own.has(name)) problems.push(`${file}: .${name}`);
      checked++;
    }
    expect(checked).toBeGreaterThan(70);
    expect(problems).toEqual([]);
  });
});
