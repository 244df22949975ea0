// No `vscode` import: the tracker's timing is unit-tested in Node with a scheduler the test drives.

/** Timers and a clock, injectable so tests drive debounce and cancellation without waiting on time. */
export interface Scheduler {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** Milliseconds on a monotonic clock. */
  now(): number;
}

export const realTimers: Scheduler = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
  now: () => performance.now(),
};

export interface ScheduleOptions {
  /**
   * Run at once when nothing was asked for during the last `delayMs`: a single jump (a click, Go to
   * Line) needs no quiet time, only a burst does.
   */
  leading?: boolean;
  /**
   * While requests keep coming (a held arrow key), run a catch-up pass this often, so the result
   * trails the cursor by at most one pass instead of waiting for the burst to end.
   */
  catchUpMs?: number;
}

interface Run {
  controller: AbortController;
  /** The request this pass serves: a later request makes it stale. */
  seq: number;
  catchUp: boolean;
  /** Its answer is on screen: what is left (enrichment) is worth less than a newer place. */
  shown: boolean;
}

/** A pass: `signal` aborts when it is stale; `shown()` says its answer is on screen and the rest may be dropped. */
export type PassWork = (signal: AbortSignal, shown: () => void) => Promise<void>;

/**
 * Runs passes for the latest of a burst of requests, and never lets stale passes pile up:
 * - a new request aborts the running pass at once (its place is stale), except a catch-up pass
 *   that has not shown its answer yet: that one is the update the result may trail by while a key
 *   is held, and once shown, what is left of it (enrichment) gives way too;
 * - a catch-up that comes due while a pass still runs waits in a single slot: never more than one
 *   pass pending, whatever the number of requests;
 * - the pass after the burst ends aborts whatever still runs and starts at once.
 * A pass always reads the latest place when it starts, so the slot needs no queue of places.
 */
export class Debouncer {
  private quietTimer: unknown;
  private catchUpTimer: unknown;
  private running: Run | undefined;
  private pendingCatchUp = false;
  private work: PassWork | undefined;
  private seq = 0;
  private lastRequestAt = Number.NEGATIVE_INFINITY;
  private disposed = false;

  constructor(private readonly timers: Scheduler = realTimers) {}

  schedule(delayMs: number, work: PassWork, options: ScheduleOptions = {}): void {
    if (this.disposed) return;
    const now = this.timers.now();
    const quiet = now - this.lastRequestAt >= delayMs;
    this.lastRequestAt = now;
    this.seq++;
    this.work = work;
    this.timers.clearTimeout(this.quietTimer);
    if (this.running && (!this.running.catchUp || this.running.shown)) this.running.controller.abort();
    const delay = options.leading && quiet ? 0 : delayMs;
    this.quietTimer = this.timers.setTimeout(() => {
      this.quietTimer = undefined;
      this.settle();
    }, delay);
    if (options.catchUpMs !== undefined && delay > 0 && this.catchUpTimer === undefined) {
      this.catchUpTimer = this.timers.setTimeout(() => {
        this.catchUpTimer = undefined;
        this.catchUp();
      }, options.catchUpMs);
    }
  }

  /** The burst ended: serve the latest request now, unless the running pass already serves it. */
  private settle(): void {
    this.timers.clearTimeout(this.catchUpTimer);
    this.catchUpTimer = undefined;
    this.pendingCatchUp = false;
    if (this.running && this.running.seq === this.seq && !this.running.controller.signal.aborted) return;
    this.running?.controller.abort();
    this.start(false);
  }

  /** Requests keep coming: run for where things are now, or wait in the one slot behind the running pass. */
  private catchUp(): void {
    if (this.running && !this.running.controller.signal.aborted && !this.running.shown) {
      this.pendingCatchUp = true;
      return;
    }
    this.running?.controller.abort();
    this.start(true);
  }

  private start(catchUp: boolean): void {
    const work = this.work;
    if (!work || this.disposed) return;
    const run: Run = { controller: new AbortController(), seq: this.seq, catchUp, shown: false };
    this.running = run;
    const shown = () => {
      if (run.shown || this.running !== run) return;
      run.shown = true;
      // The catch-up waiting behind this pass goes now, in place of its enrichment.
      if (this.pendingCatchUp && this.seq !== run.seq) {
        this.pendingCatchUp = false;
        run.controller.abort();
        this.start(true);
      }
    };
    void work(run.controller.signal, shown)
      .catch(() => undefined)
      .finally(() => {
        if (this.running !== run) return;
        this.running = undefined;
        if (this.pendingCatchUp && this.seq !== run.seq) {
          this.pendingCatchUp = false;
          this.start(true);
        }
      });
  }

  dispose(): void {
    this.disposed = true;
    this.timers.clearTimeout(this.quietTimer);
    this.timers.clearTimeout(this.catchUpTimer);
    this.running?.controller.abort();
  }
}
