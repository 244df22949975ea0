import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ImportGraph } from '../../../src/core/index/importGraph';
import type { IndexState } from '../../../src/core/index/indexState';
import { indexWorkspace, type IndexedWorkspace } from './fixtureWorkspace';

const IMPLS = 8;

/**
 * A base class with a deprecated `run`, subclasses overriding it in their own files (its relatives),
 * a file calling `run` on each, and a deprecated function reached through a barrel that does not
 * re-export it yet.
 */
function workspace(): Record<string, string> {
  const files: Record<string, string> = {
    'src/base.ts': 'export class Base {\n  /** @deprecated use go() */\n  run(): void {}\n}\n',
    'src/old.ts': '/** @deprecated use fresh() */\nexport function legacy(): void {}\n',
    'src/barrel.ts': 'export const version = 1;\n',
    'src/user.ts': "import { legacy } from './barrel';\n\nexport function go(): void {\n  legacy();\n}\n",
  };
  const imports: string[] = [];
  const calls: string[] = [];
  for (let i = 0; i < IMPLS; i++) {
    files[`src/impl${i}.ts`] =
      `import { Base } from './base';\n\nexport class Impl${i} extends Base {\n  run(): void {}\n}\n`;
    imports.push(`import { Impl${i} } from './impl${i}';`);
    calls.push(`  new Impl${i}().run();`);
  }
  files['src/app.ts'] =
    `import { Base } from './base';\n${imports.join('\n')}\n\n` +
    `export function start(b: Base): void {\n  b.run();\n${calls.join('\n')}\n}\n`;
  return files;
}

/** The index's state, and a count of the import-graph walks made from now on. */
function walks(ws: IndexedWorkspace): { state: IndexState; count: () => number } {
  const state = (ws.index as unknown as { state: IndexState }).state;
  const graph = state.graph();
  let n = 0;
  const forEachImporter = graph.forEachImporter.bind(graph);
  graph.forEachImporter = (...args: Parameters<ImportGraph['forEachImporter']>) => {
    n++;
    return forEachImporter(...args);
  };
  return { state, count: () => n };
}

describe('bindings kept while the index stays the same', function () {
  this.timeout(60000);
  let ws: IndexedWorkspace;

  beforeEach(async () => {
    ws = await indexWorkspace(workspace());
  });

  afterEach(() => ws.dispose());

  it('walks the imports of a method and its relatives once for every cursor stop in a file', () => {
    const { count } = walks(ws);
    const first = ws.index.deprecatedUsedIn('src/app.ts');
    assert.ok(first.length >= 1, JSON.stringify(first));
    const walked = count();
    assert.ok(walked > 0);
    // Each cursor stop in the file asks again; and the callers of `run` walk the same relatives.
    assert.deepEqual(ws.index.deprecatedUsedIn('src/app.ts'), first);
    const callers = ws.index.callers({ name: 'run', path: 'src/base.ts', line: 3 });
    assert.ok(callers.length >= 1);
    assert.deepEqual(ws.index.callers({ name: 'run', path: 'src/base.ts', line: 3 }), callers);
    // Before: every stop walked them again (and every relative of `run` once per definition asked).
    assert.equal(count(), walked);
  });

  it('answers afresh when another file starts re-exporting a deprecated function', async () => {
    walks(ws);
    assert.deepEqual(ws.index.deprecatedUsedIn('src/user.ts'), []);
    assert.deepEqual(
      ws.index.callers({ name: 'legacy', path: 'src/old.ts' }).filter((c) => c.confidence !== 'name'),
      [],
    );
    // Only the barrel changes: the graph is updated in place, user.ts's rows stay as they were.
    writeFileSync(join(ws.root, 'src/barrel.ts'), "export { legacy } from './old';\nexport const version = 1;\n");
    assert.equal((await ws.index.updateFile('src/barrel.ts')).status, 'parsed');
    assert.deepEqual(
      ws.index.deprecatedUsedIn('src/user.ts').map((u) => `${u.name}@${u.line}`),
      ['legacy@4'],
    );
    assert.deepEqual(
      ws.index
        .callers({ name: 'legacy', path: 'src/old.ts' })
        .filter((c) => c.confidence !== 'name')
        .map((c) => `${c.path}:${c.line}`),
      ['src/user.ts:4'],
    );
  });

  it("moves the index's generation with every change a query may read, and only then", () => {
    const { state } = walks(ws);
    const gen = state.generation();
    assert.equal(state.generation(), gen, 'reading changes nothing');
    // The graph changed in place, with no write to the database.
    state.loadedGraph()!.replace(['src/user.ts'], [{ path: 'src/user.ts', imports: [] }]);
    const afterGraph = state.generation();
    assert.notEqual(afterGraph, gen);
    // The file list changed.
    state.resolver().files.add('src/new.ts');
    const afterFiles = state.generation();
    assert.notEqual(afterFiles, afterGraph);
    // A row written by any code, in the database alone.
    state.db.run("INSERT OR REPLACE INTO meta (key, value) VALUES ('x', 'y')");
    const afterWrite = state.generation();
    assert.notEqual(afterWrite, afterFiles);
    // The graph dropped (as after a failed write): read again, it is another graph.
    state.dropGraph();
    state.graph();
    assert.notEqual(state.generation(), afterWrite);
  });
});
