import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { walkFiles, walkFilesAsync, type WalkOptions } from '../../../src/core/sources/reports/walk';
import { TimeSlice } from '../../../src/core/timeSlice';

describe('walking the workspace without holding the thread', () => {
  let root: string;

  before(() => {
    root = mkdtempSync(join(tmpdir(), 'pc-walk-'));
    const files = ['README.md', 'docs/a.md', 'docs/deep/b.md', 'node_modules/x/c.md', '.hidden/d.md'];
    for (let i = 0; i < 40; i++) files.push(`many/f${i}/g/e${i}.xml`);
    for (const f of files) {
      mkdirSync(dirname(join(root, f)), { recursive: true });
      writeFileSync(join(root, f), 'x');
    }
  });

  after(() => rmSync(root, { recursive: true, force: true }));

  const cases: [string, WalkOptions][] = [
    ['everything', { maxDepth: 20, maxEntries: 10_000 }],
    ['a depth cap', { maxDepth: 1, maxEntries: 10_000 }],
    ['an entry cap', { maxDepth: 20, maxEntries: 30 }],
    ['skipped folders', { maxDepth: 20, maxEntries: 10_000, enterDir: (_rel, name) => !name.startsWith('.') }],
  ];
  for (const [what, options] of cases) {
    it(`lists the same files in the same order as the synchronous walk, with ${what}`, async () => {
      const sync = walkFiles(root, options);
      assert.ok(sync.files.length > 0);
      assert.deepEqual(await walkFilesAsync(root, options), sync);
    });
  }

  it('lets a timer run during a long loop of synchronous steps', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const slice = new TimeSlice(5);
    try {
      // Busy steps of 2 ms each: only the slice's pauses let the timer fire.
      for (let step = 0; step < 2000 && ticks < 3; step++) {
        const end = performance.now() + 2;
        while (performance.now() < end);
        await slice.pause();
      }
      assert.ok(ticks >= 3, `the timer fired ${ticks} times`);
    } finally {
      clearInterval(timer);
    }
  });
});
