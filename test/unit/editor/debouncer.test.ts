import * as assert from 'node:assert/strict';
import { Debouncer, type Scheduler } from '../../../src/vscode/debouncer';

/** A clock the test moves by hand: timers fire only when it is advanced past them. */
class ManualClock implements Scheduler {
  private time = 0;
  private next = 1;
  private readonly timers = new Map<number, { at: number; fn: () => void }>();

  setTimeout(fn: () => void, ms: number): number {
    const id = this.next++;
    this.timers.set(id, { at: this.time + ms, fn });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  now(): number {
    return this.time;
  }

  /** Moves time forward, firing due timers in order. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const due = [...this.timers].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = due[1].at;
      due[1].fn();
    }
    this.time = end;
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

/** Work whose passes the test finishes by hand; records which request (place) each pass served. */
class Passes {
  readonly started: { place: number; signal: AbortSignal; finish: () => void }[] = [];
  readonly shown: number[] = [];
  place = 0;

  readonly work = (signal: AbortSignal): Promise<void> => {
    const place = this.place;
    return new Promise<void>((resolve) => {
      this.started.push({
        place,
        signal,
        finish: () => {
          // What the panel does: an aborted pass shows nothing.
          if (!signal.aborted) this.shown.push(place);
          resolve();
        },
      });
    });
  };

  /** Passes started and neither finished nor aborted. */
  get live(): number {
    return this.started.filter((p) => !p.signal.aborted && !this.finished.has(p)).length;
  }

  private readonly finished = new Set<unknown>();
  async finish(i: number): Promise<void> {
    this.finished.add(this.started[i]);
    this.started[i].finish();
    await flush();
  }
}

describe('Debouncer scheduling rules (stale passes, held keys)', () => {
  const nav = { leading: true, catchUpMs: 200 };

  it('drops a stale pass when the cursor moves on: it is aborted and never shown', async () => {
    const clock = new ManualClock();
    const d = new Debouncer(clock);
    const p = new Passes();
    clock.advance(1000);
    p.place = 1;
    d.schedule(50, p.work, nav);
    clock.advance(0);
    assert.equal(p.started.length, 1, 'a lone jump runs at once');
    clock.advance(30);
    p.place = 2;
    d.schedule(50, p.work, nav);
    assert.equal(p.started[0].signal.aborted, true, 'the pass for the old place is stale at once');
    await p.finish(0);
    assert.deepEqual(p.shown, [], 'the stale pass shows nothing');
    clock.advance(50);
    assert.equal(p.started.length, 2);
    assert.equal(p.started[1].place, 2);
    await p.finish(1);
    assert.deepEqual(p.shown, [2]);
  });

  it('a held key keeps at most one pass pending, trails by one update, and settles on the last place', async () => {
    const clock = new ManualClock();
    const d = new Debouncer(clock);
    const p = new Passes();
    clock.advance(1000);
    let maxLive = 0;
    // Forty key repeats, 30 ms apart; no pass finishes on its own (a slow machine).
    for (let key = 1; key <= 40; key++) {
      p.place = key;
      d.schedule(50, p.work, nav);
      clock.advance(30);
      maxLive = Math.max(maxLive, p.live);
    }
    assert.ok(maxLive <= 1, `${maxLive} passes ran at once for a held key`);
    const catchUps = p.started.filter((s) => s.place > 1);
    assert.ok(catchUps.length >= 1, 'the panel never caught up while the key was held');
    const running = p.started.findIndex((s) => !s.signal.aborted);
    assert.ok(running >= 0, 'a catch-up pass runs while the key is held');
    // It finishes: the one pending catch-up starts, for where the cursor is now, not a queue of places.
    const before = p.started.length;
    await p.finish(running);
    assert.equal(p.shown.length, 1, 'the catch-up pass was shown');
    assert.ok(p.started.length <= before + 1, 'more than one pass was pending behind the running one');
    // The key is released: the last place is served one quiet time later, and any catch-up still
    // running is stale.
    clock.advance(50);
    const last = p.started.at(-1)!;
    assert.equal(last.place, 40);
    assert.equal(
      p.started.slice(0, -1).every((s) => s.signal.aborted || p.shown.includes(s.place)),
      true,
      'a pass for an older place is still running after the key was released',
    );
    await p.finish(p.started.length - 1);
    assert.equal(p.shown.at(-1), 40);
  });

  it('never starts a second pass for a place the running pass already serves', async () => {
    const clock = new ManualClock();
    const d = new Debouncer(clock);
    const p = new Passes();
    clock.advance(1000);
    p.place = 1;
    d.schedule(50, p.work, { catchUpMs: 40 });
    clock.advance(40);
    assert.equal(p.started.length, 1, 'the catch-up came due');
    clock.advance(10);
    assert.equal(p.started.length, 1, 'the end of the burst started the same place again');
    await p.finish(0);
    assert.deepEqual(p.shown, [1]);
  });

  it('typing (no leading pass, no catch-up) runs one pass after the last key', async () => {
    const clock = new ManualClock();
    const d = new Debouncer(clock);
    const p = new Passes();
    clock.advance(1000);
    for (let key = 1; key <= 20; key++) {
      p.place = key;
      d.schedule(50, p.work);
      clock.advance(30);
    }
    assert.equal(p.started.length, 0);
    clock.advance(20);
    assert.deepEqual(
      p.started.map((s) => s.place),
      [20],
    );
  });
});

describe('Debouncer: a shown answer gives way', () => {
  it('a held key with a slow enrichment after each answer still catches up every interval', async () => {
    const clock = new ManualClock();
    const d = new Debouncer(clock);
    const started: { place: number; signal: AbortSignal }[] = [];
    let place = 0;
    // Each pass shows its answer at once, then enriches for ever (a busy language server).
    const work = (signal: AbortSignal, shown: () => void) => {
      started.push({ place, signal });
      shown();
      return new Promise<void>(() => undefined);
    };
    clock.advance(1000);
    for (let key = 1; key <= 40; key++) {
      place = key;
      d.schedule(50, work, { leading: true, catchUpMs: 200 });
      clock.advance(30);
    }
    // 1.2 s of holding: the leading pass plus a catch-up about every 200 ms, none stuck behind an enrichment.
    assert.ok(started.length >= 5, `only ${started.length} passes while the key was held`);
    assert.ok(started.filter((s) => !s.signal.aborted).length <= 1, 'more than one pass alive at once');
    clock.advance(50);
    assert.equal(started.at(-1)!.place, 40, 'the last place is served when the key is released');
    assert.equal(started.filter((s) => !s.signal.aborted).length, 1);
    d.dispose();
  });
});

describe('Debouncer: key repeats slower than the debounce', () => {
  it('shows a catch-up pass instead of aborting it when each key repeat outlasts the quiet time', async () => {
    const clock = new ManualClock();
    const d = new Debouncer(clock);
    // A loaded machine: passes take 120 ms of the clock before their answer is shown.
    const live: { place: number; at: number; signal: AbortSignal; done: () => void }[] = [];
    const shown: number[] = [];
    let place = 0;
    const work = (signal: AbortSignal) =>
      new Promise<void>((resolve) => {
        live.push({ place, at: clock.now(), signal, done: resolve });
      });
    const tick = async (ms: number) => {
      for (let t = 0; t < ms; t += 10) {
        clock.advance(10);
        for (const pass of live.splice(0)) {
          if (pass.signal.aborted) pass.done();
          else if (clock.now() - pass.at >= 120) {
            shown.push(pass.place);
            pass.done();
          } else live.push(pass);
        }
        await flush();
      }
    };
    clock.advance(1000);
    // Keys 80 ms apart: more than the 50 ms debounce, less than a pass.
    for (let key = 1; key <= 12; key++) {
      place = key;
      d.schedule(50, work, { leading: true, catchUpMs: 200 });
      await tick(80);
    }
    assert.ok(shown.length >= 2, `the panel showed ${shown.length} places while the key was held`);
    await tick(400);
    assert.equal(shown.at(-1), 12, 'the last place is shown once the key is released');
  });
});

describe('Debouncer: a lone jump', () => {
  it('runs once: no catch-up follows a pass that served the latest place', async () => {
    const clock = new ManualClock();
    const d = new Debouncer(clock);
    let runs = 0;
    clock.advance(1000);
    // A pass with nothing to show (no file open) never calls shown().
    d.schedule(50, async () => void runs++, { leading: true, catchUpMs: 200 });
    clock.advance(0);
    await flush();
    clock.advance(1000);
    await flush();
    assert.equal(runs, 1);
    assert.equal(clock.pending, 0);
  });
});

describe('Debouncer: a held key is followed one function behind at most', () => {
  /**
   * ↓ held through functions of 6 lines, a key every 33 ms (198 ms per function); each pass shows
   * its answer 100 ms after it starts (a loaded machine). Returns how many functions the panel trailed the cursor by, at worst.
   */
  async function mostBehind(catchUpMs: number): Promise<{ behind: number; shown: number[] }> {
    const clock = new ManualClock();
    const d = new Debouncer(clock);
    const LINES = 6;
    const passes: { place: number; at: number; signal: AbortSignal; shown: () => void; done: () => void }[] = [];
    const shown: number[] = [];
    let line = 0;
    const work = (signal: AbortSignal, show: () => void) =>
      new Promise<void>((done) => passes.push({ place: line, at: clock.now(), signal, shown: show, done }));
    let behind = 0;
    const step = async () => {
      clock.advance(1);
      for (const pass of passes.splice(0)) {
        if (pass.signal.aborted) pass.done();
        else if (clock.now() - pass.at >= 100) {
          shown.push(pass.place);
          pass.shown();
          pass.done();
        } else passes.push(pass);
      }
      await flush();
      if (shown.length) behind = Math.max(behind, Math.floor(line / LINES) - Math.floor(shown.at(-1)! / LINES));
    };
    clock.advance(1000);
    for (let key = 0; key < 12 * LINES; key++) {
      line = key;
      d.schedule(50, work, { leading: true, catchUpMs });
      for (let t = 0; t < 33; t++) await step();
    }
    for (let t = 0; t < 300; t++) await step();
    d.dispose();
    return { behind, shown };
  }

  it('spaces catch-ups from start to start, so the panel never trails by two functions', async () => {
    const { behind, shown } = await mostBehind(100);
    assert.ok(behind <= 1, `the panel trailed the cursor by ${behind} functions`);
    assert.equal(shown.at(-1), 12 * 6 - 1, 'the last place is shown once the key is released');
  });
});
