import { strict as assert } from 'node:assert';
import { rmSync } from 'node:fs';
import { PackageResolver } from '../../../src/core/index/packageResolver';
import { FileSet, ImportResolver } from '../../../src/core/index/resolve';
import { factsOfSource, writeWorkspace } from './fixtureWorkspace';

// Repository text is hostile: each pattern below once backtracked over its input again and again
// (quadratic time). These inputs would keep them busy for minutes; the tests only have to finish.

const factsOf = factsOfSource;

describe('patterns over repository text', () => {
  it('Go "Deprecated:" paragraphs: a comment of a hundred thousand blank lines', async () => {
    const blank = '\n'.repeat(100_000);
    const facts = await factsOf(
      'go',
      `package p\n\n/*${blank} Deprecated: use New.\n*/\nfunc Old() {}\n\n/*${blank}*/\nfunc Fine() {}\n\n//${' '.repeat(100_000)}Deprecated: use Other.\nfunc Gone() {}\n`,
    );
    assert.deepEqual(
      facts.symbols.map((s) => [s.name, s.deprecated]),
      [
        ['Old', true],
        ['Fine', false],
        ['Gone', true],
      ],
    );
  });

  it('go.mod: a hundred thousand blank lines before other directives, then the module line', () => {
    const root = writeWorkspace({
      'go.mod': `${'\n'.repeat(100_000)}go 1.22\nmodule example.com/shop\n`,
      'cart/cart.go': 'package cart\n',
      'main.go': 'package main\n',
    });
    try {
      const resolver = new ImportResolver(root, new FileSet(['cart/cart.go', 'main.go']));
      const [hit] = resolver.resolve('main.go', 'go', {
        spec: 'example.com/shop/cart',
        names: [{ name: '*', local: 'cart' }],
        line: 1,
      });
      assert.equal(hit?.resolved, 'cart/cart.go');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('package.json entry points: many build folders before a line break', () => {
    const folders = 'lib/'.repeat(50_000);
    const json: Record<string, Record<string, unknown>> = {
      'packages/a/package.json': { name: 'a', main: `./${folders}\nindex.js` },
      'packages/b/package.json': { name: 'b', main: './dist/index.js' },
    };
    const files = new Set(['packages/b/src/index.ts', ...Object.keys(json)]);
    const r = new PackageResolver(
      (p) => files.has(p),
      (p) => json[p],
      Object.keys(json),
    );
    assert.equal(r.resolve('src/x.ts', 'a'), undefined);
    assert.equal(r.resolve('src/x.ts', 'b'), 'packages/b/src/index.ts');
  });

  it('import specifiers: many question marks before a line break', () => {
    const files = new Set(['packages/b/src/index.ts', 'packages/b/package.json']);
    const r = new PackageResolver(
      (p) => files.has(p),
      () => ({ name: 'b', main: './dist/index.js' }),
      ['packages/b/package.json'],
    );
    assert.equal(r.resolve('src/x.ts', `b?${'?'.repeat(100_000)}\nx`), 'packages/b/src/index.ts');
  });
});
