import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { defaultConfig, resolveConfig } from '../../../src/core/config';
import { CodeIndex, type CallerRef } from '../../../src/core/index/codeIndex';
import { indexMigrations } from '../../../src/core/store/migrations';
import { all, loadSqlJs } from '../../../src/core/store/sqlite';
import { Store } from '../../../src/core/store/store';
import { copyFixture } from './fixtureWorkspace';

const show = (refs: CallerRef[]) =>
  refs.map((r) => `${r.path}:${r.line} ${r.confidence}${r.enclosing ? ' in ' + r.enclosing : ''}`);

describe('CodeIndex', () => {
  let root: string;
  let stateDir: string;
  let store: Store;
  let index: CodeIndex;

  before(async () => {
    root = copyFixture('ws');
    stateDir = mkdtempSync(join(tmpdir(), 'pc-index-state-'));
    store = await Store.open({ stateDir });
    index = new CodeIndex(store, root, defaultConfig);
    const stats = await index.build();
    assert.equal(stats.files, 23);
    assert.equal(stats.parsed, 23);
  });

  after(() => {
    store.dispose();
    rmSync(root, { recursive: true, force: true });
    rmSync(stateDir, { recursive: true, force: true });
  });

  describe('callers', () => {
    it('follows renamed, namespace, default and require imports, and same-file calls', () => {
      assert.deepEqual(show(index.callers({ name: 'add', path: 'src/lib/math.ts' })), [
        'src/app.ts:10 resolved in run', // sum(1, 2): import { add as sum }
        'src/app.ts:10 resolved in run', // m.add(3, 4): import * as m
        'src/legacy.js:4 resolved in legacy', // const { add } = require(...)
        'src/lib/math.ts:8 resolved in plus',
        'src/lib/math.ts:11 resolved in double',
        'src/lib/math.ts:21 resolved in push',
        'src/view.tsx:4 resolved in View',
      ]);
      assert.deepEqual(show(index.callers({ name: 'main', path: 'src/lib/math.ts' })), [
        'src/app.ts:10 resolved in run',
      ]);
    });

    it('does not count an unrelated function of the same name in another file', () => {
      const mathCallers = index.callers({ name: 'add', path: 'src/lib/math.ts' });
      assert.ok(!mathCallers.some((r) => r.path === 'src/other.ts'), 'other.ts calls its own add');
      assert.deepEqual(show(index.callers({ name: 'add', path: 'src/other.ts' })), [
        'src/other.ts:6 resolved in greet',
      ]);
    });

    it('follows re-exports through a barrel, reached by tsconfig paths and by a folder import', () => {
      assert.deepEqual(show(index.callers({ name: 'plus' })), ['src/app.ts:10 resolved in run']);
      assert.deepEqual(show(index.callers({ name: 'shout' })), ['src/app.ts:10 resolved in run']);
    });

    it('resolves a method call on an object made by `new` of an imported class, and this.m() in the class', () => {
      // Calculator.push (line 20); Ledger in the same file has its own push.
      assert.deepEqual(show(index.callers({ name: 'push', path: 'src/lib/math.ts', line: 21 })), [
        'src/app.ts:9 resolved in run', // const c = new Calculator(); c.push(1)
        'src/lib/math.ts:27 resolved in addTo',
        'src/lib/math.ts:41 likely in record', // this.push() inside Ledger, not Calculator
      ]);
      assert.deepEqual(show(index.callers({ name: 'push', path: 'src/lib/math.ts', line: 37 })).slice(0, 1), [
        'src/lib/math.ts:41 resolved in record',
      ]);
      assert.deepEqual(
        show(index.callers({ name: 'start' })),
        ['pkg/sub/runner.py:8 resolved in go'],
        'e = Engine() says the class of e',
      );
    });

    it('resolves functions of a TypeScript namespace, called qualified outside and bare inside', () => {
      assert.deepEqual(show(index.callers({ name: 'rmrf', path: 'src/fsutil.ts' })), [
        'src/cleaner.ts:4 resolved in cleanAll',
        'src/fsutil.ts:7 resolved in clean',
      ]);
      assert.equal(index.definitions('rmrf')[0].container, 'Fs');
    });

    it('falls back to bare name matches only when nothing resolves, and keeps no calls to names defined nowhere', async () => {
      const files = {
        'src/orphan.ts': 'export function orphan(): number {\n  return 1;\n}\n',
        'src/unbound.ts': 'export function useOrphan() {\n  return orphan();\n}\n',
      };
      try {
        for (const [rel, text] of Object.entries(files)) {
          writeFileSync(join(root, rel), text);
          await index.updateFile(rel);
        }
        // unbound.ts calls orphan() without importing it.
        assert.deepEqual(show(index.callers({ name: 'orphan' })), ['src/unbound.ts:2 name in useOrphan']);
      } finally {
        for (const rel of Object.keys(files)) {
          rmSync(join(root, rel), { force: true });
          await index.updateFile(rel);
        }
      }
      // 'x'.toUpperCase() in strings.ts: a runtime method, defined nowhere in the workspace.
      assert.deepEqual(show(index.callers({ name: 'toUpperCase' })), []);
    });

    it('resolves Python relative, package and module imports', () => {
      assert.deepEqual(show(index.callers({ name: 'compute', path: 'pkg/core.py' })), [
        'pkg/core.py:14 resolved in old_compute',
        'pkg/core.py:19 resolved in older_compute',
        'pkg/core.py:27 resolved in step',
        'pkg/sub/runner.py:9 resolved in go', // c(1): from ..core import compute as c
        'pkg/sub/runner.py:9 resolved in go', // compute(3): from pkg import compute (re-exported by __init__)
      ]);
      assert.deepEqual(show(index.callers({ name: 'helper' })), [
        'pkg/core.py:5 resolved in compute',
        'pkg/sub/runner.py:9 resolved in go',
      ]);
    });

    it('resolves Go package calls through go.mod and same-package calls without imports', () => {
      assert.deepEqual(show(index.callers({ name: 'Total', path: 'cart/cart.go' })), [
        'cart/cart.go:16 resolved in Sum',
        'cart/discount.go:3 resolved in Discounted',
        'main.go:12 resolved in main',
      ]);
      assert.deepEqual(
        show(index.callers({ name: 'Add' })),
        ['main.go:11 resolved in main'],
        'c := &cart.Cart{} says the type of c',
      );
    });

    it('resolves Java class imports, Rust mod/use paths and C# namespaces', () => {
      const trim = show(index.callers({ name: 'trim', path: 'java/src/main/java/com/acme/util/Strings.java' }));
      assert.ok(trim.includes('java/src/main/java/com/acme/App.java:7 resolved in run'));
      assert.ok(trim.includes('java/src/main/java/com/acme/util/Strings.java:10 resolved in strip'));
      assert.deepEqual(show(index.callers({ name: 'area', path: 'rust/src/geometry.rs' })), [
        'rust/src/geometry.rs:7 resolved in old_area',
        'rust/src/geometry.rs:16 resolved in area',
        'rust/src/lib.rs:5 resolved in describe',
        'rust/src/report.rs:4 resolved in report',
      ]);
      assert.deepEqual(show(index.callers({ name: 'Total', path: 'cs/Billing/Invoice.cs' })), [
        'cs/Billing/Invoice.cs:10 resolved in Sum',
        'cs/App/Program.cs:11 likely in Main',
      ]);
    });
  });

  it('lists the deprecated definitions a file calls, in every language', () => {
    const uses = (p: string) =>
      index
        .deprecatedUsedIn(p)
        .map((d) => `${d.name}@${d.line} ${d.confidence} -> ${d.definition.path}:${d.definition.line}`);
    assert.deepEqual(uses('src/app.ts'), [
      'addTo@9 likely -> src/lib/math.ts:26',
      'plus@10 resolved -> src/lib/math.ts:7',
    ]);
    assert.deepEqual(uses('pkg/sub/runner.py'), ['old_compute@9 resolved -> pkg/core.py:12']);
    assert.deepEqual(uses('main.go'), ['Sum@12 resolved -> cart/cart.go:15']);
    assert.deepEqual(uses('java/src/main/java/com/acme/App.java'), [
      'strip@7 resolved -> java/src/main/java/com/acme/util/Strings.java:8',
    ]);
    assert.deepEqual(uses('rust/src/report.rs'), ['old_area@4 resolved -> rust/src/geometry.rs:6']);
    assert.deepEqual(uses('cs/App/Program.cs'), ['Sum@11 likely -> cs/Billing/Invoice.cs:9']);
    assert.deepEqual(uses('src/other.ts'), []);
  });

  it('answers symbol, definition and import questions', () => {
    assert.equal(index.symbolAt('src/lib/math.ts', 22)?.name, 'push', 'innermost definition wins over the class');
    assert.equal(
      index.symbolAt(join(root, 'src/lib/math.ts'), 18)?.name,
      'Calculator',
      'absolute paths inside the root work too',
    );
    assert.equal(index.symbolAt('src/lib/math.ts', 5), undefined);
    assert.deepEqual(
      index.definitions('add').map((d) => d.path),
      ['src/lib/math.ts', 'src/other.ts'],
      'exported definitions first',
    );
    assert.deepEqual(
      index.symbolsIn('src/lib/strings.ts').map((s) => s.name),
      ['shout'],
    );
    assert.deepEqual(index.importsOf('src/app.ts'), ['src/lib/index.ts', 'src/lib/math.ts']);
    assert.deepEqual(index.importersOf('src/lib/math.ts'), [
      'src/app.ts',
      'src/legacy.js',
      'src/lib/index.ts',
      'src/view.tsx',
    ]);
    assert.deepEqual(
      index.importersOf('cart/discount.go'),
      ['main.go'],
      'a Go import reaches every file of the package',
    );
    const stats = index.stats();
    assert.equal(stats.files, 23);
    assert.equal(stats.byLanguage.python, 4);
    assert.equal(stats.lastBuild?.files, 23);
  });

  describe('incremental updates', () => {
    it('re-parses only the changed file and skips files whose content hash is unchanged', async () => {
      const other = join(root, 'src/other.ts');
      writeFileSync(
        other,
        readFileSync(other, 'utf8') + '\nexport function farewell(): string {\n  return add("bye");\n}\n',
      );
      const touched = join(root, 'src/lib/strings.ts');
      const later = new Date(Date.now() + 60_000);
      utimesSync(touched, later, later); // new mtime, same content
      const stats = await index.build();
      assert.equal(stats.parsed, 1);
      assert.equal(stats.skipped, 22);
      assert.deepEqual(show(index.callers({ name: 'add', path: 'src/other.ts' })), [
        'src/other.ts:6 resolved in greet',
        'src/other.ts:10 resolved in farewell',
      ]);
      assert.equal((await index.updateFile('src/lib/strings.ts')).status, 'unchanged');
    });

    it('updateFile re-indexes one file, removeFile and deleted files drop it', async () => {
      const strings = join(root, 'src/lib/strings.ts');
      writeFileSync(
        strings,
        readFileSync(strings, 'utf8') +
          '\n/** @deprecated */\nexport function whisper(s: string): string {\n  return shout(s).toLowerCase();\n}\n',
      );
      const result = await index.updateFile(strings);
      assert.equal(result.status, 'parsed');
      assert.deepEqual(
        index.definitions('whisper').map((d) => [d.path, d.deprecated]),
        [['src/lib/strings.ts', true]],
      );
      assert.deepEqual(show(index.callers({ name: 'shout' })), [
        'src/app.ts:10 resolved in run',
        'src/lib/strings.ts:7 resolved in whisper',
      ]);

      index.removeFile('src/view.tsx');
      assert.deepEqual(index.symbolsIn('src/view.tsx'), []);
      assert.ok(!index.importersOf('src/lib/math.ts').includes('src/view.tsx'));
      assert.ok(!index.callers({ name: 'add', path: 'src/lib/math.ts' }).some((r) => r.path === 'src/view.tsx'));

      writeFileSync(
        join(root, 'src/late.ts'),
        "import { add as inc } from './lib/math';\nexport const late = () => inc(0, 1);\n",
      );
      assert.equal((await index.updateFile('src/late.ts')).status, 'parsed');
      assert.ok(
        show(index.callers({ name: 'add', path: 'src/lib/math.ts' })).includes('src/late.ts:2 resolved in late'),
        'a new importer counts at once',
      );
      unlinkSync(join(root, 'src/late.ts'));
      await index.updateFile('src/late.ts');
      assert.ok(!index.callers({ name: 'add', path: 'src/lib/math.ts' }).some((r) => r.path === 'src/late.ts'));

      unlinkSync(join(root, 'src/legacy.js'));
      assert.equal((await index.updateFile('src/legacy.js')).status, 'removed');
      assert.ok(!index.importersOf('src/lib/math.ts').includes('src/legacy.js'));
      const stats = await index.build();
      assert.equal(stats.files, 22, 'view.tsx is back from the scan, legacy.js is gone');
      assert.equal(stats.parsed, 1);
    });

    it('parses again, file by file, what an older version of the extraction indexed', async () => {
      const before = index.symbolsIn('src/lib/math.ts').length;
      assert.ok(before > 0);
      // As an older release left it: the same files, hashes without this version's mark, other facts.
      store.index.run("UPDATE files SET hash = substr(hash, instr(hash, ':') + 1)");
      store.index.run("DELETE FROM symbols WHERE file = (SELECT id FROM files WHERE path = 'src/lib/math.ts')");
      const stats = await index.build();
      assert.equal(stats.parsed, stats.files, 'unchanged content and times do not keep the old facts');
      assert.equal(index.symbolsIn('src/lib/math.ts').length, before);
      assert.equal((await index.build()).parsed, 0, 'once parsed again, files are unchanged');
    });

    it('answers imports and importers from memory exactly as the imports table does, across edits', async () => {
      const fromTable = () => {
        const out: Record<string, [string[], string[]]> = {};
        for (const { path } of all<{ path: string }>(store.index, 'SELECT path FROM files ORDER BY path')) {
          out[path] = [
            all<{ r: string }>(
              store.index,
              'SELECT DISTINCT i.resolved AS r FROM imports i JOIN files f ON f.id = i.file WHERE f.path = ? AND i.resolved IS NOT NULL AND i.resolved <> f.path ORDER BY r',
              [path],
            ).map((x) => x.r),
            all<{ p: string }>(
              store.index,
              'SELECT DISTINCT f.path AS p FROM imports i JOIN files f ON f.id = i.file WHERE i.resolved = ? AND f.path <> i.resolved ORDER BY p',
              [path],
            ).map((x) => x.p),
          ];
        }
        return out;
      };
      const fromIndex = (ix: CodeIndex) =>
        Object.fromEntries(Object.keys(fromTable()).map((p) => [p, [ix.importsOf(p), ix.importersOf(p)]]));
      assert.deepEqual(fromIndex(index), fromTable());
      const app = join(root, 'src/app.ts');
      const before = readFileSync(app, 'utf8');
      try {
        // Drop the imports of math: app.ts keeps importing the barrel only.
        writeFileSync(app, before.replace(/^import .*lib\/math.*$/gm, ''));
        assert.equal((await index.updateFile(app)).status, 'parsed');
        assert.deepEqual(index.importsOf('src/app.ts'), ['src/lib/index.ts']);
        assert.ok(!index.importersOf('src/lib/math.ts').includes('src/app.ts'));
        assert.deepEqual(fromIndex(index), fromTable());
        assert.deepEqual(
          index.importsOf(join(root, 'src/app.ts')),
          index.importsOf('src/app.ts'),
          'absolute paths inside the root too',
        );
        assert.deepEqual(
          fromIndex(new CodeIndex(store, root, defaultConfig)),
          fromTable(),
          'a fresh index reads the same from the table',
        );
      } finally {
        writeFileSync(app, before);
        await index.updateFile(app);
      }
      assert.deepEqual(index.importsOf('../outside.ts'), []);
    });

    it('follows an edit of a tsconfig that only other configs extend, in the imports already stored', async () => {
      const base = join(root, 'tsconfig.base.json');
      const probe = join(root, 'src/alias-probe.ts');
      writeFileSync(join(root, 'src/alias-old.ts'), 'export const x = 1;\n');
      writeFileSync(join(root, 'src/alias-new.ts'), 'export const x = 2;\n');
      writeFileSync(probe, "import { x } from '@probe/target';\nexport const y = x;\n");
      try {
        writeFileSync(base, JSON.stringify({ compilerOptions: { paths: { '@probe/target': ['src/alias-old.ts'] } } }));
        // src/ gets a config of its own that takes its aliases from the base config.
        writeFileSync(join(root, 'src/tsconfig.json'), JSON.stringify({ extends: '../tsconfig.base.json' }));
        for (const f of [
          'src/alias-old.ts',
          'src/alias-new.ts',
          'tsconfig.base.json',
          'src/tsconfig.json',
          'src/alias-probe.ts',
        ])
          await index.updateFile(join(root, f));
        assert.deepEqual(index.importsOf('src/alias-probe.ts'), ['src/alias-old.ts']);
        const before = index.importsOf('src/app.ts');
        writeFileSync(base, JSON.stringify({ compilerOptions: { paths: { '@probe/target': ['src/alias-new.ts'] } } }));
        assert.equal((await index.updateFile(base)).status, 'skipped');
        assert.deepEqual(
          index.importsOf('src/alias-probe.ts'),
          ['src/alias-new.ts'],
          'stored imports follow the edited base config without a re-parse',
        );
        assert.deepEqual(index.importersOf('src/alias-old.ts'), []);
        assert.deepEqual(index.importsOf('src/app.ts'), before, 'imports the config does not touch stay as they were');
      } finally {
        for (const f of [
          'tsconfig.base.json',
          'src/tsconfig.json',
          'src/alias-old.ts',
          'src/alias-new.ts',
          'src/alias-probe.ts',
        ])
          rmSync(join(root, f), { force: true });
        for (const f of ['src/alias-old.ts', 'src/alias-new.ts', 'src/alias-probe.ts'])
          await index.updateFile(join(root, f));
        await index.updateFile(join(root, 'tsconfig.json'));
      }
    });

    it('resolves a workspace package whose package.json appears after the build, and forgets it when it goes', async () => {
      const files = {
        'packages/fresh/src/index.ts': 'export const fresh = 1;\n',
        'src/uses-fresh.ts': "import { fresh } from 'fresh-pkg';\nexport const y = fresh;\n",
      };
      const manifest = join(root, 'packages/fresh/package.json');
      try {
        for (const [rel, text] of Object.entries(files)) {
          mkdirSync(dirname(join(root, rel)), { recursive: true });
          writeFileSync(join(root, rel), text);
          await index.updateFile(join(root, rel));
        }
        assert.deepEqual(index.importsOf('src/uses-fresh.ts'), [], 'no package of that name yet');
        writeFileSync(manifest, JSON.stringify({ name: 'fresh-pkg', main: 'dist/index.js' }));
        await index.updateFile(manifest);
        assert.deepEqual(index.importsOf('src/uses-fresh.ts'), ['packages/fresh/src/index.ts']);
        rmSync(manifest);
        await index.updateFile(manifest);
        assert.deepEqual(index.importsOf('src/uses-fresh.ts'), [], 'the package is gone');
      } finally {
        rmSync(join(root, 'packages'), { recursive: true, force: true });
        rmSync(join(root, 'src/uses-fresh.ts'), { force: true });
        for (const rel of Object.keys(files)) await index.updateFile(join(root, rel));
      }
    });

    it('starts over when the index cache is reset', async () => {
      assert.ok(index.importsOf('src/app.ts').length > 0);
      store.resetIndex();
      assert.deepEqual(index.importsOf('src/app.ts'), [], 'no imports remembered from the old cache');
      assert.deepEqual(index.symbolsIn('src/app.ts'), []);
      assert.deepEqual(index.callers({ name: 'plus', path: 'src/lib/math.ts' }), []);
      const stats = await index.build();
      assert.equal(stats.parsed, stats.files);
      assert.deepEqual(show(index.callers({ name: 'plus' })), ['src/app.ts:10 resolved in run']);
    });

    it('refuses paths outside the root', async () => {
      assert.equal((await index.updateFile('../outside.ts')).status, 'skipped');
      assert.deepEqual(index.symbolsIn('/etc/passwd'), []);
    });
  });

  describe('cold build', () => {
    it('reports progress from zero up to the total', async () => {
      const fresh = await Store.open({ stateDir: mkdtempSync(join(tmpdir(), 'pc-index-state-')) });
      try {
        const progress: number[] = [];
        const stats = await new CodeIndex(fresh, root, defaultConfig).build({
          onProgress: (p) => progress.push(p.done),
        });
        assert.equal(progress[0], 0);
        assert.equal(progress[progress.length - 1], stats.files);
        assert.ok(progress.every((d, i) => i === 0 || d >= progress[i - 1]));
      } finally {
        fresh.dispose();
        rmSync(fresh.stateDir, { recursive: true, force: true });
      }
    });

    it('reports a time cap instead of running past its budget', async () => {
      const fresh = await Store.open({ stateDir: mkdtempSync(join(tmpdir(), 'pc-index-state-')) });
      try {
        const tight = resolveConfig({ index: { maxFiles: 1000, maxFileBytes: 1 << 20, timeBudgetMs: 0 } });
        const stats = await new CodeIndex(fresh, root, tight).build();
        assert.deepEqual(stats.capped, { reason: 'time', limit: 0 });
        assert.equal(stats.parsed, 0);
      } finally {
        fresh.dispose();
        rmSync(fresh.stateDir, { recursive: true, force: true });
      }
    });

    it('re-parses everything after upgrading a cache written with the first schema', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'pc-index-state-'));
      // A first-schema cache that claims every file is indexed, with stale rows keyed by path text.
      const SQL = await loadSqlJs();
      const old = new SQL.Database();
      old.exec(indexMigrations[0]);
      old.exec('PRAGMA user_version = 1');
      old.run(
        "INSERT INTO files (path, hash, lang, size, mtime, indexed_at) VALUES ('src/lib/math.ts', 'x', 'typescript', 1, 1, 1)",
      );
      old.run(
        "INSERT INTO symbols (path, name, kind, start_line, end_line) VALUES ('src/lib/math.ts', 'stale', 'function', 1, 2)",
      );
      writeFileSync(join(dir, 'index.db'), old.export());
      old.close();
      const upgraded = await Store.open({ stateDir: dir });
      try {
        const idx = new CodeIndex(upgraded, root, defaultConfig);
        const stats = await idx.build();
        assert.deepEqual([stats.parsed, stats.skipped], [stats.files, 0]);
        assert.deepEqual(idx.definitions('stale'), []);
        assert.deepEqual(show(idx.callers({ name: 'main', path: 'src/lib/math.ts' })), [
          'src/app.ts:10 resolved in run',
        ]);
      } finally {
        upgraded.dispose();
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('stops when cancelled', async () => {
      const fresh = await Store.open({ stateDir: mkdtempSync(join(tmpdir(), 'pc-index-state-')) });
      try {
        const controller = new AbortController();
        controller.abort(new Error('user cancelled'));
        await assert.rejects(
          new CodeIndex(fresh, root, defaultConfig).build({ signal: controller.signal }),
          /cancelled/,
        );
      } finally {
        fresh.dispose();
        rmSync(fresh.stateDir, { recursive: true, force: true });
      }
    });
  });
});
