import { hasErrors } from '../diagnostics/diagnostic';
import { summary } from '../diagnostics/printer';
import { loadSite } from '../build/pipeline';
import { report, type ReportFormat } from './report';

export async function runCheck(options: { root: string; format: ReportFormat }): Promise<number> {
  const started = performance.now();
  const { site, diagnostics } = await loadSite(options.root);
  report(options.root, diagnostics, options.format);
  if (options.format === 'human' && site && !hasErrors(diagnostics)) {
    const editions = site.routes.reduce((n, r) => n + r.meta.availableLangs.length, 0);
    console.log(`✓ ${site.routes.length} routes, ${editions} editions checked in ${Math.round(performance.now() - started)} ms (${summary(diagnostics)})`);
  }
  return hasErrors(diagnostics) ? 1 : 0;
}
