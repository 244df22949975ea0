const MB = 1048576;

/** Peak resident memory of this process, overall and per named phase, sampled every 50 ms and at each phase change. */
export class RssSampler {
  readonly baselineMb = process.memoryUsage().rss / MB;
  peakMb = this.baselineMb;
  readonly phasePeakMb: Record<string, number> = {};
  private current: string;
  private readonly timer: NodeJS.Timeout;

  constructor(first: string) {
    this.current = first;
    this.timer = setInterval(() => this.sample(), 50);
    this.timer.unref();
  }

  get phase(): string {
    return this.current;
  }

  enter(phase: string): void {
    this.sample();
    this.current = phase;
  }

  sample(): void {
    const rss = process.memoryUsage().rss / MB;
    this.peakMb = Math.max(this.peakMb, rss);
    this.phasePeakMb[this.current] = Math.round(Math.max(this.phasePeakMb[this.current] ?? 0, rss) * 100) / 100;
  }

  stop(): void {
    this.sample();
    clearInterval(this.timer);
  }
}
