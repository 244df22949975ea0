// No `vscode` import: the tracker's timing is unit-tested in Node with a scheduler the test drives.

/** Timers, injectable so tests drive debounce and cancellation without waiting on the clock. */
export interface Scheduler {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realTimers: Scheduler = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

/**
 * Runs only the latest of a burst of requests, after a quiet time, and cancels the work still
 * running for an older one: each new request clears the pending timer and aborts the running work's
 * signal, so stale results never reach the user.
 */
export class Debouncer {
  private timer: unknown;
  private running: AbortController | undefined;

  constructor(private readonly timers: Scheduler = realTimers) {}

  schedule(delayMs: number, work: (signal: AbortSignal) => Promise<void>): void {
    this.timers.clearTimeout(this.timer);
    this.running?.abort();
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      const controller = new AbortController();
      this.running?.abort();
      this.running = controller;
      void work(controller.signal).finally(() => {
        if (this.running === controller) this.running = undefined;
      });
    }, delayMs);
  }

  dispose(): void {
    this.timers.clearTimeout(this.timer);
    this.running?.abort();
  }
}
