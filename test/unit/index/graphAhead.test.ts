import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ImportGraph } from '../../../src/core/index/importGraph';
import type { IndexState } from '../../../src/core/index/indexState';
import { loadSqlJs } from '../../../src/core/store/sqlite';
import type { Store } from '../../../src/core/store/store';
import { indexWorkspace, panelItemsAt, type IndexedWorkspace } from './fixtureWorkspace';

/** Ten modules, each importing (up to) the three before it: 24 import rows. */
const FILES: Record<string, string> = {};
for (let i = 0; i < 10; i++) {
  const before = [1, 2, 3].filter((d) => i - d >= 0).map((d) => i - d);
  const imports = before.map((j) => `import { f${j} } from './m${j}';\n`).join('');
  const body = before.length ? before.map((j) => `f${j}()`).join(' + ') : '0';
  FILES[`src/m${i}.ts`] = `${imports}export function f${i}() {\n  return ${body};\n}\n`;
}

/** Every file's importers and imports, in the graph's order. */
function edges(graph: ImportGraph): string[] {
  const out: string[] = [];
  for (const path of Object.keys(FILES)) {
    graph.forEachImporter(path, (from, names) => out.push(`${from} -> ${path} ${JSON.stringify(names)}`));
    graph.forEachImport(path, (to) => out.push(`${path} imports ${to}`));
  }
  return out;
}

/**
 * The first callers query after a team snapshot (or any start on an index already built) read the
 * whole import graph in one step: 160–500 ms on a 6k-file repository. It is now read ahead, a
 * slice of rows per turn of the event loop, and given up when rows are written meanwhile.
 */
describe('the import graph read ahead in slices', function () {
  this.timeout(60000);
  let ws: IndexedWorkspace;
  let state: IndexState;

  beforeEach(async () => {
    ws = await indexWorkspace(FILES);
    state = (ws.index as unknown as { state: IndexState }).state;
    // As after a start on an index built before: nothing of it in memory.
    state.dropGraph();
  });
  afterEach(() => ws.dispose());

  it('gives the graph a whole read gives, with a pause between slices, and the next query uses it', async () => {
    let pauses = 0;
    await state.readGraphAhead(() => {
      pauses++;
      return Promise.resolve();
    }, 4);
    // 24 rows, 4 a slice: a pause after each of the 6 full slices.
    assert.equal(pauses, 6);
    const ahead = state.loadedGraph();
    assert.ok(ahead, 'no graph in memory after reading ahead');
    assert.equal(state.graph(), ahead, 'the query read the graph again');
    assert.deepEqual(edges(ahead), edges(ImportGraph.read(state.db)));
    assert.equal(edges(ahead).filter((e) => e.includes(' -> ')).length, 24);
  });

  it('a callers query during the read waits for it instead of reading the graph whole', async () => {
    let release!: () => void;
    let paused!: () => void;
    const firstPause = new Promise<void>((r) => (paused = r));
    let held = false;
    const reading = state.readGraphAhead(() => {
      if (held) return Promise.resolve();
      held = true;
      paused();
      return new Promise<void>((r) => (release = r));
    }, 4);
    await firstPause;
    const read = ImportGraph.read.bind(ImportGraph);
    let wholeReads = 0;
    ImportGraph.read = (db) => {
      wholeReads++;
      return read(db);
    };
    try {
      const items = panelItemsAt(ws.index, 'src/m0.ts', 'f0', 1);
      // The query has not answered while the read is held; it answers once the read is let go.
      await new Promise((r) => setImmediate(r));
      release();
      await reading;
      assert.ok(
        (await items).some((i) => i.type === 'related_code'),
        'no callers shown',
      );
      assert.equal(wholeReads, 0, 'the query read the graph whole while it was being read ahead');
    } finally {
      ImportGraph.read = read;
    }
  });

  it('reads the graph of a database that replaced the one read before (a team snapshot)', async () => {
    const old = state.graph();
    const store = (state as unknown as { store: Store }).store;
    const SQL = await loadSqlJs();
    await store.adoptIndex(new SQL.Database(store.index.export()));
    await state.readGraphAhead(() => Promise.resolve(), 4);
    const ahead = state.loadedGraph();
    assert.ok(ahead && ahead !== old, "the replaced database's graph was not read ahead");
    assert.deepEqual(edges(ahead), edges(old));
  });

  it('gives up when import rows are written meanwhile; the next query reads them whole', async () => {
    let wrote = false;
    await state.readGraphAhead(async () => {
      if (wrote) return;
      wrote = true;
      writeFileSync(
        join(ws.root, 'src/m0.ts'),
        `import { f9 } from './m9';\nexport function f0() {\n  return f9();\n}\n`,
      );
      await ws.index.updateFile('src/m0.ts');
    }, 4);
    assert.ok(wrote);
    assert.equal(state.loadedGraph(), undefined, 'a graph read before the write was kept');
    const importers: string[] = [];
    state.graph().forEachImporter('src/m9.ts', (from) => importers.push(from));
    assert.deepEqual(importers, ['src/m0.ts']);
  });
});
