import assert from 'node:assert/strict';
import { CoChangeCounts } from '../../../src/core/cochange/cochangeCounts';
import {
  candidateFeatures,
  DEFAULT_WEIGHTS,
  FEATURE_NAMES,
  relatedFiles,
  type ImportGraph,
} from '../../../src/core/cochange/relatedFiles';
import { FileIndex, isTestFile, testStem } from '../../../src/core/cochange/testPairing';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 0, 1);

describe('relatedFiles', () => {
  it('keeps the features of each candidate apart past a few hundred candidates', () => {
    const counts = new CoChangeCounts();
    // 400 partners, each changed with the query a different number of times (1..4).
    for (let i = 0; i < 400; i++)
      for (let k = 0; k <= i % 4; k++) counts.add(['src/hub.ts', `src/p${i}.ts`], NOW - (i + 1) * 60_000 - k);
    const ctx = { cochange: counts, now: NOW };
    const cands = candidateFeatures('src/hub.ts', ctx);
    assert.equal(cands.length, 400);
    const support = FEATURE_NAMES.indexOf('logSupport');
    for (const c of cands) assert.equal(c.x[support], Math.log1p(1 + (Number(/p(\d+)/.exec(c.path)![1]) % 4)), c.path);
    // The ranking reads the same rows: the best are the partners changed four times.
    const top = relatedFiles('src/hub.ts', ctx, 5);
    assert.ok(
      top.every((r) => r.support === 4),
      JSON.stringify(top.map((r) => [r.path, r.support])),
    );
  });

  it('pairs tests and implementations across the usual conventions', () => {
    for (const [impl, test] of [
      ['src/foo.ts', 'src/foo.test.ts'],
      ['src/foo.ts', 'src/foo.spec.ts'],
      ['src/foo.ts', 'src/__tests__/foo.ts'],
      ['pkg/foo.py', 'pkg/test_foo.py'],
      ['pkg/foo.go', 'pkg/foo_test.go'],
      ['src/main/Foo.java', 'src/test/FooTest.java'],
    ]) {
      assert.equal(isTestFile(test), true, test);
      assert.equal(isTestFile(impl), false, impl);
      assert.equal(testStem(test), testStem(impl), `${impl} ~ ${test}`);
      const idx = new FileIndex([impl, test, 'src/other.ts']);
      assert.deepEqual(idx.testPartners(impl), [test]);
      assert.deepEqual(idx.testPartners(test), [impl]);
    }
  });

  it('pairs a test with the file named like all of it: app.controller.spec.ts is not app.module.ts’s test', () => {
    const idx = new FileIndex([
      'apps/api/src/app.module.ts',
      'apps/api/src/app.controller.ts',
      'apps/api/src/app.controller.spec.ts',
      'apps/api/test/app.e2e-spec.ts',
      'src/lifecycle/lifecycle.ts',
      'src/lifecycle/lifecycle.e2e.test.ts',
      'src/kaart/kaart.component.ts',
      'src/kaart/kaart.service.ts',
      'src/kaart/kaart.component.spec.ts',
    ]);
    assert.deepEqual(idx.testPartners('apps/api/src/app.module.ts'), []);
    assert.deepEqual(idx.testPartners('apps/api/src/app.controller.spec.ts'), ['apps/api/src/app.controller.ts']);
    assert.deepEqual(idx.testPartners('apps/api/test/app.e2e-spec.ts'), []);
    assert.deepEqual(idx.testPartners('src/lifecycle/lifecycle.ts'), ['src/lifecycle/lifecycle.e2e.test.ts']);
    assert.deepEqual(idx.testPartners('src/kaart/kaart.service.ts'), []);
    assert.deepEqual(idx.testPartners('src/kaart/kaart.component.spec.ts'), ['src/kaart/kaart.component.ts']);
  });

  it('reads a file of a spec/ folder that marks its tests by name as code, not as a test', () => {
    const schema = 'src/lib/openapi/spec/create-feature-schema.ts';
    const idx = new FileIndex([
      schema,
      'src/lib/openapi/spec/create-feature-schema.test.ts',
      'frontend/src/openapi/models/createFeatureSchema.ts',
      'spec/models/message_spec.rb',
      'app/models/message.rb',
    ]);
    assert.deepEqual(idx.testPartners(schema), ['src/lib/openapi/spec/create-feature-schema.test.ts']);
    assert.deepEqual(idx.distantTestPartners(schema), []);
    assert.deepEqual(idx.testPartners('app/models/message.rb'), ['spec/models/message_spec.rb']);
  });

  it('ranks by co-change with shrinkage and explains why', () => {
    const counts = new CoChangeCounts();
    for (let i = 0; i < 9; i++) counts.add(i < 7 ? ['src/a.ts', 'src/b.ts'] : ['src/a.ts'], NOW - (20 - i) * DAY);
    counts.add(['src/lonely.ts', 'src/once.ts'], NOW - DAY);
    counts.add(['src/a.ts', 'src/once.ts'], NOW - DAY);
    const res = relatedFiles('src/a.ts', { cochange: counts, now: NOW });
    assert.equal(res[0].path, 'src/b.ts');
    assert.equal(res[0].support, 7);
    assert.match(res[0].reasons[0], /^changed together in 7 of 10 commits/);
    assert.ok(res[0].score > res[1].score, '7 of 10 beats 1 of 10');
    for (const r of res) assert.ok(r.score > 0 && r.score <= 1);
  });

  it('brings in imports, importers and the test even without shared history', () => {
    const counts = new CoChangeCounts();
    counts.add(['src/util.ts', 'src/x.ts'], NOW - DAY);
    counts.add(['src/app.ts', 'src/y.ts'], NOW - DAY);
    const graph: ImportGraph = {
      importsOf: (p) => (p === 'src/feature.ts' ? ['src/util.ts'] : []),
      importersOf: (p) => (p === 'src/feature.ts' ? ['src/app.ts'] : []),
    };
    const files = new FileIndex([
      'src/feature.ts',
      'src/feature.test.ts',
      'src/util.ts',
      'src/app.ts',
      'src/x.ts',
      'src/y.ts',
    ]);
    const res = relatedFiles('src/feature.ts', { cochange: counts, imports: graph, files, now: NOW });
    const by = new Map(res.map((r) => [r.path, r]));
    assert.ok(by.get('src/util.ts')!.score > by.get('src/y.ts')!.score, 'an import outranks a sibling as active as it');
    assert.deepEqual(by.get('src/x.ts')!.reasons, ['in the same folder']);
    assert.deepEqual(by.get('src/feature.test.ts')!.reasons, ['its test, by naming convention']);
    assert.ok(by.get('src/util.ts')!.reasons.includes('imported by this file'));
    assert.ok(by.get('src/app.ts')!.reasons.includes('imports this file'));
  });

  it('lets the trees reorder what the linear model ties', () => {
    const counts = new CoChangeCounts();
    // Two partners with the same history, except that b.ts changed with a.ts in its latest commit.
    counts.add(['src/a.ts', 'src/c.ts'], NOW - 30 * DAY);
    counts.add(['src/a.ts', 'src/b.ts'], NOW - 29 * DAY);
    counts.add(['src/a.ts', 'src/c.ts'], NOW - 3 * DAY);
    counts.add(['src/a.ts', 'src/b.ts'], NOW - 2 * DAY);
    const model = [0, 1, ...new Array<number>(FEATURE_NAMES.length - 1).fill(0)];
    const plain = relatedFiles('src/a.ts', { cochange: counts, now: NOW }, 10, {
      ...DEFAULT_WEIGHTS,
      model,
      trees: [],
    });
    assert.equal(plain[0].score, plain[1].score, 'same confidence, same score');
    const lastWith = FEATURE_NAMES.indexOf('lastWithQuery');
    const trees = [
      [
        [lastWith, 0.5, 1, 2],
        [-1, -2],
        [-1, 2],
      ],
    ];
    const boosted = relatedFiles('src/a.ts', { cochange: counts, now: NOW }, 10, { ...DEFAULT_WEIGHTS, model, trees });
    assert.equal(boosted[0].path, 'src/b.ts');
    assert.equal(boosted[1].path, 'src/c.ts');
    assert.ok(boosted[0].score > boosted[1].score + 0.5);
  });

  it('never suggests files that no longer exist', () => {
    const counts = new CoChangeCounts();
    counts.add(['a.ts', 'gone.ts'], NOW);
    counts.add(['a.ts', 'b.ts'], NOW);
    const res = relatedFiles('a.ts', { cochange: counts, files: new FileIndex(['a.ts', 'b.ts']), now: NOW });
    assert.deepEqual(
      res.map((r) => r.path),
      ['b.ts'],
    );
  });

  it('forgets a change set when the window slides past it', () => {
    const counts = new CoChangeCounts();
    const first = ['a.ts', 'b.ts'];
    counts.add(first, NOW);
    counts.add(['a.ts', 'c.ts'], NOW + 1);
    counts.remove(first);
    assert.equal(counts.support('a.ts', 'b.ts'), 0);
    assert.equal(counts.commitsOf('b.ts'), 0);
    assert.equal(counts.commitsOf('a.ts'), 1);
    assert.deepEqual(
      counts.coChanged('a.ts').map((r) => r.path),
      ['c.ts'],
    );
  });
});
