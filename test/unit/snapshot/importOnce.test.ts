import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import * as historyCodec from '../../../src/core/cochange/fileHistoryCodec';
import { nullLogger } from '../../../src/core/logger';
import { decodeSnapshotAsync, encodeSnapshot, SnapshotError } from '../../../src/core/snapshot/format';
import { seedTermsFromSnapshot } from '../../../src/core/snapshot/snapshotTerms';
import * as recovery from '../../../src/core/store/recovery';
import type { TempRepo } from '../git/repoFixture';
import { buildRepo, cloneAt, indexed, tempDir } from './snapshotFixture';

/** Counts the calls of a module's exported function while `run` runs, `which` deciding which count. */
async function counting<M extends object, K extends keyof M>(
  mod: M,
  name: K,
  which: (...args: unknown[]) => boolean,
  run: () => Promise<void>,
): Promise<number> {
  const original = mod[name] as (...args: unknown[]) => unknown;
  let n = 0;
  (mod as Record<K, unknown>)[name] = (...args: unknown[]) => {
    if (which(...args)) n++;
    return original(...args);
  };
  try {
    await run();
  } finally {
    (mod as Record<K, unknown>)[name] = original;
  }
  return n;
}

describe('team index snapshot: imported in one reading, a slice at a time', function () {
  this.timeout(180_000);
  let repo: TempRepo;
  let snapshot: string;
  const dirs: string[] = [];

  before(async () => {
    repo = buildRepo(8);
    const ci = cloneAt(repo, 'HEAD');
    const ciState = tempDir('pc-snap-once-ci-');
    const out = tempDir('pc-snap-once-out-');
    dirs.push(ci, ciState, out);
    snapshot = join(out, 'team.pcsnap');
    const { service } = await indexed(ci, ciState);
    await service.workspace.exportSnapshot(snapshot, '9.9.9-test');
    service.dispose();
  });

  after(() => {
    repo.dispose();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('decodes the history once and opens the index once, from the checked bytes', async () => {
    const state = tempDir('pc-snap-once-state-');
    dirs.push(state);
    let status: string | undefined;
    let indexOpens = 0;
    const decodes = await counting(
      historyCodec,
      'decodeHistory',
      () => true,
      async () => {
        indexOpens = await counting(
          recovery,
          'openChecked',
          (_sql, path) => basename(String(path)) === 'index.db',
          async () => {
            const { service, summary } = await indexed(repo.dir, state, { location: snapshot });
            status = summary.snapshot?.status;
            service.dispose();
          },
        );
      },
    );
    assert.equal(status, 'applied');
    // Before: the check decoded the history and the co-change model decoded history.bin again; the
    // store read index.db back from disk and checked every page a second time.
    assert.equal(decodes, 1);
    assert.equal(indexOpens, 0);
  });

  it('hashes and unpacks a large snapshot with turns of the event loop between slices', async () => {
    // Four megabytes that do not compress away, in three entries.
    const entries = [
      { name: 'index.db', data: randomBytes(3 << 20) },
      { name: 'history.bin', data: randomBytes(1 << 20) },
      { name: 'empty', data: Buffer.alloc(0) },
    ];
    const file = encodeSnapshot(
      { productVersion: '1.2.3', commit: 'a'.repeat(40), createdAt: '2026-01-01T00:00:00.000Z', indexSchema: 9 },
      entries,
    );
    let pauses = 0;
    const got = await decodeSnapshotAsync(file, undefined, async () => {
      pauses++;
      await Promise.resolve();
    });
    assert.deepEqual(
      [...got.entries].map(([name, data]) => [name, data.equals(entries.find((e) => e.name === name)!.data)]),
      [
        ['index.db', true],
        ['history.bin', true],
        ['empty', true],
      ],
    );
    // Before: the body, the content and each entry were hashed in single steps of up to 4 MB.
    assert.ok(pauses >= 8, `${pauses} pauses`);
    // A damaged entry is still refused.
    const damaged = Buffer.from(file);
    damaged[damaged.length - 1] ^= 1;
    await assert.rejects(
      decodeSnapshotAsync(damaged, undefined, () => Promise.resolve()),
      SnapshotError,
    );
  });

  it("gives the ranking the snapshot's words a slice of files at a time", async () => {
    const files = Array.from({ length: 1200 }, (_, i) => ({ path: `src/f${i}.ts`, size: 10 + i, mtimeMs: 1 }));
    const entry = Buffer.from(
      JSON.stringify({ format: 1, terms: ['alpha', 'beta'], files: files.map((f) => [f.path, f.size, [0, 1]]) }),
    );
    const seeded: string[] = [];
    let pauses = 0;
    const n = await seedTermsFromSnapshot(
      {
        history: { seedTerms: (s) => seeded.push(...[...s].map((f) => f.path)), termFiles: () => undefined },
        logger: nullLogger,
      },
      entry,
      files,
      async () => {
        pauses++;
        await Promise.resolve();
      },
    );
    assert.equal(n, 1200);
    assert.deepEqual(
      seeded,
      files.map((f) => f.path),
    );
    assert.ok(pauses >= 2, `${pauses} pauses`);
  });

  it("decodes the snapshot's words a slice of files at a time, and still refuses a damaged row", async () => {
    const files = Array.from({ length: 1200 }, (_, i) => ({ path: `src/f${i}.ts`, size: 10 + i, mtimeMs: 1 }));
    const rows: unknown[] = files.map((f) => [f.path, f.size, [0, 1]]);
    const entry = (list: unknown[]) =>
      Buffer.from(JSON.stringify({ format: 1, terms: ['alpha', 'beta'], files: list }));
    const seed = async (data: Buffer) => {
      const seeded: string[] = [];
      let pauses = 0;
      const n = await seedTermsFromSnapshot(
        {
          history: { seedTerms: (s) => seeded.push(...[...s].map((f) => f.path)), termFiles: () => undefined },
          logger: nullLogger,
        },
        data,
        // One file to seed: any pause comes from decoding the 1,200 files' rows.
        files.slice(0, 1),
        async () => {
          pauses++;
          await Promise.resolve();
        },
      );
      return { n, seeded, pauses };
    };
    const whole = await seed(entry(rows));
    assert.equal(whole.n, 1);
    assert.deepEqual(whole.seeded, ['src/f0.ts']);
    assert.ok(whole.pauses >= 2, `${whole.pauses} pauses while decoding`);
    // A damaged row after the first slice: nothing of the entry is used, as before.
    const damaged = [...rows];
    damaged[1100] = ['src/f1100.ts', 'large', [0]];
    assert.equal((await seed(entry(damaged))).n, 0);
  });
});
