import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoChangeModel } from '../../../src/core/cochange/cochangeModel';
import { nullLogger } from '../../../src/core/logger';
import { Store } from '../../../src/core/store/store';
import { TempRepo } from '../git/repoFixture';

describe('CoChangeModel first pass over the newest commits', () => {
  let repo: TempRepo;
  let stateDir: string;
  let store: Store;

  beforeEach(async () => {
    repo = new TempRepo();
    stateDir = mkdtempSync(join(tmpdir(), 'pc-state-'));
    store = await Store.open({ stateDir });
    // Old history pairs a.ts with b.ts; the newest commits pair c.ts with d.ts.
    for (let i = 0; i < 6; i++) repo.change(`old ${i}`, ['a.ts', 'b.ts']);
    for (let i = 0; i < 6; i++) repo.change(`new ${i}`, ['c.ts', 'd.ts']);
  });

  afterEach(() => {
    store.dispose();
    repo.dispose();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('publishes the newest commits before the whole history, and saves only the whole', async () => {
    const model = new CoChangeModel({ root: repo.dir, store, logger: nullLogger, firstPassCommits: 4 });
    const atFirst: { commits: number; newPair: number; oldPair: number; mined?: string; ok?: boolean }[] = [];
    const result = await model.update(undefined, undefined, () =>
      atFirst.push({
        commits: model.commitCount,
        newPair: model.support('c.ts', 'd.ts'),
        oldPair: model.support('a.ts', 'b.ts'),
        mined: model.lastMined,
        ok: model.repoState?.ok,
      }),
    );
    assert.deepEqual(atFirst, [{ commits: 4, newPair: 4, oldPair: 0, mined: undefined, ok: true }]);
    assert.equal(result.mode, 'rebuild');
    assert.equal(model.commitCount, 12);
    assert.equal(model.support('a.ts', 'b.ts'), 6);
    assert.equal(model.lastMined, repo.head());
    const reopened = new CoChangeModel({ root: repo.dir, store, logger: nullLogger });
    assert.equal(reopened.commitCount, 12, 'the cache holds the whole history');
  });

  it('mines once when the history is shorter than the first pass, and never without a listener', async () => {
    const short = new CoChangeModel({ root: repo.dir, store, logger: nullLogger, firstPassCommits: 50 });
    let heard = 0;
    const r = await short.update(undefined, undefined, () => heard++);
    assert.equal(heard, 0);
    assert.equal(r.commits, 12);
    assert.equal(short.commitCount, 12);

    await short.reset();
    const read: number[] = [];
    const quiet = new CoChangeModel({ root: repo.dir, store, logger: nullLogger, firstPassCommits: 4 });
    await quiet.update(undefined, (done) => read.push(done));
    assert.equal(read.length, 12, 'one pass over the whole history');
  });

  it('leaves the next update to mine everything when the pass stops after its first part', async () => {
    const model = new CoChangeModel({ root: repo.dir, store, logger: nullLogger, firstPassCommits: 4 });
    const stop = new AbortController();
    const stopped = await model.update(stop.signal, undefined, () => stop.abort());
    assert.equal(stopped.mode, 'unavailable');
    assert.equal(model.lastMined, undefined);
    assert.equal(model.commitCount, 4, 'the first part still answers');
    const next = await model.update();
    assert.equal(next.mode, 'rebuild');
    assert.equal(model.commitCount, 12);
  });
});
