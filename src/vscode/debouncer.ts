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
  /** A catch-up: the next move does not abort it before it has shown its answer. */
  catchUp: boolean;
  /** Its answer is on screen: what is left (enrichment) is worth less than a newer place. */
  shown: boolean;
  /** When it started, on the scheduler's clock: the next catch-up is spaced from here. */
  startedAt: number;
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
 * - the pass after the burst ends aborts whatever still runs and starts at once, except a catch-up
 *   that has not shown its answer yet: it follows that one;
 * - while the cursor keeps moving, catch-ups are spaced from start to start, not from one answer to
 *   the next move: the next comes due `catchUpMs` after the last one started, at once when that
 *   pass took longer, so the result trails by one pass, not by a pass plus the interval.
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
  private catchUpMs: number | undefined;
  private disposed = false;

  constructor(private readonly timers: Scheduler = realTimers) {}

  schedule(delayMs: number, work: PassWork, options: ScheduleOptions = {}): void {
    if (this.disposed) return;
    const now = this.timers.now();
    // A pass still working on an earlier place means the cursor is on the move (a key repeat slower
    // than the debounce on a loaded machine), not a lone jump.
    const quiet = now - this.lastRequestAt >= delayMs && !this.inFlight();
    this.lastRequestAt = now;
    this.catchUpMs = options.catchUpMs;
    this.seq++;
    this.work = work;
    this.timers.clearTimeout(this.quietTimer);
    if (this.running && (!this.running.catchUp || this.running.shown)) this.running.controller.abort();
    const delay = options.leading && quiet ? 0 : delayMs;
    this.quietTimer = this.timers.setTimeout(() => {
      this.quietTimer = undefined;
      this.settle();
    }, delay);
    // Armed until an answer reaches the screen: however the moves are spaced, the screen never goes
    // longer than this without one.
    if (options.catchUpMs !== undefined && this.catchUpTimer === undefined) this.armCatchUp(options.catchUpMs);
  }

  private armCatchUp(ms: number): void {
    this.catchUpTimer = this.timers.setTimeout(() => {
      this.catchUpTimer = undefined;
      this.catchUp();
    }, ms);
  }

  /** The running pass, when it has neither been aborted nor shown its answer yet. */
  private inFlight(): Run | undefined {
    const r = this.running;
    return r && !r.controller.signal.aborted && !r.shown ? r : undefined;
  }

  /** The cursor stopped: serve the latest request now, unless the running pass already serves it. */
  private settle(): void {
    const running = this.inFlight();
    if (running?.seq === this.seq) return;
    if (running?.catchUp) {
      // A catch-up about to show where the cursor was: let it, and serve the last place right after.
      this.pendingCatchUp = true;
      return;
    }
    this.pendingCatchUp = false;
    this.running?.controller.abort();
    this.start(false);
  }

  /** Nothing reached the screen for a while: let the pass in flight finish, or run one for where things are now. */
  private catchUp(): void {
    const running = this.inFlight();
    if (running) {
      if (running.catchUp) this.pendingCatchUp = true;
      // Protected from here on: the next move no longer aborts it.
      else running.catchUp = true;
      return;
    }
    this.running?.controller.abort();
    this.start(true);
  }

  private start(catchUp: boolean): void {
    const work = this.work;
    if (!work || this.disposed) return;
    const run: Run = {
      controller: new AbortController(),
      seq: this.seq,
      catchUp,
      shown: false,
      startedAt: this.timers.now(),
    };
    this.running = run;
    const next = () => {
      if (this.pendingCatchUp && this.seq !== run.seq) {
        this.pendingCatchUp = false;
        run.controller.abort();
        this.start(true);
      }
    };
    const shown = () => {
      if (run.shown || this.running !== run) return;
      run.shown = true;
      // The screen has caught up; the pass waiting behind this one goes now, in place of its enrichment.
      this.timers.clearTimeout(this.catchUpTimer);
      this.catchUpTimer = undefined;
      // The cursor moved on while this pass ran (a held key): the next catch-up is due one interval
      // after this one started, not one interval after the next key.
      if (this.seq !== run.seq && this.catchUpMs !== undefined && !this.pendingCatchUp)
        this.armCatchUp(Math.max(0, this.catchUpMs - (this.timers.now() - run.startedAt)));
      next();
    };
    void work(run.controller.signal, shown)
      .catch(() => undefined)
      .finally(() => {
        if (this.running !== run) return;
        this.running = undefined;
        if (!run.controller.signal.aborted && run.seq === this.seq) {
          // It served the latest place, shown or not (nothing to show): no catch-up is due.
          this.timers.clearTimeout(this.catchUpTimer);
          this.catchUpTimer = undefined;
        }
        next();
      });
  }

  dispose(): void {
    this.disposed = true;
    this.timers.clearTimeout(this.quietTimer);
    this.timers.clearTimeout(this.catchUpTimer);
    this.running?.controller.abort();
  }
}
