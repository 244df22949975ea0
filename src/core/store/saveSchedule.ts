/**
 * When the durable database is next written. Each save exports the whole database and syncs it to
 * disk, synchronously, on the caller's thread: a change the user made (a subscription, feedback) is
 * saved soon after it; a change that only logs what was shown (one per cursor move) waits for a
 * quiet moment, so that moving around the code never pays for a save.
 */
export class SaveSchedule {
  private timer: NodeJS.Timeout | undefined;
  /** The armed timer waits for quiet (it is pushed back by each quiet change). */
  private waitingForQuiet = false;
  /** When the oldest unsaved quiet change was made. */
  private quietSince: number | undefined;

  constructor(
    private readonly save: () => void,
    private readonly delays: {
      /** After a change the user made. */
      soon: number;
      /** After the last of a run of quiet changes. */
      quiet: number;
      /** At most after the first unsaved quiet change, however busy it stays. */
      quietAtMost: number;
    },
    private readonly clock: () => number = Date.now,
  ) {}

  /** A change to save shortly. */
  soon(): void {
    if (this.timer && !this.waitingForQuiet) return;
    this.arm(this.delays.soon, false);
  }

  /** A change that can wait until changes stop for a while. */
  whenQuiet(): void {
    // A save due soon takes this change with it.
    if (this.timer && !this.waitingForQuiet) return;
    const now = this.clock();
    this.quietSince ??= now;
    const latest = this.quietSince + this.delays.quietAtMost - now;
    this.arm(Math.max(0, Math.min(this.delays.quiet, latest)), true);
  }

  /** Everything is being saved now: nothing stays due. */
  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.waitingForQuiet = false;
    this.quietSince = undefined;
  }

  private arm(delay: number, quiet: boolean): void {
    clearTimeout(this.timer);
    this.waitingForQuiet = quiet;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.waitingForQuiet = false;
      this.save();
    }, delay);
    this.timer.unref?.();
  }
}
