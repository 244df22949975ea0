import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { extractFacts } from '../../../src/core/index/extract';
import { parserFor } from '../../../src/core/index/languages';
import { indexWorkspace, panelItemsAt, type IndexedWorkspace } from './fixtureWorkspace';

async function supersIn(lang: 'typescript' | 'javascript', text: string): Promise<string[]> {
  const tree = (await parserFor(lang)).parse(text);
  assert.ok(tree);
  try {
    return extractFacts(lang, tree)
      .symbols.filter((s) => !s.container)
      .map((s) => `${s.name}: ${(s.supers ?? []).join(' ')}`);
  } finally {
    tree.delete();
  }
}

describe('TypeScript callers through base classes and interfaces', () => {
  it('extracts what a class extends and implements, and what an interface extends, as written', async () => {
    assert.deepEqual(
      await supersIn(
        'typescript',
        [
          'export abstract class A<T> extends ns.Base<T> implements I, J<X> {}',
          'interface K extends I, ns.J<T> {}',
          'class Plain {}',
        ].join('\n'),
      ),
      ['A: ns.Base I J', 'K: I ns.J', 'Plain: '],
    );
    assert.deepEqual(await supersIn('javascript', 'class A extends mixin(B) {}\nclass C extends D.E {}'), [
      'A: B',
      'C: D.E',
    ]);
  });

  let ws: IndexedWorkspace;

  before(async () => {
    ws = await indexWorkspace({
      'src/runner.ts': [
        'export interface QueryRunner {',
        '  dropTable(name: string): Promise<void>;',
        '  executeMemoryDownSql(): Promise<void>;',
        '  query(sql: string): Promise<unknown>;',
        '}',
        '',
      ].join('\n'),
      // The abstract base implements no interface: its method serves QueryRunner's through the subclasses.
      'src/base.ts': [
        'export abstract class BaseQueryRunner {',
        '  async executeMemoryDownSql(): Promise<void> {}',
        '}',
        '',
      ].join('\n'),
      'src/pg.ts': [
        "import { BaseQueryRunner } from './base';",
        "import type { QueryRunner } from './runner';",
        'export class PgRunner extends BaseQueryRunner implements QueryRunner {',
        '  async dropTable(name: string): Promise<void> {}',
        '  async query(sql: string): Promise<unknown> { return sql; }',
        '}',
        '',
      ].join('\n'),
      'src/mysql.ts': [
        "import { BaseQueryRunner } from './base';",
        "import type { QueryRunner } from './runner';",
        'export class MysqlRunner extends BaseQueryRunner implements QueryRunner {',
        '  async dropTable(name: string): Promise<void> {}',
        '  async query(sql: string): Promise<unknown> { return sql; }',
        '}',
        '',
      ].join('\n'),
      'src/search.ts': ['export class Search {', '  query(text: string) { return text; }', '}', ''].join('\n'),
      'src/migrate.ts': [
        "import type { QueryRunner } from './runner';",
        "import type { Search } from './search';",
        'export async function migrate(runner: QueryRunner, search: Search) {',
        "  await runner.dropTable('a');",
        "  await runner.query('select 1');",
        "  search.query('b');",
        '}',
        '',
      ].join('\n'),
      // Never names a runner type: the receiver's type is inferred.
      'test/drop.test.ts': [
        'export async function run(ds: { createQueryRunner(): any }) {',
        '  const qr = ds.createQueryRunner();',
        '  await qr.executeMemoryDownSql();',
        "  await qr.dropTable('b');",
        '}',
        '',
      ].join('\n'),
    });
  });

  after(() => ws.dispose());

  const callers = (path: string, name: string, line: number) =>
    ws.index
      .callers({ name, path, line })
      .map((c) => `${c.path}:${c.line} ${c.confidence}`)
      .sort();

  it('counts a call through an interface the class implements for every implementation', () => {
    for (const path of ['src/pg.ts', 'src/mysql.ts']) {
      assert.deepEqual(
        callers(path, 'query', 5),
        ['src/migrate.ts:5 likely'],
        `${path}: search.query() calls Search's query, not a runner's`,
      );
      assert.deepEqual(callers(path, 'dropTable', 4), ['src/migrate.ts:4 likely', 'test/drop.test.ts:4 likely']);
    }
    assert.deepEqual(callers('src/search.ts', 'query', 2), ['src/migrate.ts:6 resolved']);
    const through = ws.index
      .callers({ name: 'dropTable', path: 'src/pg.ts', line: 4 })
      .map((c) => `${c.path}:${c.line} ${c.via ?? '-'}`)
      .sort();
    assert.deepEqual(
      through,
      ['src/migrate.ts:4 QueryRunner', 'test/drop.test.ts:4 -'],
      'the panel says which interface a call goes through',
    );
  });

  it('tells in the panel which interface a call goes through', async () => {
    const items = await panelItemsAt(ws.index, 'src/pg.ts', 'dropTable', 4);
    assert.deepEqual(
      items
        .filter((i) => i.type === 'related_code')
        .map((i) => `${i.location.path}:${i.location.line} ${i.reason}`)
        .sort(),
      [
        'src/migrate.ts:4 probably calls dropTable through QueryRunner',
        'test/drop.test.ts:4 probably calls dropTable (no other class defines dropTable)',
      ],
    );
  });

  it('joins an inherited base method to the interface method it serves', () => {
    const expected = ['test/drop.test.ts:3 likely'];
    assert.deepEqual(
      callers('src/base.ts', 'executeMemoryDownSql', 2),
      expected,
      'one method family: the name is distinctive in the workspace',
    );
    assert.deepEqual(callers('src/runner.ts', 'executeMemoryDownSql', 3), expected);
  });

  it('sees a class that an update adds to the family', async () => {
    assert.deepEqual(
      callers('src/runner.ts', 'dropTable', 2).filter((c) => c.startsWith('src/migrate')),
      ['src/migrate.ts:4 resolved'],
      'declared as the interface itself',
    );
    writeFileSync(
      join(ws.root, 'src/sqlite.ts'),
      [
        "import type { QueryRunner } from './runner';",
        'export class SqliteRunner implements QueryRunner {',
        '  async dropTable(name: string): Promise<void> {}',
        '  async executeMemoryDownSql(): Promise<void> {}',
        '  async query(sql: string): Promise<unknown> { return sql; }',
        '}',
        '',
      ].join('\n'),
    );
    await ws.index.updateFile('src/sqlite.ts');
    assert.deepEqual(callers('src/sqlite.ts', 'dropTable', 3), [
      'src/migrate.ts:4 likely',
      'test/drop.test.ts:4 likely',
    ]);
  });
});
