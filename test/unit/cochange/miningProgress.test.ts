import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoChangeModel } from '../../../src/core/cochange/cochangeModel';
import { nullLogger } from '../../../src/core/logger';
import { Store } from '../../../src/core/store/store';
import { TempRepo } from '../git/repoFixture';

describe('CoChangeModel mining progress', () => {
  it('tells each commit read, with a total never below what was read, and nothing when there is nothing new', async () => {
    const repo = new TempRepo();
    const stateDir = mkdtempSync(join(tmpdir(), 'pc-state-'));
    const store = await Store.open({ stateDir });
    try {
      for (let i = 0; i < 12; i++) repo.change(`c${i}`, [`f${i % 3}.ts`, 'shared.ts']);
      const model = new CoChangeModel({ root: repo.dir, store, logger: nullLogger });
      const seen: [number, number][] = [];
      const first = await model.update(undefined, (done, total) => seen.push([done, total]));
      assert.equal(first.commits, 12);
      assert.deepEqual(
        seen.map(([done]) => done),
        Array.from({ length: 12 }, (_, i) => i + 1),
      );
      assert.ok(
        seen.every(([done, total]) => total >= done && total <= 12),
        JSON.stringify(seen),
      );
      repo.change('c12', ['f0.ts']);
      const later: number[] = [];
      await model.update(undefined, (done) => later.push(done));
      assert.deepEqual(later, [1], 'only the new commit is read');
      const none: number[] = [];
      await model.update(undefined, (done) => none.push(done));
      assert.deepEqual(none, []);
    } finally {
      store.dispose();
      repo.dispose();
      rmSync(stateDir, { recursive: true, force: true });
    }
  });
});
