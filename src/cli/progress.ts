import type { BuildProgress, ProgressListener } from '../build/pipeline';

const LABELS: Record<BuildProgress['stage'], string> = {
  load: 'loading content',
  markdown: 'compiling markdown',
  model: 'modelling the site',
  check: 'checking',
  assets: 'bundling the client',
  render: 'rendering pages',
  search: 'indexing for search',
  publish: 'publishing feeds and sitemap',
  images: 'encoding images',
  write: 'writing',
};

/** Waits this long before showing anything: a quick build prints its summary line only. */
const QUIET_FOR_MS = 1000;

/**
 * A one-line live display of the build's stage and its count ("rendering pages 1200/7670") on
 * a terminal. Nothing is drawn for the first second, under CI, or when the output is not a TTY.
 * `done()` clears the line before the summary is printed.
 */
export function progressLine(stream: NodeJS.WriteStream = process.stderr): {
  listener: ProgressListener | undefined;
  done: () => void;
} {
  const line = liveLine(stream);
  if (!line) return { listener: undefined, done: () => {} };
  return {
    listener: (progress) =>
      line.show(
        `${LABELS[progress.stage]}${progress.total !== undefined ? ` ${progress.done ?? 0}/${progress.total}` : ''}`,
      ),
    done: line.done,
  };
}

/**
 * A line of text kept up to date on a terminal ("checking external links 12/40"), under the same
 * rules as the build's: drawn after the first second, at most ten times a second, never under CI
 * or when the output is not a TTY (then undefined). `done()` clears it.
 */
export function liveLine(
  stream: NodeJS.WriteStream = process.stderr,
): { show: (text: string) => void; done: () => void } | undefined {
  if (!stream.isTTY || process.env.CI) return undefined;
  const started = performance.now();
  let latest: string | undefined;
  let shown = false;
  // Redraw at most ten times a second: counts change far faster than anyone can read.
  const timer = setInterval(() => {
    if (latest === undefined || performance.now() - started < QUIET_FOR_MS) return;
    stream.write(`\r\x1b[2K… ${latest}`);
    shown = true;
  }, 100);
  timer.unref();
  return {
    show: (text) => {
      latest = text;
    },
    done: () => {
      clearInterval(timer);
      if (shown) stream.write('\r\x1b[2K');
    },
  };
}
