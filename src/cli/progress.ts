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
export function progressLine(stream: NodeJS.WriteStream = process.stderr): { listener: ProgressListener | undefined; done: () => void } {
  if (!stream.isTTY || process.env.CI) return { listener: undefined, done: () => {} };
  const started = performance.now();
  let latest: BuildProgress | undefined;
  let shown = false;
  const draw = () => {
    if (!latest) return;
    const count = latest.total !== undefined ? ` ${latest.done ?? 0}/${latest.total}` : '';
    stream.write(`\r\x1b[2K… ${LABELS[latest.stage]}${count}`);
    shown = true;
  };
  // Redraw at most ten times a second: counts change far faster than anyone can read.
  const timer = setInterval(() => {
    if (performance.now() - started >= QUIET_FOR_MS) draw();
  }, 100);
  timer.unref();
  return {
    listener: (progress) => {
      latest = progress;
    },
    done: () => {
      clearInterval(timer);
      if (shown) stream.write('\r\x1b[2K');
    },
  };
}
