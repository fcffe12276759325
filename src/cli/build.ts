import path from 'node:path';
import { formatExplanation } from '../build/explain';
import { type BuildResult, build, type HeldFile } from '../build/pipeline';
import { STAGES } from '../build/tasks';
import { progressLine } from './progress';
import { report } from './report';
import { weightTable } from './weight';

export interface BuildCommandOptions {
  root: string;
  outDir: string;
  baseUrl?: string;
  /** false: ignore the build cache. */
  cache?: boolean;
  /** Only the summary line (CI prints no live progress either way). */
  quiet?: boolean;
  /** Print each output made again and the inputs that changed for it. */
  explain?: boolean;
  /** A preview: drafts and scheduled articles built too, marked. */
  drafts?: boolean;
}

export async function runBuild(options: BuildCommandOptions): Promise<number> {
  if (options.baseUrl !== undefined && !/^https?:\/\/[^/\s]+(\/[^\s]*)?$/.test(options.baseUrl)) {
    console.error(`✗ --base-url must be an absolute http(s) URL, not "${options.baseUrl}"`);
    return 1;
  }
  // Under CI, as with --quiet, only the summary line: logs stay short and comparable.
  const quiet = options.quiet || Boolean(process.env.CI);
  const progress = quiet ? { listener: undefined, done: () => {} } : progressLine();
  const { explain: _explain, quiet: _quiet, ...buildOptions } = options;
  const out = path.relative(options.root, options.outDir) || options.outDir;
  // Ctrl-C (or a TERM) stops the build at its next step, which takes its staged files away and
  // leaves the output as it was; a second Ctrl-C ends the process at once, as by default.
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let result: BuildResult;
  try {
    result = await build({
      ...buildOptions,
      signal: stop.signal,
      ...(progress.listener ? { onProgress: progress.listener } : {}),
    }).finally(progress.done);
  } catch (error) {
    if (!stop.signal.aborted) throw error;
    console.error(`✗ build stopped: ${out} left unchanged`);
    return 130;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  report(options.root, result.diagnostics, 'human');
  if (options.explain)
    console.log(
      result.replayed
        ? 'Nothing was made again: nothing the build reads changed since the last build, whose output is in place.'
        : formatExplanation(result.remade),
    );
  if (!result.ok) {
    console.error(`✗ build failed: ${out} left unchanged`);
    return 1;
  }
  const weighed = result.output ? { ...result.output, sizes: result.output.write.manifest.files } : result.replayed;
  if (!quiet && weighed)
    console.log(await weightTable(options.outDir, weighed.entries, weighed.sizes, weighed.scriptImports));
  // SITE_TIMINGS: the stage line even when quiet (the benchmark reads it).
  if ((!quiet || process.env.SITE_TIMINGS) && !result.replayed) console.log(stageLine(result));
  const { en, pt } = result.pages;
  const seconds = (result.milliseconds / 1000).toFixed(2);
  const written = result.replayed ? 0 : result.output?.write.written;
  const changes = written === undefined ? '' : written === 0 ? ', nothing changed' : `, ${written} files written`;
  console.log(
    `✓ built ${en + pt} pages (en ${en}, pt ${pt}) into ${out}/ in ${seconds} s${changes}${leftOut(result.held)}`,
  );
  return 0;
}

/**
 * Where the time went, in the order the stages start: "images 0.00 s · load 0.46 s · …" (the images
 * stage runs alongside the others).
 */
function stageLine(result: BuildResult): string {
  return `  ${STAGES.flatMap((stage) => {
    const ms = result.stages[stage];
    return ms === undefined ? [] : [`${stage} ${(ms / 1000).toFixed(2)} s`];
  }).join(' · ')}`;
}

/** "; 2 drafts and 1 scheduled article left out", or nothing when every edition was built. */
function leftOut(held: readonly HeldFile[]): string {
  const drafts = held.filter((h) => h.state.kind === 'draft').length;
  const scheduled = held.length - drafts;
  const parts = [
    drafts && `${drafts} draft${drafts === 1 ? '' : 's'}`,
    scheduled && `${scheduled} scheduled article${scheduled === 1 ? '' : 's'}`,
  ].filter(Boolean);
  return parts.length > 0 ? `; ${parts.join(' and ')} left out` : '';
}
