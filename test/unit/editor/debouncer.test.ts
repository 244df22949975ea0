import * as assert from 'node:assert/strict';
import { Debouncer, type Scheduler } from '../../../src/vscode/debouncer';

/** A clock the test moves by hand: timers fire only when it is advanced past them. */
class ManualClock implements Scheduler {
  private now = 0;
  private next = 1;
  private readonly timers = new Map<number, { at: number; fn: () => void }>();

  setTimeout(fn: () => void, ms: number): number {
    const id = this.next++;
    this.timers.set(id, { at: this.now + ms, fn });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  /** Moves time forward, firing due timers in order. */
  advance(ms: number): void {
    const end = this.now + ms;
    for (;;) {
      const due = [...this.timers].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.now = due[1].at;
      due[1].fn();
    }
    this.now = end;
  }

  get pending(): number {
    return this.timers.size;
  }
}

const flush = () => new Promise<void>((r) => setImmediate(r));

describe('Debouncer (the activity tracker’s timing)', () => {
  it('runs once, for the last of ten quick requests, after the quiet time', async () => {
    const clock = new ManualClock();
    const d = new Debouncer(clock);
    const runs: number[] = [];
    for (let i = 0; i < 10; i++) {
      d.schedule(50, async () => void runs.push(i));
      clock.advance(10);
    }
    assert.deepEqual(runs, [], 'nothing runs while requests keep coming');
    clock.advance(39);
    assert.deepEqual(runs, []);
    clock.advance(1);
    await flush();
    assert.deepEqual(runs, [9]);
    assert.equal(clock.pending, 0);
  });

  it('cancels the work still running for an older request when a newer one starts', async () => {
    const clock = new ManualClock();
    const d = new Debouncer(clock);
    const signals: AbortSignal[] = [];
    const release: (() => void)[] = [];
    const work = (signal: AbortSignal) => {
      signals.push(signal);
      return new Promise<void>((r) => release.push(r));
    };
    d.schedule(50, work);
    clock.advance(50);
    assert.equal(signals.length, 1);
    assert.equal(signals[0].aborted, false);
    d.schedule(50, work);
    assert.equal(signals[0].aborted, true, 'a new request makes the running work stale at once');
    clock.advance(50);
    assert.equal(signals.length, 2);
    assert.equal(signals[1].aborted, false);
    d.dispose();
    assert.equal(signals[1].aborted, true, 'disposing cancels what still runs');
    for (const r of release) r();
    await flush();
  });

  it('runs at once with a zero delay, and never after dispose', async () => {
    const clock = new ManualClock();
    const d = new Debouncer(clock);
    let runs = 0;
    d.schedule(0, async () => void runs++);
    clock.advance(0);
    await flush();
    assert.equal(runs, 1);
    d.schedule(50, async () => void runs++);
    d.dispose();
    clock.advance(100);
    await flush();
    assert.equal(runs, 1);
  });
});
