import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { HtmlValidate } from 'html-validate';
import { describe, expect, inject, it } from 'vitest';

describe('the HTML of every page', () => {
  it('is valid, with the accessibility rules of html-validate', async () => {
    const distDir = inject('distDir');
    const validator = new HtmlValidate({
      extends: ['html-validate:standard', 'html-validate:a11y'],
      rules: {
        // The spec asks for an autoplaying banner video; it is muted, looping and decorative.
        'no-autoplay': 'off',
      },
    });
    const pages = (await readdir(distDir, { recursive: true })).filter((f) => f.endsWith('.html'));
    expect(pages.length).toBeGreaterThan(70);
    const problems: string[] = [];
    for (const file of pages) {
      const report = await validator.validateFile(path.join(distDir, file));
      for (const result of report.results) for (const m of result.messages) problems.push(`${file}:${m.line}:${m.column} ${m.ruleId} ${m.message}`);
    }
    expect(problems).toEqual([]);
  });
});
