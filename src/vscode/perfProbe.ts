import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector';
import { join } from 'node:path';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

/** Blocks of the extension host's event loop longer than this are recorded one by one. */
const BLOCK_MS = 50;
const TICK_MS = 10;
const MAX_BLOCKS = 500;

export interface PerfBlock {
  /** Epoch ms when the block ended (the late tick ran). */
  at: number;
  ms: number;
  /** What was going on: phases running or touched since the tick before. */
  phases: string[];
}

export interface PerfSnapshot {
  segment: string;
  /** Event-loop delay percentiles (ms) over the segment. */
  delay: { p50: number; p90: number; p99: number; max: number; mean: number; count: number };
  blocks: PerfBlock[];
  /** Milliseconds spent in each phase's passes over the segment, and how many ran. */
  phaseMs: Record<string, { count: number; ms: number }>;
  /** Epoch ms of the latest run of each phase: lines a pass up with what the page showed. */
  last: Record<string, { start: number; end?: number }>;
  /** Epoch ms of the first time each step happened (the view resolved, the page ready, the first items). */
  firsts: Record<string, number>;
  activationMs: number;
  memory: { rssMb: number; heapUsedMb: number; externalMb: number; rssAtActivationMb: number };
}

const mb = (n: number) => Math.round((n / (1024 * 1024)) * 10) / 10;

/**
 * Measures the extension host for the editor benchmark (enabled by PC_PERF=1 in its environment):
 * an event-loop delay histogram, every block over 50 ms labelled with what was running, the time
 * spent in each phase, activation time and memory. Off, it costs one branch per phase.
 */
export class PerfProbe {
  private histogram: IntervalHistogram;
  private blocks: PerfBlock[] = [];
  private readonly running = new Map<string, number>();
  private touched = new Set<string>();
  private phaseMs = new Map<string, { count: number; ms: number }>();
  private readonly last = new Map<string, { start: number; end?: number }>();
  private readonly firsts = new Map<string, number>();
  private segment = 'start';
  private tick: NodeJS.Timeout;
  private activationMs = 0;
  private readonly rssAtActivation = process.memoryUsage().rss;
  private readonly profiler: SegmentProfiler | undefined;

  private constructor(
    private readonly ambient: () => string[],
    profileDir?: string,
  ) {
    this.profiler = profileDir ? new SegmentProfiler(profileDir) : undefined;
    this.profiler?.start();
    this.histogram = monitorEventLoopDelay({ resolution: TICK_MS });
    this.histogram.enable();
    let expected = performance.now() + TICK_MS;
    this.tick = setInterval(() => {
      const now = performance.now();
      const late = now - expected;
      expected = now + TICK_MS;
      if (late > BLOCK_MS && this.blocks.length < MAX_BLOCKS) {
        const phases = new Set([...this.running.keys(), ...this.touched, ...this.ambient()]);
        this.blocks.push({ at: Date.now(), ms: Math.round(late), phases: [...phases].sort() });
      }
      this.touched = new Set();
    }, TICK_MS);
    this.tick.unref();
  }

  /**
   * A probe when PC_PERF=1, else undefined. `ambient` names the background work going on now.
   * With PC_PERF_PROFILE=DIR it also writes a CPU profile of the host per segment into DIR.
   */
  static fromEnv(ambient: () => string[]): PerfProbe | undefined {
    return process.env.PC_PERF === '1' ? new PerfProbe(ambient, process.env.PC_PERF_PROFILE || undefined) : undefined;
  }

  activated(ms: number): void {
    this.activationMs = ms;
    this.mark('activated');
  }

  /** Stamps the first time `step` happens; later ones are ignored. */
  mark(step: string): void {
    if (!this.firsts.has(step)) this.firsts.set(step, Date.now());
  }

  /** Marks `label` as running until the returned function is called. */
  begin(label: string): () => void {
    const t0 = performance.now();
    const startedAt = Date.now();
    this.mark(label);
    // The start is known at once, so a pass still running (enriching) lines up with the page too.
    this.last.set(label, { start: startedAt });
    this.running.set(label, (this.running.get(label) ?? 0) + 1);
    return () => {
      const n = (this.running.get(label) ?? 1) - 1;
      if (n > 0) this.running.set(label, n);
      else this.running.delete(label);
      this.touched.add(label);
      const s = this.phaseMs.get(label) ?? { count: 0, ms: 0 };
      s.count++;
      s.ms += performance.now() - t0;
      this.phaseMs.set(label, s);
      if (this.last.get(label)?.start === startedAt) this.last.set(label, { start: startedAt, end: Date.now() });
    };
  }

  /** What was measured since the last snapshot taken with `next`; with `next`, starts a new segment. */
  snapshot(next?: string): PerfSnapshot {
    const h = this.histogram;
    const ms = (ns: number) => Math.round(ns / 1e4) / 100;
    const mem = process.memoryUsage();
    const out: PerfSnapshot = {
      segment: this.segment,
      delay: {
        p50: ms(h.percentile(50)),
        p90: ms(h.percentile(90)),
        p99: ms(h.percentile(99)),
        max: ms(h.max),
        mean: ms(h.mean),
        count: h.count,
      },
      blocks: this.blocks,
      phaseMs: Object.fromEntries(
        [...this.phaseMs].map(([k, v]) => [k, { count: v.count, ms: Math.round(v.ms * 10) / 10 }]),
      ),
      last: Object.fromEntries(this.last),
      firsts: Object.fromEntries(this.firsts),
      activationMs: Math.round(this.activationMs * 10) / 10,
      memory: {
        rssMb: mb(mem.rss),
        heapUsedMb: mb(mem.heapUsed),
        externalMb: mb(mem.external),
        rssAtActivationMb: mb(this.rssAtActivation),
      },
    };
    if (next) {
      this.profiler?.cut(this.segment);
      this.segment = next;
      this.blocks = [];
      this.phaseMs = new Map();
      h.reset();
    }
    return out;
  }

  dispose(): void {
    clearInterval(this.tick);
    this.histogram.disable();
    this.profiler?.cut(this.segment, false);
  }
}

/**
 * The host's own CPU profile (the in-process inspector, sampled on its own thread), one file per
 * segment: where the thread's time went during a cold open, the moves, a rebuild. Benchmark only.
 */
class SegmentProfiler {
  private readonly session = new Session();
  private chain: Promise<unknown> = Promise.resolve();

  constructor(private readonly dir: string) {
    this.session.connect();
  }

  private post(method: string, params?: object): Promise<unknown> {
    return new Promise((resolve, reject) =>
      this.session.post(method, params, (err, result) => (err ? reject(err) : resolve(result))),
    );
  }

  start(): void {
    this.chain = this.chain
      .then(() => this.post('Profiler.enable'))
      .then(() => this.post('Profiler.setSamplingInterval', { interval: 1000 }))
      .then(() => this.post('Profiler.start'))
      .catch(() => undefined);
  }

  /** Ends the running profile, writes it as `<segment>.cpuprofile`, and starts the next unless told not to. */
  cut(segment: string, again = true): void {
    this.chain = this.chain
      .then(() => this.post('Profiler.stop'))
      .then((r) =>
        writeFile(join(this.dir, `${segment}.cpuprofile`), JSON.stringify((r as { profile: unknown }).profile)),
      )
      .catch(() => undefined)
      .then(() => (again ? this.post('Profiler.start') : this.session.disconnect()))
      .catch(() => undefined);
  }
}
