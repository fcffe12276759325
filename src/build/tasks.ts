/** The stages of a build, in the order they run. */
export const STAGES = [
  'images',
  'load',
  'markdown',
  'model',
  'assets',
  'check',
  'render',
  'search',
  'publish',
  'write',
] as const;
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
  /** Whether the build's signal is still heard (see `finishing`). */
  private heard = true;

  constructor(
    private readonly listener: ProgressListener | undefined,
    private readonly signal: AbortSignal | undefined,
  ) {}

  /** From here on the build runs to its end: it has put output in place, which the rest completes. */
  finishing(): void {
    this.heard = false;
  }

  async run<T>(stage: Stage, work: (progress: (done: number, total: number) => void) => T | Promise<T>): Promise<T> {
    this.stopIfCancelled();
    const since = performance.now();
    this.listener?.({ stage });
    try {
      return await work((done, total) => {
        this.stopIfCancelled();
        this.listener?.({ stage, done, total });
      });
    } finally {
      this.timings[stage] = (this.timings[stage] ?? 0) + performance.now() - since;
    }
  }

  /**
   * Runs a stage alongside those that follow it (the encoder's process, see `encodeAlongside`):
   * timed from its start to its end, but not reported, since the listener shows the stage in front.
   */
  alongside<T>(stage: Stage, work: () => Promise<T>): Promise<T> {
    this.stopIfCancelled();
    const since = performance.now();
    return work().finally(() => {
      this.timings[stage] = (this.timings[stage] ?? 0) + performance.now() - since;
    });
  }

  private stopIfCancelled(): void {
    if (this.heard) this.signal?.throwIfAborted();
  }

  get milliseconds(): number {
    return performance.now() - this.started;
  }
}
