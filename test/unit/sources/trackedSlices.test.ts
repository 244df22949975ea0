import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileHistory } from '../../../src/core/cochange/fileHistory';
import { PathTable } from '../../../src/core/cochange/pathTable';
import { BulkCommits } from '../../../src/core/sources/git/bulkCommits';
import { TimeSlice } from '../../../src/core/timeSlice';
import { loopTurnsDuring } from '../loopTurns';

describe('counting the files history knows that are still there', () => {
  it('lets the event loop run between the checks, and finds the same files', async () => {
    const root = mkdtempSync(join(tmpdir(), 'pc-tracked-'));
    try {
      mkdirSync(join(root, 'src'));
      const paths = new PathTable();
      const kept: string[] = [];
      for (let i = 0; i < 1200; i++) {
        const p = `src/f${i}.ts`;
        paths.id(p);
        // Every third file was deleted since history saw it.
        if (i % 3) {
          writeFileSync(join(root, p), '');
          kept.push(p);
        }
      }
      const bulk = new BulkCommits(root, () => new FileHistory(paths));
      const { result, turns } = await loopTurnsDuring(() => bulk.countTracked(new TimeSlice(0)));
      // One step before: a file system check per path ever seen, the event loop held throughout.
      assert.ok(turns >= paths.size, `the event loop ran ${turns} times over ${paths.size} paths`);
      assert.deepEqual(result, kept);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
