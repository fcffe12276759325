/** How politely the check asks: how many requests at once, and how far apart. */
export interface Politeness {
  /** Requests in flight at once to one host. */
  perHost: number;
  /** Requests in flight at once in all. */
  total: number;
  /** The least time between the starts of two requests to one host, in ms. */
  pauseMs: number;
}

interface HostState {
  active: number;
  /** No request to the host starts before this time (ms since the epoch): the pause, a Retry-After, a backoff. */
  next: number;
  /** The requests waiting for their turn, first come first served. */
  waiting: (() => void)[];
}

/**
 * Lets each request start when its host and the whole check have room for it and the host's pause
 * has passed. A request waiting for its host takes no place from the others: requests to another
 * host go ahead meanwhile. Hosts are told apart by name ("docs.docker.com"), whatever the port.
 *
 * Written here rather than taken from a queue library: what it needs is a per-host limit, a pause
 * between starts and a hold a Retry-After can push back, over one total limit; p-limit and p-queue
 * have one queue each, and bottleneck, which has groups, has not been released since 2019.
 */
export class HostScheduler {
  readonly #limits: Politeness;
  readonly #hosts = new Map<string, HostState>();
  #active = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(limits: Politeness) {
    this.#limits = limits;
  }

  /** Runs `work` once it may start for `host`, and frees its place when it ends. */
  async run<T>(host: string, work: () => Promise<T>): Promise<T> {
    const state = this.#host(host);
    await new Promise<void>((start) => {
      state.waiting.push(start);
      this.#pump();
    });
    try {
      return await work();
    } finally {
      state.active--;
      this.#active--;
      this.#pump();
    }
  }

  /** Starts no request to `host` before `until` (ms since the epoch): a Retry-After, a backoff. */
  holdUntil(host: string, until: number): void {
    const state = this.#host(host);
    state.next = Math.max(state.next, until);
  }

  #host(host: string): HostState {
    let state = this.#hosts.get(host);
    if (!state) {
      state = { active: 0, next: 0, waiting: [] };
      this.#hosts.set(host, state);
    }
    return state;
  }

  /** Starts every request that may start now, and wakes up when the next held one may. */
  #pump(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const { perHost, total, pauseMs } = this.#limits;
    const now = Date.now();
    let soonest = Number.POSITIVE_INFINITY;
    for (const state of this.#hosts.values()) {
      while (state.waiting.length > 0 && state.active < perHost && this.#active < total) {
        if (state.next > now) {
          soonest = Math.min(soonest, state.next);
          break;
        }
        state.active++;
        this.#active++;
        state.next = now + pauseMs;
        state.waiting.shift()?.();
      }
    }
    if (soonest !== Number.POSITIVE_INFINITY && this.#active < total)
      this.#timer = setTimeout(() => this.#pump(), soonest - now);
  }
}
