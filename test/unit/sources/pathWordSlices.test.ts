import assert from 'node:assert/strict';
import { RepoTerms } from '../../../src/core/sources/decisions/repoTerms';
import { TimeSlice } from '../../../src/core/timeSlice';
import { loopTurnsDuring } from '../loopTurns';

/** The paths of a workspace of `n` files in packages of their own. */
function paths(n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(`packages/billing-${i % 40}/src/invoiceLedger${i}/settleCharge${i % 90}.ts`);
  for (let i = 0; i < 40; i++) out.push(`packages/billing-${i}/package.json`);
  return out;
}

describe('the word counts over the workspace paths', () => {
  it('let the event loop run while they are counted, and count the same as in one step', async () => {
    const list = paths(5000);
    const sliced = new RepoTerms();
    const { turns } = await loopTurnsDuring(() => sliced.setPaths(list, new TimeSlice(0)));
    // One step before: the event loop did not run while the decisions source counted the paths.
    assert.ok(turns >= list.length, `the event loop ran ${turns} times while ${list.length} paths were counted`);
    const whole = new RepoTerms();
    await whole.setPaths(list, new TimeSlice(Number.MAX_SAFE_INTEGER));
    assert.deepEqual(sliced.pathCounts(), whole.pathCounts());
    assert.equal(sliced.packageOf('packages/billing-3/src/x.ts'), 'packages/billing-3');
  });

  it('keep the old counts until the new ones are complete', async () => {
    const terms = new RepoTerms();
    await terms.setPaths(paths(100));
    const before = terms.pathCounts();
    const counting = terms.setPaths(paths(3000), new TimeSlice(0));
    await new Promise<void>((r) => setImmediate(r));
    assert.deepEqual(terms.pathCounts(), before, 'half-counted words are never read');
    await counting;
    assert.notDeepEqual(terms.pathCounts(), before);
  });

  it('count the words of the names files define and use in slices too, to the same shares', async () => {
    const rows = Array.from({ length: 2000 }, (_, i) => ({
      names: `settleInvoice${i % 50} refundLedger${i % 7}`,
      packages: i % 3 ? 'bullmq' : '@nestjs/common',
      uses: `chargeCard${i % 11} settleInvoice${i % 50}`,
    }));
    const sliced = new RepoTerms();
    const { turns } = await loopTurnsDuring(() => sliced.setFileVocabulary(rows, new TimeSlice(0)));
    // One step before, at the end of every build of the code index.
    assert.ok(turns >= rows.length, `the event loop ran ${turns} times over ${rows.length} files`);
    const whole = new RepoTerms();
    await whole.setFileVocabulary(rows, new TimeSlice(Number.MAX_SAFE_INTEGER));
    for (const word of ['settle', 'invoice', 'refund', 'ledger', 'charge', 'card', 'bullmq', 'nestjs'])
      assert.deepEqual([sliced.share(word), sliced.rarity(word)], [whole.share(word), whole.rarity(word)], word);
    assert.ok(sliced.share('bullmq') > 0);
  });
});
