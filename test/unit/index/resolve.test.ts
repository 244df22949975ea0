import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ImportName } from '../../../src/core/index/facts';
import type { LangId } from '../../../src/core/index/languages';
import { FileSet, ImportResolver, parseLenientJson } from '../../../src/core/index/resolve';

describe('ImportResolver', () => {
  let root: string;
  let resolver: ImportResolver;

  const files = [
    'src/util/index.ts',
    'src/util/format.ts',
    'src/types.d.ts',
    'src/esm.ts',
    'src/view.tsx',
    'src/main.ts',
    'packages/web/src/app.ts',
    'packages/web/src/components/button.tsx',
    'packages/shared/lib/log.js',
    'legacy/index.jsx',
    'src/pyapp/__init__.py',
    'src/pyapp/models.py',
    'src/pyapp/api/__init__.py',
    'src/pyapp/api/routes.py',
    'tools/build.py',
  ];

  before(() => {
    root = mkdtempSync(join(tmpdir(), 'pc-resolve-'));
    const write = (rel: string, text = '') => {
      mkdirSync(dirname(join(root, rel)), { recursive: true });
      writeFileSync(join(root, rel), text);
    };
    for (const f of files) write(f);
    write(
      'tsconfig.base.json',
      '{\n  // shared\n  "compilerOptions": { "baseUrl": ".", "paths": { "@shared/*": ["packages/shared/lib/*"], }, },\n}\n',
    );
    write(
      'packages/web/tsconfig.json',
      '{ "extends": "../../tsconfig.base.json", "compilerOptions": { "baseUrl": "src", "paths": { "~/*": ["./*"] } } }',
    );
    write('tsconfig.json', '{ "extends": "./tsconfig.base.json" /* root */ }');
    resolver = new ImportResolver(root, new FileSet(files));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  const js = (from: string, spec: string, lang: LangId = 'typescript') =>
    resolver.resolve(from, lang, { spec, names: [], line: 1 })[0].resolved;
  const py = (from: string, spec: string, names: ImportName[] = []) =>
    resolver.resolve(from, 'python', { spec, names, line: 1 }).map((r) => [r.resolved, r.names.map((n) => n.local)]);

  it('probes extensions, index files, .d.ts and .js written for a .ts file', () => {
    assert.equal(js('src/main.ts', './util'), 'src/util/index.ts');
    assert.equal(js('src/main.ts', './util/format'), 'src/util/format.ts');
    assert.equal(js('src/main.ts', './util/format.js'), 'src/util/format.ts');
    assert.equal(js('src/main.ts', './types'), 'src/types.d.ts');
    assert.equal(js('src/main.ts', './view.jsx'), 'src/view.tsx');
    assert.equal(js('src/util/format.ts', '../esm.js'), 'src/esm.ts');
    assert.equal(js('src/main.ts', '../legacy'), 'legacy/index.jsx');
    assert.equal(js('src/main.ts', './missing'), null);
    assert.equal(js('src/main.ts', '../../outside'), null, 'never leaves the root');
    assert.equal(js('src/main.ts', 'react'), null, 'packages stay unresolved');
  });

  it('uses tsconfig paths and baseUrl, following extends, from the nearest tsconfig', () => {
    assert.equal(js('src/main.ts', '@shared/log'), 'packages/shared/lib/log.js', 'paths inherited through extends');
    assert.equal(
      js('src/main.ts', 'src/util/format'),
      'src/util/format.ts',
      'baseUrl "." inherited from the base config',
    );
    assert.equal(js('packages/web/src/app.ts', '~/components/button'), 'packages/web/src/components/button.tsx');
    assert.equal(
      js('packages/web/src/app.ts', 'components/button'),
      'packages/web/src/components/button.tsx',
      'baseUrl "src" of the nearer config',
    );
    assert.equal(
      js('packages/web/src/app.ts', '@shared/log'),
      null,
      'own paths replace inherited ones, as in TypeScript',
    );
  });

  it('resolves imports of sibling workspace packages through package.json exports, main and src/', () => {
    const pkgRoot = mkdtempSync(join(tmpdir(), 'pc-resolve-pkg-'));
    try {
      const write = (rel: string, text = '') => {
        mkdirSync(dirname(join(pkgRoot, rel)), { recursive: true });
        writeFileSync(join(pkgRoot, rel), text);
      };
      const code = [
        'packages/core/src/index.ts',
        'packages/core/src/util/strings.ts',
        'packages/legacy/src/main.ts',
        'apps/web/main.ts',
      ];
      for (const f of code) write(f);
      write(
        'packages/core/package.json',
        JSON.stringify({
          name: '@acme/core',
          exports: {
            '.': { types: './dist/index.d.ts', source: './src/index.ts', import: './dist/index.js' },
            './util/*': './src/util/*.ts',
          },
        }),
      );
      write('packages/legacy/package.json', JSON.stringify({ name: 'legacy', main: './dist/main.js' }));
      const r = new ImportResolver(pkgRoot, new FileSet(code));
      r.setPackageManifests(['packages/core/package.json', 'packages/legacy/package.json']);
      const res = (spec: string) =>
        r.resolve('apps/web/main.ts', 'typescript', { spec, names: [], line: 1 })[0].resolved;
      assert.equal(res('@acme/core'), 'packages/core/src/index.ts');
      assert.equal(res('@acme/core/util/strings'), 'packages/core/src/util/strings.ts');
      assert.equal(res('legacy'), 'packages/legacy/src/main.ts', 'main pointing at build output maps back to src/');
      assert.equal(res('@acme/other'), null);
    } finally {
      rmSync(pkgRoot, { recursive: true, force: true });
    }
  });

  it('follows an extends list, and a root tsconfig.base.json that no config extends', () => {
    const code = ['libs/a/log.ts', 'libs/b/util.ts', 'app/main.ts', 'tools/gen.ts'];
    const dir = tempTree(code, {
      'configs/a.json': '{ "compilerOptions": { "paths": { "@a/*": ["../libs/a/*"] } } }',
      'configs/b.json': '{ "compilerOptions": { "paths": { "@b/*": ["../libs/b/*"] } } }',
      'app/tsconfig.json': '{ "extends": ["../configs/a.json", "../configs/b.json"] }',
      'tsconfig.base.json': '{ "compilerOptions": { "paths": { "@a/*": ["libs/a/*"] } } }',
    });
    try {
      const r = new ImportResolver(dir, new FileSet(code));
      const res = (from: string, spec: string) =>
        r.resolve(from, 'typescript', { spec, names: [], line: 1 })[0].resolved;
      assert.equal(res('app/main.ts', '@b/util'), 'libs/b/util.ts', 'the last config of the list wins');
      assert.equal(res('tools/gen.ts', '@a/log'), 'libs/a/log.ts', 'the monorepo aliases of tsconfig.base.json');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('resolves the same bare specifier per folder when configs share a base but not a baseUrl, in either order', () => {
    const code = ['src/main.ts', 'src/utils/log.ts', 'packages/x/src/app.ts', 'packages/x/utils/log.ts'];
    const dir = tempTree(code, {
      'tsconfig.json': '{ "compilerOptions": { "baseUrl": "src" } }',
      'packages/x/tsconfig.json': '{ "extends": "../../tsconfig.json", "compilerOptions": { "baseUrl": "." } }',
    });
    try {
      for (const order of [
        ['src/main.ts', 'packages/x/src/app.ts'],
        ['packages/x/src/app.ts', 'src/main.ts'],
      ]) {
        const r = new ImportResolver(dir, new FileSet(code));
        const got = Object.fromEntries(
          order.map((from) => [
            from,
            r.resolve(from, 'typescript', { spec: 'utils/log', names: [], line: 1 })[0].resolved,
          ]),
        );
        assert.deepEqual(
          got,
          { 'src/main.ts': 'src/utils/log.ts', 'packages/x/src/app.ts': 'packages/x/utils/log.ts' },
          order.join(' then '),
        );
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('resolves Python relative imports, submodules and absolute imports against the root and src/', () => {
    assert.deepEqual(py('src/pyapp/api/routes.py', '..models', [{ name: 'User', local: 'User' }]), [
      ['src/pyapp/models.py', ['User']],
    ]);
    assert.deepEqual(
      py('src/pyapp/api/routes.py', '..', [{ name: 'models', local: 'm' }]),
      [['src/pyapp/models.py', ['m']]],
      'a submodule named in from-import',
    );
    assert.deepEqual(py('src/pyapp/api/routes.py', '.', []), [['src/pyapp/api/__init__.py', []]]);
    assert.deepEqual(py('tools/build.py', 'pyapp.api.routes', [{ name: '*', local: 'pyapp.api.routes' }]), [
      ['src/pyapp/api/routes.py', ['pyapp.api.routes']],
    ]);
    assert.deepEqual(py('tools/build.py', 'pyapp', [{ name: 'models', local: 'models' }]), [
      ['src/pyapp/models.py', ['models']],
    ]);
    assert.deepEqual(py('tools/build.py', 'requests', []), [[null, []]]);
  });

  it('reads JSON with comments, trailing commas and comment-like text inside strings', () => {
    assert.deepEqual(parseLenientJson('{\n // c\n "a": "http://x/*y*/", /* b */ "b": [1, 2,],\n}'), {
      a: 'http://x/*y*/',
      b: [1, 2],
    });
  });
});

/** A temp folder with empty code files and the given config files; the caller removes it. */
function tempTree(code: string[], configs: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'pc-resolve-'));
  for (const [rel, text] of [...code.map((f): [string, string] => [f, '']), ...Object.entries(configs)]) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}
