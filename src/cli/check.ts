import { loadSite } from '../build/pipeline';
import type { ExternalSummary } from '../check/external/check';
import { loadSkipRules, SKIP_FILE } from '../check/external/skip';
import { hasErrors } from '../diagnostics/diagnostic';
import { summary } from '../diagnostics/printer';
import type { HeldEdition } from '../model/publication';
import { liveLine } from './progress';
import { type ReportFormat, report } from './report';

/** `--external`: how long a good answer is trusted, and how long a request may take, in ms. */
export interface ExternalFlags {
  maxAgeMs: number;
  timeoutMs: number;
}

/** Exit 1 on an error, or on a warning under --strict; 0 otherwise. */
export async function runCheck(options: {
  root: string;
  format: ReportFormat;
  strict: boolean;
  drafts?: boolean;
  external?: ExternalFlags;
}): Promise<number> {
  const started = performance.now();
  const { site, modelled, diagnostics } = await loadSite(options.root, { drafts: options.drafts ?? false });
  // The skip file is content too: a mistake in it is reported by every check, not only the one that reads it.
  const skip = await loadSkipRules(options.root, diagnostics);
  let external: ExternalSummary | undefined;
  if (options.external && modelled) {
    const line = options.format === 'human' ? liveLine() : undefined;
    // Loaded for --external alone: it reads the links of the JSON content's markdown with the
    // markdown toolchain (highlight.js's languages included, hundreds of modules), which a plain
    // check, finding every body in the build cache, never loads.
    const { checkExternalLinks, EXTERNAL_DEFAULTS } = await import('../check/external/check');
    try {
      const checked = await checkExternalLinks(modelled, {
        ...EXTERNAL_DEFAULTS,
        ...options.external,
        root: options.root,
        skip,
        ...(line && {
          progress: (done: number, total: number) => line.show(`checking external links ${done}/${total}`),
        }),
      });
      diagnostics.push(...checked.diagnostics);
      external = checked.summary;
    } finally {
      line?.done();
    }
  }
  report(options.root, diagnostics, options.format);
  const failed = hasErrors(diagnostics) || (options.strict && diagnostics.length > 0);
  if (options.format === 'human' && options.external)
    console.log(
      external
        ? externalLine(external)
        : 'External links not checked: the content could not be read as a site (see the errors above).',
    );
  if (options.format === 'human' && site && !failed) {
    const editions = site.routes.reduce((n, r) => n + r.meta.availableLangs.length, 0);
    console.log(
      `✓ ${site.routes.length} routes, ${editions} editions checked in ${Math.round(performance.now() - started)} ms (${summary(diagnostics)})`,
    );
    if (site.held.length > 0) console.log(waitingList(site.held));
  }
  return failed ? 1 : 0;
}

/** "External links: 42 links to 35 addresses; 20 asked (23 requests), 12 answered from the cache, 3 skipped." */
export function externalLine(s: ExternalSummary): string {
  const parts = [
    `${s.asked} asked (${s.requests} request${s.requests === 1 ? '' : 's'})`,
    `${s.cached} answered from the cache`,
  ];
  if (s.skipped > 0) parts.push(`${s.skipped} skipped (${SKIP_FILE})`);
  const notes = [
    ...(s.asked > 1 && s.silent === s.asked
      ? ['None of them answered at all: if this machine is offline, check again once it is online.']
      : []),
    ...(s.cacheFailure
      ? [`The answers could not be kept for the next check (${s.cacheFailure.message}): it will ask them again.`]
      : []),
  ];
  return [
    `External links: ${s.links} link${s.links === 1 ? '' : 's'} to ${s.addresses} address${s.addresses === 1 ? '' : 'es'}; ${parts.join(', ')}.`,
    ...notes,
  ].join('\n');
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
