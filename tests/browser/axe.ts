import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { BrowserContext, Page } from 'playwright-core';

const require = createRequire(import.meta.url);

/**
 * axe-core's script, added to every document a browser context opens, before the page's own
 * scripts. Injecting it again into each page after it loads (as @axe-core/playwright does, then
 * finishing each run in a blank page of its own) took four fifths of a page's check: 650 ms a
 * page against 160 here, in the same Chromium. The pages hold no frames, so one run in the
 * top document sees all of a page.
 */
export async function addAxe(context: BrowserContext): Promise<void> {
  await context.addInitScript({ content: await readFile(require.resolve('axe-core/axe.min.js'), 'utf8') });
}

/**
 * The violations of axe-core's default rules in the page as it stands, one line each: the rule,
 * its impact and up to three of the elements it names. Only violations are collected in full:
 * the passes would be serialized node by node and read by nobody.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  const violations = await page.evaluate(async () => {
    const { axe } = window as unknown as {
      axe: {
        run: (
          context: Document,
          options: object,
        ) => Promise<{ violations: { id: string; impact?: string | null; nodes: { target: unknown[] }[] }[] }>;
      };
    };
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      targets: v.nodes.slice(0, 3).map((n) => n.target.map(String).join(' ')),
    }));
  });
  return violations.map((v) => `${v.id} (${v.impact}) ${v.targets.join(', ')}`);
}
