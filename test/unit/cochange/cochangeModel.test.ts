import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoChangeCounts } from '../../../src/core/cochange/cochangeCounts';
import { BROAD_FILE, COCHANGE_FILE, CoChangeModel, HISTORY_FILE } from '../../../src/core/cochange/cochangeModel';
import { decodeCounts, encodeCounts } from '../../../src/core/cochange/countsCodec';
import { decodeHistory } from '../../../src/core/cochange/fileHistoryCodec';
import { PackedCounts } from '../../../src/core/cochange/packedCounts';
import { PathTable } from '../../../src/core/cochange/pathTable';
import { relatedFiles } from '../../../src/core/cochange/relatedFiles';
import { nullLogger, type Logger } from '../../../src/core/logger';
import { Store } from '../../../src/core/store/store';
import { all } from '../../../src/core/store/sqlite';
import { TempRepo } from '../git/repoFixture';

describe('CoChangeModel', () => {
  let repo: TempRepo;
  let stateDir: string;
  let store: Store;

  beforeEach(async () => {
    repo = new TempRepo();
    stateDir = mkdtempSync(join(tmpdir(), 'pc-state-'));
    store = await Store.open({ stateDir });
    repo.change('c1', ['a.ts', 'b.ts']);
    repo.change('c2', ['a.ts', 'b.ts', 'c.ts']);
    repo.change('c3', ['a.ts', 'c.ts']);
    // A bulk edit of 31 files says nothing about coupling.
    repo.change('bulk', ['a.ts', 'b.ts', ...Array.from({ length: 29 }, (_, i) => `gen/f${i}.ts`)]);
    // A branch of two commits merged with a merge commit: one change set on the first-parent line.
    repo.git('checkout', '-q', '-b', 'feature');
    repo.change('d', ['d.ts']);
    repo.change('e', ['e.ts']);
    repo.git('checkout', '-q', 'main');
    repo.change('c4', ['c.ts']);
    repo.git('merge', '-q', '--no-ff', '-m', 'merge feature', 'feature');
  });

  afterEach(() => {
    store.dispose();
    repo.dispose();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('counts files and pairs from first-parent history, ignoring bulk edits', async () => {
    const model = new CoChangeModel({ root: repo.dir, store });
    const res = await model.update();
    assert.equal(res.mode, 'rebuild');
    assert.equal(res.commits, 6, 'c1, c2, c3, bulk, c4 and the merge; not the branch commits');
    assert.equal(model.commitCount, 5, 'the bulk edit is not counted');
    assert.equal(model.commitsOf('a.ts'), 3);
    assert.equal(model.commitsOf('c.ts'), 3);
    assert.equal(model.commitsOf('gen/f0.ts'), 0);
    assert.equal(model.support('a.ts', 'b.ts'), 2);
    assert.equal(model.support('b.ts', 'a.ts'), 2);
    assert.equal(model.support('a.ts', 'c.ts'), 2);
    assert.equal(model.support('b.ts', 'c.ts'), 1);
    assert.equal(model.confidence('a.ts', 'b.ts'), 2 / 3);
    assert.equal(model.confidence('b.ts', 'a.ts'), 1);
    assert.equal(model.support('d.ts', 'e.ts'), 1, 'the merged branch is one change set');
    assert.equal(model.commitsOf('d.ts'), 1);
    const related = model.coChanged('b.ts', 5);
    assert.deepEqual(
      related.map((r) => [r.path, r.support, r.confidence]),
      [
        ['a.ts', 2, 1],
        ['c.ts', 1, 0.5],
      ],
    );
    assert.ok(related[0].lastTime > 0);
  });

  it('keeps its counts in a cache file of its own, each pair once', async () => {
    await new CoChangeModel({ root: repo.dir, store }).update();
    const tables = all<{ name: string }>(store.index, "SELECT name FROM sqlite_master WHERE type = 'table'").map(
      (r) => r.name,
    );
    assert.ok(!tables.some((t) => t.startsWith('cochange')), 'nothing in the index database');
    const history = decodeHistory(readFileSync(join(stateDir, HISTORY_FILE)));
    if (typeof history === 'string') assert.fail(history);
    const decoded = decodeCounts(readFileSync(join(stateDir, COCHANGE_FILE)), history.history.paths);
    if (typeof decoded === 'string') assert.fail(decoded);
    assert.equal(decoded.head, repo.head());
    const names = [...decoded.counts.fileStats()].map(([p]) => p);
    const pairs = [...decoded.counts.pairStats()].map(([a, b, count]) =>
      [names[a], names[b]].sort().concat(String(count)),
    );
    assert.deepEqual(pairs.sort(), [
      ['a.ts', 'b.ts', '2'],
      ['a.ts', 'c.ts', '2'],
      ['b.ts', 'c.ts', '1'],
      ['d.ts', 'e.ts', '1'],
    ]);
  });

  it('an update asked for while a pass is under way sees the commits made after that pass read HEAD', async () => {
    const model = new CoChangeModel({ root: repo.dir, store });
    let during: Promise<unknown> | undefined;
    // The first commit read means the pass has read HEAD already: commit again and ask again right then.
    const first = model.update(undefined, () => {
      if (during) return;
      repo.change('c5', ['a.ts', 'd.ts']);
      during = model.update();
    });
    const firstResult = await first;
    assert.ok(during, 'the pass reported reading commits');
    await during;
    assert.notEqual(firstResult.head, repo.head(), 'the first pass read HEAD before the new commit');
    assert.equal(model.lastMined, repo.head(), 'the update asked for later mined the new commit');
    assert.equal(model.support('a.ts', 'd.ts'), 1);
  });

  it('mines only the new commits when HEAD moves forward', async () => {
    const model = new CoChangeModel({ root: repo.dir, store });
    await model.update();
    assert.equal((await model.update()).mode, 'up-to-date');
    repo.change('c5', ['a.ts', 'd.ts']);
    repo.change('c6', ['a.ts', 'b.ts']);
    const res = await model.update();
    assert.equal(res.mode, 'incremental');
    assert.equal(res.commits, 2);
    assert.equal(model.commitsOf('a.ts'), 5);
    assert.equal(model.support('a.ts', 'b.ts'), 3);
    assert.equal(model.support('a.ts', 'd.ts'), 1);
    assert.equal(model.lastMined, repo.head());
    const reopened = new CoChangeModel({ root: repo.dir, store });
    assert.equal(reopened.support('a.ts', 'b.ts'), 3, 'the cache file follows');
    assert.equal(reopened.lastMined, repo.head());
  });

  it('rebuilds when history was rewritten', async () => {
    const model = new CoChangeModel({ root: repo.dir, store });
    repo.change('c5', ['a.ts', 'd.ts']);
    await model.update();
    assert.equal(model.support('a.ts', 'd.ts'), 1);
    repo.git('reset', '-q', '--hard', 'HEAD~1');
    repo.change('c5 again', ['a.ts', 'e.ts']);
    const res = await model.update();
    assert.equal(res.mode, 'rebuild');
    assert.equal(model.support('a.ts', 'd.ts'), 0, 'the dropped commit is forgotten');
    assert.equal(model.support('a.ts', 'e.ts'), 1);
    assert.equal(model.commitsOf('a.ts'), 4);
  });

  it('comes back from its cache file without mining again', async () => {
    const first = new CoChangeModel({ root: repo.dir, store });
    await first.update();
    const before = first.coChanged('a.ts', 10);
    store.dispose();
    store = await Store.open({ stateDir });
    const second = new CoChangeModel({ root: repo.dir, store });
    assert.deepEqual(second.coChanged('a.ts', 10), before);
    assert.equal(second.commitCount, 5);
    assert.equal((await second.update()).mode, 'up-to-date');
  });

  it('mines only the commits made since the cache was saved, after a restart', async () => {
    await new CoChangeModel({ root: repo.dir, store }).update();
    store.dispose();
    repo.change('c5', ['a.ts', 'd.ts']);
    store = await Store.open({ stateDir });
    const model = new CoChangeModel({ root: repo.dir, store });
    const res = await model.update();
    assert.equal(res.mode, 'incremental');
    assert.equal(res.commits, 1);
    assert.equal(model.commitCount, 6);
    assert.equal(model.support('a.ts', 'd.ts'), 1);
    assert.equal(model.support('a.ts', 'b.ts'), 2);
  });

  it('rebuilds from history, with a logged reason, when the cache file is damaged', async () => {
    await new CoChangeModel({ root: repo.dir, store }).update();
    const file = join(stateDir, COCHANGE_FILE);
    const good = readFileSync(file);
    const damaged = [
      { bytes: good.subarray(0, good.length - 7), reason: /checksum/ },
      { bytes: Buffer.concat([good.subarray(0, 60), Buffer.from('x'), good.subarray(61)]), reason: /checksum/ },
      { bytes: Buffer.from('not a cache at all, just some text that is long enough'), reason: /not a co-change cache/ },
      { bytes: Buffer.alloc(3), reason: /too short/ },
    ];
    for (const { bytes, reason } of damaged) {
      writeFileSync(file, bytes);
      const warnings: string[] = [];
      const model = new CoChangeModel({ root: repo.dir, store, logger: recording(warnings) });
      assert.equal(model.support('a.ts', 'b.ts'), 0, 'an empty model, not a crash');
      assert.equal(warnings.length, 1);
      assert.match(warnings[0], reason);
      assert.match(warnings[0], /rebuilt/);
      const res = await model.update();
      assert.equal(res.mode, 'rebuild');
      assert.equal(model.support('a.ts', 'b.ts'), 2);
      assert.deepEqual(readFileSync(file), good, 'saved again');
    }
  });

  it('keeps change sets too large for pairs whole, newest first, across new commits and restarts', async () => {
    const model = new CoChangeModel({ root: repo.dir, store });
    await model.update();
    const bulk = model.broad.changesOf('gen/f0.ts', 5);
    assert.equal(bulk.length, 1, 'the 31-file commit is kept whole');
    assert.equal(bulk[0].files.length, 31);
    assert.ok(bulk[0].files.includes('a.ts'));
    assert.deepEqual(model.broad.changesOf('c.ts', 5), [], 'c.ts was never in a large change');

    repo.change('wide', ['a.ts', ...Array.from({ length: 34 }, (_, i) => `wide/w${i}.ts`)]);
    assert.equal((await model.update()).mode, 'incremental');
    assert.deepEqual(
      model.broad.changesOf('a.ts', 5).map((c) => c.files.length),
      [35, 31],
    );
    assert.equal(model.commitsOf('wide/w0.ts'), 0, 'and not counted in pairs');

    store.dispose();
    store = await Store.open({ stateDir });
    const again = new CoChangeModel({ root: repo.dir, store });
    assert.deepEqual(
      again.broad.changesOf('a.ts', 5).map((c) => c.files.length),
      [35, 31],
    );
    assert.equal((await again.update()).mode, 'up-to-date');
  });

  it('rebuilds when the large change sets are missing, damaged or saved at another commit', async () => {
    await new CoChangeModel({ root: repo.dir, store }).update();
    const broadFile = join(stateDir, BROAD_FILE);
    const good = readFileSync(broadFile, 'utf8');
    const cases: [string | undefined, RegExp][] = [
      [undefined, /No cochange-broad\.json/],
      ['{"format":1', /unusable \(not JSON/],
      [good.replace(/"head":"[0-9a-f]+"/, '"head":"0000"'), /disagree/],
    ];
    for (const [text, reason] of cases) {
      if (text === undefined) rmSync(broadFile);
      else writeFileSync(broadFile, text);
      const said: string[] = [];
      const model = new CoChangeModel({
        root: repo.dir,
        store,
        logger: { ...nullLogger, info: (m: string) => said.push(m), warn: (m: string) => said.push(m) },
      });
      assert.equal(model.support('a.ts', 'b.ts'), 0, 'nothing half-loaded');
      assert.ok(
        said.some((m) => reason.test(m)),
        said.join(' | '),
      );
      assert.equal((await model.update()).mode, 'rebuild');
      assert.equal(model.support('a.ts', 'b.ts'), 2);
      assert.equal(model.broad.changesOf('gen/f0.ts', 5).length, 1);
      assert.equal(readFileSync(broadFile, 'utf8'), good, 'saved again');
    }
  });

  it('stops a mining pass that a reset overtakes, and mines everything on the next update', async () => {
    const model = new CoChangeModel({ root: repo.dir, store });
    const first = model.update();
    await model.reset();
    const again = model.update();
    assert.notEqual(again, first, 'a new pass, not the one the reset stopped');
    assert.equal((await first).mode, 'unavailable');
    const res = await again;
    assert.equal(res.mode, 'rebuild');
    assert.equal(model.commitCount, 5);
    assert.equal(model.support('a.ts', 'b.ts'), 2);
    assert.ok(readFileSync(join(stateDir, COCHANGE_FILE)).length > 0, 'saved');
    assert.equal((await model.update()).mode, 'up-to-date');
  });

  it('counts again when the cache was made with another change-set limit', async () => {
    await new CoChangeModel({ root: repo.dir, store }).update();
    const warnings: string[] = [];
    const model = new CoChangeModel({ root: repo.dir, store, maxChangeSet: 40, logger: recording(warnings) });
    assert.equal((await model.update()).mode, 'rebuild');
    assert.match(warnings[0], /up to 30 files, now 40/);
    assert.equal(model.commitsOf('gen/f0.ts'), 1, 'the 31-file change now counts');
  });

  it('packs counts that answer as the plain counts do, and encodes and decodes them exactly', () => {
    const sets: [string[], number][] = [
      [['src/a b.ts', 'lib/ü.ts', 'x.ts'], 1_700_000_000_000],
      [['src/a b.ts', 'x.ts'], 1_700_000_123_000],
      [['solo.ts'], 5000],
      [['x.ts', 'new.ts'], 1_700_000_200_000],
      [['lib/ü.ts', 'x.ts'], 1_700_000_100_000],
    ];
    const counts = new CoChangeCounts();
    for (const [f, t] of sets) counts.add(f, t);
    // Packed in two steps, as a model mines history and later the commits made since.
    const packed = new PackedCounts();
    for (const part of [sets.slice(0, 3), sets.slice(3)]) {
      const delta = new CoChangeCounts();
      for (const [f, t] of part) delta.add(f, t);
      packed.merge(delta);
    }
    const files = [...counts.files.keys()].sort();
    const answers = (c: CoChangeCounts | PackedCounts) =>
      files.map((p) => [
        p,
        c.commitsOf(p),
        c.lastTimeOf(p),
        c.coChanged(p),
        [...c.partners(p)].sort(),
        files.map((q) => c.support(p, q)),
      ]);
    assert.deepEqual(answers(packed), answers(counts));
    const ranked = (c: CoChangeCounts | PackedCounts) =>
      files.map((p) => relatedFiles(p, { cochange: c, now: 1_700_001_000_000 }, 10));
    assert.deepEqual(ranked(packed), ranked(counts), 'and rank the same');
    assert.equal(packed.commitCount, 5);
    const decoded = decodeCounts(Buffer.concat(encodeCounts(packed, 'abc123')), packed.paths);
    if (typeof decoded === 'string') assert.fail(decoded);
    assert.equal(decoded.head, 'abc123');
    assert.equal(decoded.counts.commitCount, 5);
    assert.deepEqual(answers(decoded.counts), answers(counts));
    const empty = decodeCounts(Buffer.concat(encodeCounts(new PackedCounts(), '')), new PathTable());
    assert.ok(typeof empty !== 'string' && empty.counts.fileCount === 0 && empty.counts.commitCount === 0);
  });

  it('speaks in paths relative to a workspace root inside the repository', async () => {
    repo.change('in pkg', ['pkg/x.ts', 'pkg/y.ts', 'a.ts']);
    const model = new CoChangeModel({ root: join(repo.dir, 'pkg'), store });
    await model.update();
    assert.equal(model.support('x.ts', 'y.ts'), 1);
    assert.equal(model.commitsOf('a.ts'), 0, 'files outside the root are left out');
  });

  it('reports an empty repository instead of failing', async () => {
    const empty = new TempRepo();
    try {
      const model = new CoChangeModel({ root: empty.dir, store });
      const res = await model.update();
      assert.equal(res.mode, 'unavailable');
      assert.equal(res.reason, 'no-commits');
      assert.deepEqual(model.coChanged('a.ts'), []);
    } finally {
      empty.dispose();
    }
  });
});

function recording(warnings: string[]): Logger {
  return { ...nullLogger, warn: (m: string) => warnings.push(m) };
}

describe('CoChangeCounts without change sets', () => {
  it('counts as with them, keeping none of the sets', () => {
    const kept = new CoChangeCounts();
    const bare = new CoChangeCounts(undefined, false);
    const sets: [string[], number][] = [
      [['a.ts', 'b.ts'], 1000],
      [['a.ts', 'c.ts', 'b.ts'], 2000],
    ];
    for (const [f, t] of sets) {
      kept.add(f, t);
      bare.add(f, t);
    }
    assert.deepEqual(bare.coChanged('a.ts'), kept.coChanged('a.ts'));
    assert.equal(bare.commitCount, 2);
    assert.equal(kept.changeSetsOf('a.ts', 5).length, 2);
    assert.deepEqual(bare.changeSetsOf('a.ts', 5), []);
    bare.remove(sets[0][0]);
    kept.remove(sets[0][0]);
    assert.deepEqual(bare.coChanged('b.ts'), kept.coChanged('b.ts'));
  });
});
