import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultConfig } from '../../../src/core/config';
import { CodeIndex, type CallerRef } from '../../../src/core/index/codeIndex';
import type { FileFacts } from '../../../src/core/index/facts';
import { IndexState } from '../../../src/core/index/indexState';
import { IndexWriter, type PendingFile } from '../../../src/core/index/indexWriter';
import { all } from '../../../src/core/store/sqlite';
import { Store } from '../../../src/core/store/store';
import { writeWorkspace } from './fixtureWorkspace';

const show = (refs: CallerRef[]) =>
  refs.map((r) => `${r.path}:${r.line} ${r.confidence}${r.enclosing ? ' in ' + r.enclosing : ''}`);

describe('calls to names defined nowhere', () => {
  let root: string;
  let store: Store;
  let index: CodeIndex;
  const storedCalls = () =>
    all<{ c: string }>(
      store.index,
      "SELECT f.path || ':' || c.name AS c FROM calls c JOIN files f ON f.id = c.file ORDER BY c",
    ).map((r) => r.c);
  const notes = () =>
    all<{ n: string }>(
      store.index,
      "SELECT f.path || ':' || u.name AS n FROM unresolved_calls u JOIN files f ON f.id = u.file ORDER BY n",
    ).map((r) => r.n);

  beforeEach(async () => {
    root = writeWorkspace({
      // Scanned first, it calls a function of a file scanned after it, without importing it.
      'aaa.ts': 'export function first() {\n  zebra();\n  console.log("x".trim());\n  return later();\n}\n',
      'zzz.ts': 'export function zebra() {\n  return 1;\n}\n',
      'usesHelper.ts': "import { helper } from './helper';\nexport function run() {\n  return helper();\n}\n",
      'styles.ts': 'export const Button = styled.button;\nexport const load = makeLoader();\n',
      'app.tsx':
        "import { Button } from './styles';\nimport * as cfg from './styles';\nexport const App = () => <Button onClick={() => cfg.load()} />;\n",
      'alias.ts': "import { greet } from '@app/greet';\nexport function hello() {\n  return greet();\n}\n",
      'greet.ts': 'export const greet = makeGreeter();\n',
    });
    store = await Store.open({ stateDir: mkdtempSync(join(tmpdir(), 'pc-index-state-')) });
    index = new CodeIndex(store, root, defaultConfig);
    await index.build();
  });

  afterEach(() => {
    store.dispose();
    rmSync(store.stateDir, { recursive: true, force: true });
    rmSync(root, { recursive: true, force: true });
  });

  it('stores calls that a definition or a workspace import can answer, and only notes the names of the others', () => {
    assert.deepEqual(storedCalls(), [
      'aaa.ts:zebra', // defined in a file written after this one
      'app.tsx:Button', // imported from a workspace file, though not a definition the index knows
      'app.tsx:load', // cfg.load(): cfg is a workspace module
    ]);
    assert.deepEqual(notes(), [
      'aaa.ts:later',
      'aaa.ts:log',
      'aaa.ts:trim',
      'alias.ts:greet', // '@app/greet' does not resolve (yet)
      'greet.ts:makeGreeter',
      'styles.ts:makeLoader',
      'usesHelper.ts:helper', // ./helper does not exist (yet)
    ]);
    assert.deepEqual(show(index.callers({ name: 'zebra' })), ['aaa.ts:2 name in first']);
    assert.deepEqual(show(index.callers({ name: 'Button', path: 'styles.ts', line: 1 })), [
      'app.tsx:3 resolved in App',
    ]);
    assert.deepEqual(show(index.callers({ name: 'load', path: 'styles.ts', line: 2 })), ['app.tsx:3 resolved in App']);
    assert.deepEqual(index.callers({ name: 'trim' }), []);
  });

  it('finds the callers of a definition that an update adds later, by parsing the files that noted its name again', async () => {
    assert.deepEqual(show(index.callers({ name: 'later' })), []);
    writeFileSync(join(root, 'late.ts'), 'export function later() {\n  return 2;\n}\n');
    assert.equal((await index.updateFile('late.ts')).status, 'parsed');
    assert.deepEqual(show(index.callers({ name: 'later', path: 'late.ts' })), ['aaa.ts:4 name in first']);
    assert.ok(!notes().includes('aaa.ts:later'));

    // The missing module appears: its importer's call now resolves through the import.
    writeFileSync(join(root, 'helper.ts'), 'export function helper() {\n  return 3;\n}\n');
    await index.updateFile('helper.ts');
    assert.deepEqual(show(index.callers({ name: 'helper', path: 'helper.ts' })), ['usesHelper.ts:3 resolved in run']);
  });

  it('stores the noted calls of a file whose import starts to resolve after a tsconfig change', async () => {
    writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { paths: { '@app/*': ['./*'] } } }));
    await index.updateFile('tsconfig.json');
    assert.deepEqual(index.importsOf('alias.ts'), ['greet.ts']);
    assert.deepEqual(show(index.callers({ name: 'greet', path: 'greet.ts', line: 1 })), [
      'alias.ts:3 resolved in hello',
    ]);
  });

  it('loses no held-back call when a second build starts before the first ends', async () => {
    const fresh = await Store.open({ stateDir: mkdtempSync(join(tmpdir(), 'pc-index-state-')) });
    try {
      const writer = new IndexWriter(new IndexState(fresh, root), fresh);
      const file = (path: string, facts: Partial<FileFacts>): PendingFile => ({
        path,
        hash: path,
        lang: 'typescript',
        size: 1,
        mtime: 1,
        imports: [],
        facts: { symbols: [], calls: [], imports: [], ...facts },
      });
      writer.beginBuild();
      writer.write([file('aaa.ts', { calls: [{ name: 'zebra', line: 2, column: 3, enclosing: 'first' }] })]);
      writer.beginBuild();
      writer.write([
        file('zzz.ts', {
          symbols: [{ name: 'zebra', kind: 'function', startLine: 1, endLine: 3, exported: 1, deprecated: false }],
        }),
      ]);
      await writer.finishBuild();
      await writer.finishBuild();
      assert.deepEqual(
        all<{ c: string }>(
          fresh.index,
          "SELECT f.path || ':' || c.name AS c FROM calls c JOIN files f ON f.id = c.file",
        ).map((r) => r.c),
        ['aaa.ts:zebra'],
      );
    } finally {
      fresh.dispose();
      rmSync(fresh.stateDir, { recursive: true, force: true });
    }
  });

  it('judges the held-back calls of a build in small transactions, the event loop free in between', async () => {
    const fresh = await Store.open({ stateDir: mkdtempSync(join(tmpdir(), 'pc-index-state-')) });
    try {
      const writer = new IndexWriter(new IndexState(fresh, root), fresh);
      const file = (path: string, facts: Partial<FileFacts>): PendingFile => ({
        path,
        hash: path,
        lang: 'typescript',
        size: 1,
        mtime: 1,
        imports: [],
        facts: { symbols: [], calls: [], imports: [], ...facts },
      });
      writer.beginBuild();
      // 3,000 calls to names written later: all held back until the build ends.
      const calls = Array.from({ length: 3000 }, (_, i) => ({ name: `f${i % 30}`, line: i + 1, column: 1 }));
      writer.write([file('caller.ts', { calls })]);
      const symbols = Array.from({ length: 30 }, (_, i) => ({
        name: `f${i}`,
        kind: 'function' as const,
        startLine: i + 1,
        endLine: i + 1,
        exported: 1 as const,
        deprecated: false,
      }));
      writer.write([file('defs.ts', { symbols })]);
      let turns = 0;
      let ticking = true;
      const turn = () => {
        turns++;
        if (ticking) setImmediate(turn);
      };
      setImmediate(turn);
      await writer.finishBuild();
      ticking = false;
      const stored = all<{ n: number }>(fresh.index, 'SELECT count(*) AS n FROM calls')[0].n;
      assert.equal(stored, 3000, 'every held-back call is judged');
      // 200 calls per transaction: 15 of them, the event loop free after each.
      assert.ok(turns >= 15, `the event loop ran ${turns} times while 3,000 calls were judged`);
    } finally {
      fresh.dispose();
      rmSync(fresh.stateDir, { recursive: true, force: true });
    }
  });

  it('finds them after a full build too, and forgets the notes of a removed file', async () => {
    writeFileSync(join(root, 'late.ts'), 'export function later() {\n  return 2;\n}\n');
    await index.build();
    assert.deepEqual(show(index.callers({ name: 'later', path: 'late.ts' })), ['aaa.ts:4 name in first']);
    rmSync(join(root, 'aaa.ts'));
    await index.updateFile('aaa.ts');
    assert.ok(!notes().some((n) => n.startsWith('aaa.ts:')));
    assert.deepEqual(index.callers({ name: 'later', path: 'late.ts' }), []);
  });
});
