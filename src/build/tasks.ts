/** The stages of a build, in the order they run. */
export const STAGES = ['load', 'markdown', 'model', 'assets', 'check', 'render', 'search', 'publish', 'images', 'write'] as const;
export type Stage = (typeof STAGES)[number];

/** A stage of the build, reported as it starts; `done`/`total` count its items when it has them. */
export interface BuildProgress {
  stage: Stage;
  done?: number;
  total?: number;
}

export type ProgressListener = (progress: BuildProgress) => void;

/**
 * Runs the named stages of one build in turn: each is timed, reported as it starts and as it
 * ends, and the build's signal is checked before each stage and at each item count a stage
 * reports, so a cancelled build stops between two pieces of work, never inside one.
 */
export class Tasks {
  /** Milliseconds spent in each stage, in the order they ran. */
  readonly timings: Partial<Record<Stage, number>> = {};
  private readonly started = performance.now();

  constructor(
    private readonly listener: ProgressListener | undefined,
    private readonly signal: AbortSignal | undefined,
  ) {}

  async run<T>(stage: Stage, work: (progress: (done: number, total: number) => void) => T | Promise<T>): Promise<T> {
    this.signal?.throwIfAborted();
    const since = performance.now();
    this.listener?.({ stage });
    try {
      return await work((done, total) => {
        this.signal?.throwIfAborted();
        this.listener?.({ stage, done, total });
      });
    } finally {
      this.timings[stage] = (this.timings[stage] ?? 0) + performance.now() - since;
    }
  }

  /**
   * Starts a stage that runs alongside the next ones (its work mostly waits on other threads):
   * timed from now until it settles, reported once as it starts, its item counts not shown (the
   * display follows the stage in front). The caller awaits what it resolves with where the build
   * needs it, and stops it through `stop` before dropping the build.
   */
  alongside<T>(stage: Stage, work: (stop: () => boolean) => Promise<T>): { done: Promise<T>; stop: () => void } {
    this.signal?.throwIfAborted();
    const since = performance.now();
    this.listener?.({ stage });
    let stopped = false;
    const done = work(() => stopped || this.signal?.aborted === true).finally(() => {
      this.timings[stage] = (this.timings[stage] ?? 0) + performance.now() - since;
    });
    // Handled here as well: a failure before the caller awaits it must not end the process.
    done.catch(() => undefined);
    return {
      done,
      stop: () => {
        stopped = true;
      },
    };
  }

  get milliseconds(): number {
    return performance.now() - this.started;
  }
}
