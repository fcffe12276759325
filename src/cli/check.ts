import { loadSite } from '../build/pipeline';
import { hasErrors } from '../diagnostics/diagnostic';
import { summary } from '../diagnostics/printer';
import { type ReportFormat, report } from './report';

/** Exit 1 on an error, or on a warning under --strict; 0 otherwise. */
export async function runCheck(options: { root: string; format: ReportFormat; strict: boolean }): Promise<number> {
  const started = performance.now();
  const { site, diagnostics } = await loadSite(options.root);
  report(options.root, diagnostics, options.format);
  const failed = hasErrors(diagnostics) || (options.strict && diagnostics.length > 0);
  if (options.format === 'human' && site && !failed) {
    const editions = site.routes.reduce((n, r) => n + r.meta.availableLangs.length, 0);
    console.log(`✓ ${site.routes.length} routes, ${editions} editions checked in ${Math.round(performance.now() - started)} ms (${summary(diagnostics)})`);
  }
  return failed ? 1 : 0;
}
