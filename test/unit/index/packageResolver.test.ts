import assert from 'node:assert/strict';
import { runCochangeEval, type QueryTrace } from '../../../src/measure/eval/cochangeEval';
import { isResolutionConfig, PackageResolver } from '../../../src/core/index/packageResolver';
import { TempRepo } from '../git/repoFixture';

describe('package-name imports in the evaluation', () => {
  it('resolves workspace packages through exports, main and tsconfig paths', () => {
    const files = new Set([
      'packages/runner/src/index.ts',
      'packages/runner/src/utils/index.ts',
      'packages/utils/src/index.ts',
      'packages/utils/src/diff.ts',
      'packages/spy/lib/main.ts',
      'test/test-utils/index.ts',
    ]);
    const json: Record<string, Record<string, unknown>> = {
      'packages/runner/package.json': {
        name: '@scope/runner',
        exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js' }, './utils': './dist/utils.js' },
      },
      'packages/utils/package.json': { name: '@scope/utils', main: './dist/index.js' },
      'packages/spy/package.json': { name: 'spy', main: './lib/main.js' },
      'tsconfig.json': { compilerOptions: { paths: { '#test-utils': ['./test/test-utils/index.ts'] } } },
    };
    for (const p of Object.keys(json)) files.add(p);
    const r = new PackageResolver(
      (p) => files.has(p),
      (p) => json[p],
      Object.keys(json).filter((p) => p.endsWith('package.json')),
    );
    assert.equal(r.resolve('test/a.test.ts', '@scope/runner'), 'packages/runner/src/index.ts');
    assert.equal(r.resolve('test/a.test.ts', '@scope/runner/utils'), 'packages/runner/src/utils/index.ts');
    assert.equal(r.resolve('test/a.test.ts', '@scope/utils'), 'packages/utils/src/index.ts');
    assert.equal(r.resolve('test/a.test.ts', '@scope/utils/diff'), 'packages/utils/src/diff.ts');
    assert.equal(r.resolve('test/a.test.ts', 'spy'), 'packages/spy/lib/main.ts');
    assert.equal(r.resolve('test/a.test.ts', '#test-utils'), 'test/test-utils/index.ts');
    assert.equal(
      r.resolve('test/a.test.ts', 'react'),
      undefined,
      'packages from the registry are not in the repository',
    );
    assert.equal(r.resolve('test/a.test.ts', './local'), undefined, 'relative specifiers are not its business');
    assert.ok(isResolutionConfig('packages/a/package.json') && isResolutionConfig('tsconfig.base.json'));
    assert.ok(!isResolutionConfig('node_modules/x/package.json') && !isResolutionConfig('src/package.ts'));
  });

  it('links a test to the workspace package it imports by name, as of the parent commit', async () => {
    const repo = new TempRepo();
    try {
      repo.commit('runner package', {
        'packages/runner/package.json': JSON.stringify({ name: '@scope/runner', main: './dist/index.js' }),
        'packages/runner/src/index.ts': 'export const run = 1;\n',
      });
      repo.commit('test it', { 'test/run.test.ts': "import { run } from '@scope/runner';\nexport const t = run;\n" });
      repo.commit('unrelated', { 'lib/x.ts': 'export const x = 1;\n', 'lib/y.ts': 'export const y = 1;\n' });
      repo.commit('touch both', { 'lib/x.ts': 'export const x = 2;\n', 'lib/y.ts': 'export const y = 2;\n' });
      // Evaluated: the package and its test change together for the first time, so only the import links them.
      repo.commit('change runner and its test', {
        'packages/runner/src/index.ts': 'export const run = 2;\n',
        'test/run.test.ts': "import { run } from '@scope/runner';\nexport const t = run + 1;\n",
      });
      // Renaming the package afterwards must not matter to the earlier commit.
      repo.commit('rename the package', {
        'packages/runner/package.json': JSON.stringify({ name: '@scope/renamed', main: './dist/index.js' }),
        'lib/x.ts': 'export const x = 3;\n',
      });
      const traces: QueryTrace[] = [];
      const res = await runCochangeEval(repo.dir, {
        replay: 1,
        offset: 0,
        window: 100,
        seed: 1,
        inspect: (t) => traces.push(t),
      });
      assert.equal(res.queries, 1);
      const t = traces[0];
      assert.equal(repo.git('log', '-1', '--format=%s', t.commit).trim(), 'change runner and its test');
      if (t.query === 'test/run.test.ts')
        assert.deepEqual(t.imports!.importsOf(t.query), ['packages/runner/src/index.ts']);
      else assert.deepEqual(t.imports!.importersOf(t.query), ['test/run.test.ts']);
      assert.deepEqual(t.rose, [], 'no shared history');
      assert.equal(t.ranked[0], t.truth[0], 'the import puts the partner first');
    } finally {
      repo.dispose();
    }
  });
});
