import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { EventLog, type FileChange, type LoggedEvent } from '../../../src/core/events/eventLog';
import { nullLogger, type Logger } from '../../../src/core/logger';

/** Collects what a tail delivers; `until` resolves once `done` holds for what arrived. */
function collect(log: EventLog): {
  events: LoggedEvent[];
  until(done: (events: LoggedEvent[]) => boolean): Promise<void>;
  dispose(): void;
} {
  const events: LoggedEvent[] = [];
  let wake: (() => void) | undefined;
  const tail = log.tail((batch) => {
    events.push(...batch);
    wake?.();
  });
  return {
    events,
    async until(done) {
      while (!done(events)) await new Promise<void>((r) => (wake = r));
    },
    dispose: () => tail.dispose(),
  };
}

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { ...nullLogger, warnings, warn: (m: string) => void warnings.push(m) };
}

const pathOf = (e: LoggedEvent): string => (e.type === 'activity' ? e.path : e.type);

describe('the event log under bulk changes and racing writers', function () {
  this.timeout(60_000);
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pc-events-limits-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('splits a 5,000-file change into lines under the limit, and every path arrives', async () => {
    const log = new EventLog(dir, { pollMs: 20 });
    const seen = collect(log);
    const files: FileChange[] = Array.from({ length: 5000 }, (_, i) => ({
      path: `packages/feature-${i % 37}/src/components/Widget${i}.tsx`,
      mtimeMs: 1_700_000_000_000 + i,
      size: 100 + i,
    }));
    log.append({ type: 'file_change', files });
    await seen.until((es) => es.flatMap((e) => (e.type === 'file_change' ? e.files : [])).length >= files.length);
    seen.dispose();

    const parts = seen.events.filter((e) => e.type === 'file_change');
    assert.ok(parts.length > 1, 'the change was split');
    assert.deepEqual(
      parts.flatMap((e) => (e.type === 'file_change' ? e.files.map((f) => f.path) : [])),
      files.map((f) => f.path),
      'every path arrives, once, in order',
    );
    const batches = new Set(parts.map((e) => (e.type === 'file_change' ? e.batch?.id : undefined)));
    assert.equal(batches.size, 1, 'the parts are marked as one bulk change');
    assert.deepEqual(
      parts.map((e) => (e.type === 'file_change' ? [e.batch?.part, e.batch?.parts, e.batch?.files] : [])),
      parts.map((_, i) => [i, parts.length, 5000]),
    );
    for (const line of readFileSync(join(dir, 'events.jsonl'), 'utf8').split('\n'))
      assert.ok(Buffer.byteLength(line) <= 8 * 1024, `a line of ${Buffer.byteLength(line)} bytes`);
  });

  it('warns with a count when a file cannot be logged, and logs the rest of its change', async () => {
    const logger = recordingLogger();
    const log = new EventLog(dir, { pollMs: 20, logger });
    const seen = collect(log);
    log.append({
      type: 'file_change',
      files: [{ path: 'src/ok.ts' }, { path: `src/${'x'.repeat(9000)}.ts` }, { path: 'src/also-ok.ts' }],
    });
    await seen.until((es) => es.length >= 1);
    seen.dispose();
    assert.deepEqual(
      seen.events.flatMap((e) => (e.type === 'file_change' ? e.files.map((f) => f.path) : [])),
      ['src/ok.ts', 'src/also-ok.ts'],
    );
    assert.ok(
      logger.warnings.some((w) => /1 changed file/.test(w)),
      logger.warnings.join('\n'),
    );
  });

  it('follows one rotation between two reads without losing or reporting anything', async () => {
    const log = new EventLog(dir, { pollMs: 20, maxBytes: 2000 });
    const seen = collect(log);
    // Appends run without yielding, so the reader cannot read in between: it wakes up past one rotation.
    let n = 0;
    while (!existsSync(join(dir, 'events.1.jsonl'))) log.append({ type: 'activity', path: `src/f${n++}.ts` });
    for (let i = 0; i < 3; i++) log.append({ type: 'activity', path: `src/f${n++}.ts` });
    await seen.until((es) => es.length >= n);
    seen.dispose();
    assert.deepEqual(
      seen.events.map(pathOf),
      Array.from({ length: n }, (_, i) => `src/f${i}.ts`),
    );
  });

  it('says so when the log rotated past events before they were read', async () => {
    const logger = recordingLogger();
    const log = new EventLog(dir, { pollMs: 20, maxBytes: 2000, logger });
    const seen = collect(log);
    // Three rotations before the reader can run: the file it was in is gone with what it had not read.
    for (let i = 0; i < 100; i++) log.append({ type: 'activity', path: `src/f${i}.ts` });
    await seen.until((es) => es.some((e) => pathOf(e) === 'src/f99.ts'));
    seen.dispose();
    const kinds = seen.events.map(pathOf);
    assert.equal(kinds[0], 'events_lost', 'the gap is told before what follows it');
    assert.ok(
      logger.warnings.some((w) => /rotated past events/.test(w)),
      logger.warnings.join('\n'),
    );
    const after = kinds.slice(1);
    assert.deepEqual(
      after,
      after.slice().sort((a, b) => Number(a.slice(5, -3)) - Number(b.slice(5, -3))),
      'what is read after the gap is in order',
    );
  });

  it('loses no event, or says so, when two processes append and rotate at once while a third reads', async function () {
    // Two writers take turns at the lock for every event: on a starved machine each turn waits for the
    // scheduler, so this guard is wider than the suite's. 500 events each still fill the 4 KB log some twenty times.
    this.timeout(240_000);
    const log = new EventLog(dir, { pollMs: 5 });
    const seen = collect(log);
    const writer = join(__dirname, '..', '..', 'fixtures', 'events', 'writer.js');
    const count = 500;
    const run = (name: string) => promisify(execFile)(process.execPath, [writer, dir, name, String(count), '4096']);
    await Promise.all([run('a'), run('b')]);
    await seen.until((es) => es.some((e) => pathOf(e) === 'a:done') && es.some((e) => pathOf(e) === 'b:done'));
    seen.dispose();

    const paths = seen.events.map(pathOf).filter((p) => p !== 'events_lost');
    assert.equal(new Set(paths).size, paths.length, 'no event is delivered twice');
    for (const name of ['a', 'b']) {
      const mine = paths.filter((p) => p.startsWith(`${name}:`) && p !== `${name}:done`).map((p) => Number(p.slice(2)));
      assert.deepEqual(
        mine,
        mine.slice().sort((x, y) => x - y),
        `${name}'s events arrive in the order written`,
      );
      if (!seen.events.some((e) => e.type === 'events_lost'))
        assert.equal(mine.length, count, `every event of ${name} arrives when no gap is reported`);
    }
  });
});
