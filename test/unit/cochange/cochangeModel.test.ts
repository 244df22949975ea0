import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoChangeModel } from '../../../src/core/cochange/cochangeModel';
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

  it('stores each pair once with a < b', async () => {
    await new CoChangeModel({ root: repo.dir, store }).update();
    const rows = all<{ a: string; b: string; count: number }>(store.index, 'SELECT a, b, count FROM cochange_pairs ORDER BY a, b');
    assert.deepEqual(
      rows.map((r) => [r.a, r.b, r.count]),
      [
        ['a.ts', 'b.ts', 2],
        ['a.ts', 'c.ts', 2],
        ['b.ts', 'c.ts', 1],
        ['d.ts', 'e.ts', 1],
      ],
    );
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
    const row = all<{ count: number }>(store.index, 'SELECT count FROM cochange_pairs WHERE a = ? AND b = ?', ['a.ts', 'b.ts']);
    assert.equal(row[0].count, 3, 'the stored row follows');
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

  it('comes back from the index cache without mining again', async () => {
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
