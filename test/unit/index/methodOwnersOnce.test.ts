import assert from 'node:assert/strict';
import type { Database, Statement } from 'sql.js';
import { countRuns } from './sqlRuns';
import { indexWorkspace, type IndexedWorkspace } from './fixtureWorkspace';

const IMPLS = 12;

/** A base class, twelve subclasses each with a deprecated `run`, and a file calling every one. */
function workspace(): Record<string, string> {
  const files: Record<string, string> = { 'src/base.ts': 'export class Base {\n  stop(): void {}\n}\n' };
  const imports: string[] = [];
  const calls: string[] = [];
  for (let i = 0; i < IMPLS; i++) {
    files[`src/impl${i}.ts`] =
      `import { Base } from './base';\n\nexport class Impl${i} extends Base {\n` +
      `  /** @deprecated use go() */\n  run(): void {}\n\n  go(): void {}\n}\n`;
    imports.push(`import { Impl${i} } from './impl${i}';`);
    calls.push(`  new Impl${i}().run();`);
  }
  files['src/app.ts'] = `${imports.join('\n')}\n\nexport function start(): void {\n${calls.join('\n')}\n}\n`;
  return files;
}

describe('the declaring types of a method name', function () {
  this.timeout(60000);
  let ws: IndexedWorkspace;

  before(async () => {
    ws = await indexWorkspace(workspace());
  });

  after(() => ws.dispose());

  it('are read once for a file that calls many deprecated definitions of that name', () => {
    const db = (ws.index as unknown as { state: { db: Database } }).state.db;
    const runs = countRuns(db, "m.kind = 'method'");
    const uses = ws.index.deprecatedUsedIn('src/app.ts');
    assert.equal(uses.length, IMPLS, JSON.stringify(uses.map((u) => `${u.name}@${u.line} ${u.confidence}`)));
    // Before: once per deprecated definition (twelve times), a scan of every method of the name each
    // time; in a tree of type stubs with fifteen deprecated `__init__` overloads that took 1.5 s.
    assert.equal(runs(), 1);
  });

  it('look each declaring class up by its name, not by scanning its file', async () => {
    // Its own index: the statements are prepared once per database and kept.
    const fresh = await indexWorkspace(workspace());
    try {
      const db = (fresh.index as unknown as { state: { db: Database } }).state.db;
      const asked: string[] = [];
      const prepare = db.prepare.bind(db);
      db.prepare = (sql: string, params?: Parameters<Database['prepare']>[1]): Statement => {
        if (sql.includes("m.kind = 'method'")) asked.push(sql);
        return prepare(sql, params);
      };
      assert.equal(fresh.index.deprecatedUsedIn('src/app.ts').length, IMPLS);
      assert.equal(asked.length, 1);
      const plan = db.exec(`EXPLAIN QUERY PLAN ${asked[0]}`, ['run'])[0].values.map((v) => String(v[3]));
      // By file, each method of the name scanned every symbol of its file: in a large type stub
      // (mypy's builtins, 1,900 `__init__`) 90 ms for one name, against 12 ms by the class's name.
      assert.ok(
        plan.some((step) => /^SEARCH c USING INDEX symbols_name/.test(step)),
        plan.join('\n'),
      );
    } finally {
      fresh.dispose();
    }
  });
});
