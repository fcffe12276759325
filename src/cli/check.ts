import { loadSite } from '../build/pipeline';
import { hasErrors } from '../diagnostics/diagnostic';
import { summary } from '../diagnostics/printer';
import type { HeldEdition } from '../model/publication';
import { type ReportFormat, report } from './report';

/** Exit 1 on an error, or on a warning under --strict; 0 otherwise. */
export async function runCheck(options: { root: string; format: ReportFormat; strict: boolean; drafts?: boolean }): Promise<number> {
  const started = performance.now();
  const { site, diagnostics } = await loadSite(options.root, { drafts: options.drafts ?? false });
  report(options.root, diagnostics, options.format);
  const failed = hasErrors(diagnostics) || (options.strict && diagnostics.length > 0);
  if (options.format === 'human' && site && !failed) {
    const editions = site.routes.reduce((n, r) => n + r.meta.availableLangs.length, 0);
    console.log(`✓ ${site.routes.length} routes, ${editions} editions checked in ${Math.round(performance.now() - started)} ms (${summary(diagnostics)})`);
    if (site.held.length > 0) console.log(waitingList(site.held));
  }
  return failed ? 1 : 0;
}

/** What the published site does not have yet: the scheduled editions by day, then the drafts. */
export function waitingList(held: readonly HeldEdition[]): string {
  const lines: string[] = [];
  const scheduled = held
    .flatMap((h) => (h.state.kind === 'scheduled' ? [{ date: h.state.date, file: h.source.file }] : []))
    .sort((a, b) => a.date.localeCompare(b.date) || a.file.localeCompare(b.file));
  const drafts = held.flatMap((h) => (h.state.kind === 'draft' ? [h.source.file] : [])).sort();
  if (scheduled.length > 0) {
    lines.push(`Scheduled (published by the first build on or after the day, UTC): ${scheduled.length}`);
    for (const { date, file } of scheduled) lines.push(`  ${date}  ${file}`);
  }
  if (drafts.length > 0) {
    lines.push(`Drafts (left out until "draft: true" is removed; site dev and --drafts show them): ${drafts.length}`);
    for (const file of drafts) lines.push(`  ${file}`);
  }
  return lines.join('\n');
}
