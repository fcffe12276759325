import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { HtmlValidate } from 'html-validate';
import { describe, expect, inject, it } from 'vitest';

describe('the HTML of every page', () => {
  it('is valid, with the accessibility rules of html-validate', async () => {
    const distDir = inject('distDir');
    const validator = new HtmlValidate({
      extends: ['html-validate:standard', 'html-validate:a11y'],
      rules: {
        // About Me has an autoplaying banner video (docs/product.md, Pages); it is muted, looping and decorative.
        'no-autoplay': 'off',
        // The About Me cards are toggle buttons in all but the element (role, focus, Enter and
        // Space, aria-pressed): a <button> may hold phrasing content only, not the faces' quotes
        // and paragraphs. They are the only role="button" of the site: checked below.
        'prefer-native-element': ['error', { exclude: ['button'] }],
      },
    });
    const pages = (await readdir(distDir, { recursive: true })).filter((f) => f.endsWith('.html'));
    expect(pages.length).toBeGreaterThan(70);
    const problems: string[] = [];
    for (const file of pages) {
      const report = await validator.validateFile(path.join(distDir, file));
      for (const result of report.results)
        for (const m of result.messages) problems.push(`${file}:${m.line}:${m.column} ${m.ruleId} ${m.message}`);
      const html = await readFile(path.join(distDir, file), 'utf8');
      for (const match of html.matchAll(/<(\w+)[^>]*\srole="button"[^>]*>/g))
        if (!/\sclass="flip\b/.test(match[0]))
          problems.push(`${file}: ${match[0].slice(0, 80)} has role="button": use a <button>`);
    }
    expect(problems).toEqual([]);
  });
});
