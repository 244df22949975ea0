import assert from 'node:assert/strict';
import { BroadChanges, decodeBroad, encodeBroad, MAX_BROAD_CHANGE_SET } from '../../../src/core/cochange/broadChanges';
import { CoChangeCounts, MAX_CHANGE_SET } from '../../../src/core/cochange/cochangeCounts';
import { PackedBroadChanges } from '../../../src/core/cochange/packedBroadChanges';
import { PathTable } from '../../../src/core/cochange/pathTable';
import { prng } from '../../../src/core/random';
import { relatedFiles } from '../../../src/core/cochange/relatedFiles';
import { FileIndex } from '../../../src/core/cochange/testPairing';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 0, 1);

function files(prefix: string, n: number): string[] {
  return Array.from({ length: n }, (_, i) => `${prefix}/f${i}.ts`);
}

describe('wider candidates: large change sets, names and distant tests', () => {
  it('keeps only change sets between the pair limit and a sweep, newest first per file', () => {
    const broad = new BroadChanges();
    const small = files('src/small', MAX_CHANGE_SET);
    const feature = [...files('src/drivers', 40), 'src/core.ts'];
    const later = [...files('src/other', 35), 'src/core.ts'];
    const sweep = files('src/all', MAX_BROAD_CHANGE_SET + 1);
    assert.equal(broad.add(small, NOW - 3 * DAY), false, 'small sets are counted in pairs instead');
    assert.equal(broad.add(feature, NOW - 2 * DAY), true);
    assert.equal(broad.add(later, NOW - DAY), true);
    assert.equal(broad.add(sweep, NOW), false, 'a sweep says nothing');
    assert.equal(broad.size, 2);
    assert.deepEqual(
      broad.changesOf('src/core.ts', 10).map((c) => c.time),
      [NOW - DAY, NOW - 2 * DAY],
    );
    assert.deepEqual(
      broad.changesOf('src/core.ts', 1).map((c) => c.time),
      [NOW - DAY],
    );
    assert.deepEqual(broad.changesOf('src/small/f0.ts', 10), []);

    // The window slides: the oldest set goes, the newer stays.
    assert.equal(broad.remove(later), false, 'only the oldest set can leave');
    assert.equal(broad.remove(feature), true);
    assert.deepEqual(
      broad.changesOf('src/core.ts', 10).map((c) => c.time),
      [NOW - DAY],
    );
    assert.deepEqual(broad.changesOf('src/drivers/f0.ts', 10), []);
    assert.equal(broad.size, 1);
  });

  it('keeps at most its limit of sets, dropping the oldest', () => {
    const broad = new BroadChanges(MAX_CHANGE_SET + 1, MAX_BROAD_CHANGE_SET, 2);
    for (let i = 0; i < 4; i++) broad.add([...files(`src/s${i}`, 40), 'src/core.ts'], NOW + i);
    assert.equal(broad.size, 2);
    assert.deepEqual(
      broad.changesOf('src/core.ts', 10).map((c) => c.time),
      [NOW + 3, NOW + 2],
    );
    assert.deepEqual(broad.changesOf('src/s0/f0.ts', 10), [], 'the oldest sets are gone');
  });

  it('packs the sets of a long-lived model and answers exactly as the plain sets, through the limit and the cache file', () => {
    const random = prng(7);
    const plain = new BroadChanges(MAX_CHANGE_SET + 1, MAX_BROAD_CHANGE_SET, 25);
    const packed = new PackedBroadChanges(new PathTable(), MAX_CHANGE_SET + 1, MAX_BROAD_CHANGE_SET, 25);
    const pool = files('src/pool', 120);
    for (let i = 0; i < 60; i++) {
      const size = 20 + Math.floor(random() * 60);
      const set = [...new Set(Array.from({ length: size }, () => pool[Math.floor(random() * pool.length)]))];
      assert.equal(packed.add(set, NOW + i), plain.add(set, NOW + i), `set ${i} of ${set.length} files`);
    }
    const answers = (b: BroadChanges | PackedBroadChanges) =>
      [...pool, 'src/unknown.ts'].map((f) => [b.changesOf(f, 3), b.changesOf(f, 100)]);
    assert.deepEqual(answers(packed), answers(plain));
    assert.equal(packed.size, 25);
    const back = new PackedBroadChanges(new PathTable(), MAX_CHANGE_SET + 1, MAX_BROAD_CHANGE_SET, 25);
    assert.deepEqual(decodeBroad(encodeBroad(packed, 'h1'), back), { head: 'h1' });
    assert.equal(encodeBroad(packed, 'h1'), encodeBroad(plain, 'h1'), 'one file format for both');
    assert.deepEqual(answers(back), answers(plain));
    assert.ok(packed.byteSize < 25 * 80 * 4 * 2 + 121 * 4 + 25 * 16, `${packed.byteSize} bytes`);
  });

  it('ranks files that shared a large change with the query, with a reason, below real co-change', () => {
    const counts = new CoChangeCounts();
    const broad = new BroadChanges();
    const feature = [...files('src/drivers', 40), 'src/query.ts'];
    for (const set of [feature]) {
      counts.add(set, NOW - 5 * DAY);
      broad.add(set, NOW - 5 * DAY);
    }
    counts.add(['src/query.ts', 'src/partner.ts'], NOW - 2 * DAY);
    counts.add(['src/query.ts', 'src/partner.ts'], NOW - DAY);

    const without = relatedFiles('src/query.ts', { cochange: counts, now: NOW }, 50);
    assert.deepEqual(
      without.map((r) => r.path),
      ['src/partner.ts'],
      'without large sets only the pair is known',
    );

    const res = relatedFiles('src/query.ts', { cochange: counts, broad, now: NOW }, 50);
    assert.equal(res[0].path, 'src/partner.ts');
    const driver = res.find((r) => r.path === 'src/drivers/f7.ts');
    assert.ok(driver, 'a file from the large change set is a candidate');
    assert.ok(driver.score < res[0].score);
    assert.ok(driver.reasons.includes('changed with it in 1 large change'), driver.reasons.join('; '));
  });

  it('brings in at most the hundred files shared most often from many large change sets', () => {
    const counts = new CoChangeCounts();
    const broad = new BroadChanges();
    for (let i = 0; i < 10; i++) {
      // Ten large changes of the core file, each with 40 files of its own and one file every time.
      broad.add([...files(`src/feature${i}`, 40), 'src/core.ts', 'src/always.ts'], NOW - (10 - i) * DAY);
    }
    const res = relatedFiles('src/core.ts', { cochange: counts, broad, now: NOW }, 1000);
    assert.equal(res.length, 100);
    assert.equal(res[0].path, 'src/always.ts', 'the file in every large change first');
    assert.ok(res[0].reasons.includes('changed with it in 10 large changes'));
  });

  it('gives the direct link first when a file is also found through partners of partners', () => {
    const counts = new CoChangeCounts();
    let t = NOW - 100 * DAY;
    for (let i = 0; i < 19; i++) counts.add(['src/a.ts', 'src/mid.ts'], (t += DAY));
    for (let i = 0; i < 19; i++) counts.add(['src/mid.ts', 'src/b.ts'], (t += DAY));
    counts.add(['src/a.ts', 'src/b.ts'], (t += DAY));
    const b = relatedFiles('src/a.ts', { cochange: counts, now: NOW }).find((r) => r.path === 'src/b.ts');
    assert.ok(b);
    assert.deepEqual(
      b.reasons.map((r) => r.replace(/,.*/, '')),
      ['changed together in 1 of 20 commits', 'changes with files that change with this one'],
    );
  });

  it('finds files whose names share rare words, not the words every path has', () => {
    const index = new FileIndex([
      'packages/runner/src/reporters/summary.ts',
      'packages/runner/src/reporters/verbose.ts',
      'packages/runner/src/pool.ts',
      'packages/runner/src/index.ts',
      'test/cli/reporters/summary.test.ts',
      'test/cli/reporters/default.test.ts',
      'test/cli/pool/threads.test.ts',
      'test/cli/config/config.test.ts',
    ]);
    const similar = index.similarNames('packages/runner/src/reporters/summary.ts', 10);
    const names = similar.map(([p]) => p);
    assert.equal(names[0], 'test/cli/reporters/summary.test.ts', 'the same name and folder word first');
    assert.ok(names.includes('test/cli/reporters/default.test.ts'));
    assert.ok(!names.includes('test/cli/config/config.test.ts'), 'shares no word');
    for (const [, score] of similar) assert.ok(score > 0 && score <= 1);
    assert.deepEqual(index.similarNames('src/x.ts', 10), [], 'a path with no words has no similar names');
  });

  it('pairs a test far away only when its name is distinctive', () => {
    const index = new FileIndex([
      'packages/vitest/src/node/reporters/junit.ts',
      'test/e2e/test/reporters/junit.test.ts',
      'packages/a/src/utils.ts',
      'test/e2e/test/a/utils.test.ts',
      'test/e2e/test/b/utils.test.ts',
      'test/e2e/test/c/utils.test.ts',
    ]);
    assert.deepEqual(
      index.testPartners('packages/vitest/src/node/reporters/junit.ts'),
      [],
      'too far for the nearby rule',
    );
    assert.deepEqual(index.distantTestPartners('packages/vitest/src/node/reporters/junit.ts'), [
      'test/e2e/test/reporters/junit.test.ts',
    ]);
    assert.deepEqual(index.distantTestPartners('test/e2e/test/reporters/junit.test.ts'), [
      'packages/vitest/src/node/reporters/junit.ts',
    ]);
    assert.deepEqual(
      index.distantTestPartners('packages/a/src/utils.ts'),
      [],
      'three tests named utils: no way to tell which',
    );

    const counts = new CoChangeCounts();
    const res = relatedFiles('packages/vitest/src/node/reporters/junit.ts', {
      cochange: counts,
      files: index,
      now: NOW,
    });
    const test = res.find((r) => r.path === 'test/e2e/test/reporters/junit.test.ts');
    assert.ok(test, 'the distant test is suggested');
    assert.ok(test.reasons.includes('a test with its name'));
  });
});

describe('large change sets on disk', () => {
  it('round-trips through encodeBroad and decodeBroad', () => {
    const broad = new BroadChanges();
    broad.add([...files('src/a', 40), 'src/shared.ts'], NOW - DAY);
    broad.add([...files('src/b', 35), 'src/shared.ts'], NOW);
    const text = encodeBroad(broad, 'abc123');
    assert.ok(text.split('src/shared.ts').length === 2, 'each path is written once');
    const back = new BroadChanges();
    assert.deepEqual(decodeBroad(text, back), { head: 'abc123' });
    assert.deepEqual(back.all(), broad.all());
    assert.deepEqual(
      back.changesOf('src/shared.ts', 5).map((c) => c.time),
      [NOW, NOW - DAY],
    );
  });

  it('refuses damaged or foreign data with a reason and keeps what it had', () => {
    const broad = new BroadChanges();
    broad.add(files('src/a', 40), NOW);
    const good = encodeBroad(broad, 'h');
    const target = new BroadChanges();
    target.add(files('src/kept', 33), NOW);
    const cases: [string, RegExp][] = [
      [good.slice(0, -5), /not JSON/],
      ['[]', /format/],
      [good.replace('"format":1', '"format":9'), /format 9/],
      [good.replace(/"sets":\[\[(\d+),\[0,/, '"sets":[[$1,[999,'), /unknown path/],
      [encodeBroad(new BroadChanges(31, 100), 'h'), /size limits/],
    ];
    for (const [text, reason] of cases) {
      const res = decodeBroad(text, target);
      assert.equal(typeof res, 'string', text.slice(0, 40));
      assert.match(res as string, reason);
      assert.equal(target.size, 1, 'nothing was changed');
    }
  });
});
