import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventLog, type LoggedEvent } from '../../../src/core/events/eventLog';

/** Collects what a tail delivers, and resolves once `n` events have arrived. */
function collect(log: EventLog): { events: LoggedEvent[]; until(n: number): Promise<void>; dispose(): void } {
  const events: LoggedEvent[] = [];
  let wake: (() => void) | undefined;
  const tail = log.tail((batch) => {
    events.push(...batch);
    wake?.();
  });
  return {
    events,
    async until(n) {
      while (events.length < n) await new Promise<void>((r) => (wake = r));
    },
    dispose: () => tail.dispose(),
  };
}

describe('the shared event log', function () {
  this.timeout(20_000);
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pc-events-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('delivers events appended after the tail started, in order, and nothing from before', async () => {
    const log = new EventLog(dir, { pollMs: 20 });
    log.append({ type: 'watches_changed' });
    const seen = collect(log);
    log.append({ type: 'activity', path: 'src/a.ts', line: 3, symbol: 'f' });
    log.append({ type: 'file_change', files: [{ path: 'src/b.ts', mtimeMs: 1, size: 2 }] });
    await seen.until(2);
    seen.dispose();
    assert.deepEqual(
      seen.events.map((e) => e.type),
      ['activity', 'file_change'],
    );
    assert.equal(seen.events[0].pid, process.pid);
  });

  it('hears events another process appends', async () => {
    const log = new EventLog(dir, { pollMs: 20 });
    const seen = collect(log);
    const script = `const { EventLog } = require(${JSON.stringify(join(__dirname, '..', '..', '..', 'src', 'core', 'events', 'eventLog.js'))}); new EventLog(${JSON.stringify(dir)}).append({ type: 'activity', path: 'src/other.ts' });`;
    execFileSync(process.execPath, ['-e', script]);
    await seen.until(1);
    seen.dispose();
    assert.equal(seen.events[0].type, 'activity');
    assert.notEqual(seen.events[0].pid, process.pid);
  });

  it('stays bounded: past its size it rotates, keeping one older file, and a tail follows across', async () => {
    const log = new EventLog(dir, { pollMs: 20, maxBytes: 2000 });
    const seen = collect(log);
    // Readers that keep up (each tail reads every few ms) see every event across rotations.
    for (let i = 0; i < 100; i++) {
      log.append({ type: 'activity', path: `src/file${i}.ts` });
      if (i % 10 === 9) await seen.until(i + 1);
    }
    await seen.until(100);
    seen.dispose();
    assert.deepEqual(
      seen.events.map((e) => (e.type === 'activity' ? e.path : '')),
      Array.from({ length: 100 }, (_, i) => `src/file${i}.ts`),
    );
    assert.ok(statSync(join(dir, 'events.jsonl')).size < 2000 + 200, 'the live file stays near its cap');
    assert.ok(existsSync(join(dir, 'events.1.jsonl')), 'one older file is kept');
  });

  it('skips a torn or damaged line instead of misreading it, and reads on after it', async () => {
    const log = new EventLog(dir, { pollMs: 20 });
    log.append({ type: 'watches_changed' });
    const seen = collect(log);
    // A writer killed mid-line leaves half a JSON object; garbage may follow it.
    appendFileSync(join(dir, 'events.jsonl'), '{"type":"activity","path":"src/half\n\u0000\u0001 not json\n');
    log.append({ type: 'activity', path: 'src/whole.ts' });
    await seen.until(1);
    seen.dispose();
    assert.deepEqual(
      seen.events.map((e) => (e.type === 'activity' ? e.path : e.type)),
      ['src/whole.ts'],
    );
  });

  it('never writes an oversized event', () => {
    const log = new EventLog(dir);
    log.append({ type: 'activity', path: 'x'.repeat(20_000) });
    assert.equal(existsSync(join(dir, 'events.jsonl')), false);
  });
});
