import assert from 'node:assert/strict';
import { CoChangeCounts } from '../../../src/core/cochange/cochangeCounts';
import { PackedBroadChanges } from '../../../src/core/cochange/packedBroadChanges';
import { PackedCounts } from '../../../src/core/cochange/packedCounts';
import { PathTable } from '../../../src/core/cochange/pathTable';
import { TimeSlice } from '../../../src/core/timeSlice';
import { loopTurnsDuring } from '../loopTurns';

/** Commits over `files` files: each touches a few neighbours, some of them again and again. */
function deltaOf(commits: number, files: number, from = 0): CoChangeCounts {
  const delta = new CoChangeCounts(30, false);
  for (let c = from; c < from + commits; c++) {
    const set = [0, 1, 2, 3].map((k) => `src/area${(c + k * 7) % 9}/file${(c * 13 + k * 31) % files}.ts`);
    delta.add([...new Set(set)], 1_700_000_000_000 + c * 60_000);
  }
  return delta;
}

describe('applying a mined history in slices', () => {
  it('merges pair counts with the event loop free between slices, to the same counts as at once', async () => {
    const paths = new PathTable();
    const sliced = new PackedCounts(30, paths);
    const whole = new PackedCounts(30, paths);
    // Two deltas, as a rebuild folds them: the second adds to pairs the first made.
    for (const delta of [deltaOf(1500, 600), deltaOf(800, 600, 1500)]) {
      const { turns } = await loopTurnsDuring(() => sliced.mergeInSlices(delta, new TimeSlice(0)));
      // In one step before (merge inside the model's apply): the event loop did not run.
      assert.ok(turns >= delta.files.size, `the event loop ran ${turns} times over ${delta.files.size} files`);
      whole.merge(delta);
    }
    assert.equal(sliced.commitCount, whole.commitCount);
    for (const path of paths.all()) {
      assert.equal(sliced.commitsOf(path), whole.commitsOf(path), path);
      assert.deepEqual(sliced.coChanged(path, 50), whole.coChanged(path, 50), path);
    }
  });

  it('adds the large change sets in slices, oldest first, as one by one', async () => {
    const paths = new PathTable();
    const sets = Array.from({ length: 300 }, (_, i) => ({
      files: Array.from({ length: 40 }, (_, k) => `lib/f${(i * 3 + k) % 500}.ts`),
      time: 1_700_000_000_000 + i,
    }));
    const sliced = new PackedBroadChanges(paths, 31, 1000, 200);
    const { turns } = await loopTurnsDuring(() => sliced.addInSlices(sets, new TimeSlice(0)));
    assert.ok(turns >= sets.length, `the event loop ran ${turns} times over ${sets.length} change sets`);
    const whole = new PackedBroadChanges(paths, 31, 1000, 200);
    for (const s of sets) whole.add(s.files, s.time);
    assert.deepEqual(sliced.all(), whole.all());
    assert.deepEqual(sliced.changesOf('lib/f7.ts', 5), whole.changesOf('lib/f7.ts', 5));
  });
});
