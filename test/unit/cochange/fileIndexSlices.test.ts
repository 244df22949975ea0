import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoChangeModel } from '../../../src/core/cochange/cochangeModel';
import { FileIndex } from '../../../src/core/cochange/testPairing';
import { resolveConfig } from '../../../src/core/config';
import { GitService } from '../../../src/core/git/gitService';
import type { QueryContext } from '../../../src/core/sources/sourceQuery';
import { HistorySources } from '../../../src/core/sources/git/historySources';
import { TimeSlice } from '../../../src/core/timeSlice';
import { TempRepo } from '../git/repoFixture';
import { loopTurnsDuring } from '../loopTurns';

const NOW = 1_700_000_000_000;

/** A tree of `n` files in nested folders, with tests beside some of them. */
function tree(n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const dir = `packages/pkg${i % 7}/src/area${i % 13}`;
    out.push(i % 5 === 0 ? `${dir}/orderLedger${i}.test.ts` : `${dir}/orderLedger${i % 400}Service.ts`);
  }
  return [...new Set(out)];
}

describe('the related-files file index, built in slices', function () {
  this.timeout(60000);

  it('is the same index as one built at once, and lets the event loop run while it is built', async () => {
    const paths = tree(3000);
    const { result: sliced, turns } = await loopTurnsDuring(() => FileIndex.build(paths, new TimeSlice(0)));
    assert.ok(turns >= paths.length, `the event loop ran ${turns} times while ${paths.length} files were indexed`);
    const whole = new FileIndex(paths);
    for (const p of [paths[0], paths[1], paths[17], paths[paths.length - 1]]) {
      assert.deepEqual(sliced.similarNames(p, 10), whole.similarNames(p, 10));
      assert.deepEqual(sliced.testPartners(p), whole.testPartners(p));
      assert.deepEqual(sliced.distantTestPartners(p), whole.distantTestPartners(p));
    }
    const words = new Map([
      ['order', 3],
      ['ledger', 2],
      ['service', 1],
    ]);
    assert.deepEqual(sliced.namedBy(words, paths[0], 10), whole.namedBy(words, paths[0], 10));
    assert.deepEqual(sliced.inDirectory('packages/pkg1/src/area1'), whole.inDirectory('packages/pkg1/src/area1'));
  });

  it('is built in slices by the first co-change query, not in one step inside the ranking', async () => {
    const state = mkdtempSync(join(tmpdir(), 'pc-file-index-slices-'));
    const repo = new TempRepo();
    try {
      repo.commit('base', { 'src/ledger.ts': 'export const ledger = 1;\n', 'src/ledger.test.ts': 'ledger();\n' });
      const git = new GitService(repo.dir);
      const model = new CoChangeModel({ root: repo.dir, store: { stateDir: state }, git });
      await model.update();
      // The code index lists many more files than the repository holds: the file index is built over them.
      const listed = ['src/ledger.ts', 'src/ledger.test.ts', ...tree(2000)];
      const sources = new HistorySources(
        repo.dir,
        git,
        model,
        { importsOf: () => [], importersOf: () => [] },
        () => listed,
        () => NOW,
        () => new TimeSlice(0),
      );
      await sources.refreshWorkingTree();
      const ctx: QueryContext = {
        query: { currentFile: 'src/ledger.ts' },
        config: resolveConfig({}),
        now: NOW,
        signal: new AbortController().signal,
        note: () => undefined,
      };
      const { result: items, turns } = await loopTurnsDuring(() => sources.cochangeSource().collect(ctx));
      // Built inside related() before: the event loop did not run while 2,000 files were indexed.
      assert.ok(turns >= listed.length, `the event loop ran ${turns} times while ${listed.length} files were indexed`);
      assert.ok(
        items.some((i) => i.title === 'src/ledger.test.ts'),
        items.map((i) => i.title).join(', '),
      );
      const index = (sources as unknown as { fileIndex?: FileIndex }).fileIndex;
      assert.ok(index?.has('src/ledger.test.ts'), 'the ranking uses the index built ahead');
    } finally {
      repo.dispose();
      rmSync(state, { recursive: true, force: true });
    }
  });
});
