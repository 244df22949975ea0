/**
 * Lets the event loop run during a long loop of synchronous steps: `pause()` yields (setImmediate)
 * once a slice has run for `sliceMs`, so timers, messages and the editor's requests are served.
 */
export class TimeSlice {
  private started = performance.now();

  constructor(private readonly sliceMs = 12) {}

  async pause(): Promise<void> {
    if (performance.now() - this.started < this.sliceMs) return;
    await new Promise<void>((r) => setImmediate(r));
    this.started = performance.now();
  }
}
