import { strict as assert } from 'node:assert';
import { factsOfSource, indexWorkspace, panelItemsAt, type IndexedWorkspace } from './fixtureWorkspace';

describe('TypeScript callers through fields', () => {
  let ws: IndexedWorkspace;

  before(async () => {
    ws = await indexWorkspace({
      'src/services.ts': [
        'export interface Driver {',
        '  escape(s: string): string;',
        '}',
        'export class PgDriver implements Driver {',
        '  escape(s: string): string { return s; }',
        '}',
        'export class Logger {',
        '  log(message: string): void {}',
        '}',
        'export class Naming {',
        '  tableName(name: string): string { return name; }',
        '}',
        '',
      ].join('\n'),
      'src/dataSource.ts': [
        "import { Driver, Logger, Naming } from './services';",
        'export class DataSource {',
        '  driver: Driver;',
        '  readonly logger = new Logger();',
        '  constructor(public naming: Naming) {}',
        '}',
        '',
      ].join('\n'),
      'src/baseRunner.ts': [
        "import { DataSource } from './dataSource';",
        'export abstract class BaseRunner {',
        '  protected dataSource: DataSource;',
        '}',
        '',
      ].join('\n'),
      // Names neither Naming nor Logger nor Driver: every receiver is a field the base class or DataSource types.
      'src/pgRunner.ts': [
        "import { BaseRunner } from './baseRunner';",
        'export class PgRunner extends BaseRunner {',
        '  run(): void {',
        "    this.dataSource.naming.tableName('users');",
        "    this.dataSource.logger.log('ran');",
        "    this.dataSource.driver.escape('x');",
        '  }',
        '}',
        "import type { DataSource } from './dataSource';",
        "export function report(ds: DataSource) { ds.logger.log('report'); }",
        '',
      ].join('\n'),
      // Elements of typed arrays, in callbacks and loops.
      'test/sources.test.ts': [
        "import { DataSource } from '../src/dataSource';",
        "describe('sources', () => {",
        '  let sources: DataSource[];',
        "  it('logs', () => sources.map((source) => source.logger.log('a')));",
        "  it('names', () => { for (const s of sources) s.naming.tableName('t'); });",
        '});',
        '',
      ].join('\n'),
      // A library's Logger, and a props type whose name another file defines too.
      'src/nest.ts': [
        "import { Logger } from '@nestjs/common';",
        'export class Svc {',
        '  logger: Logger;',
        "  go() { this.logger.log('y'); }",
        '}',
        '',
      ].join('\n'),
      'src/propsA.ts': ["import { Naming } from './services';", 'export interface Props { item: Naming }', ''].join(
        '\n',
      ),
      'src/propsB.ts': [
        'interface Props { item: Naming2 | undefined }',
        "export function show(props: Props) { props.item.tableName('z'); }",
        '',
      ].join('\n'),
      'src/propsC.ts': [
        'type Props = { item: Naming3 };',
        "export function show(props: Props) { props.item.tableName('w'); }",
        '',
      ].join('\n'),
      // A library's class of the same name as a workspace class with a Naming field.
      'src/holder.ts': ["import { Naming } from './services';", 'export class Client { naming: Naming; }', ''].join(
        '\n',
      ),
      'src/pg.ts': [
        "import { Client } from 'pg';",
        "export function f(c: Client) { c.naming.tableName('v'); }",
        '',
      ].join('\n'),
      'src/shapes.ts': [
        'export class Shape {',
        '  draw(): void {}',
        '}',
        'export class Square extends Shape {',
        '  draw(): void { super.draw(); }',
        '}',
        '',
      ].join('\n'),
      // Another class with a field of the same name and a tableName of its own.
      'src/other.ts': [
        'class OtherNaming {',
        '  tableName(name: string): string { return name; }',
        '}',
        'export class Other {',
        '  naming = new OtherNaming();',
        "  run() { this.naming.tableName('b'); }",
        '}',
        '',
      ].join('\n'),
    });
  });

  after(() => ws.dispose());

  const callers = (path: string, name: string, line: number) =>
    ws.index
      .callers({ name, path, line })
      .filter((c) => c.confidence !== 'name')
      .map((c) => `${c.path}:${c.line} ${c.confidence}`)
      .sort();

  it("resolves a call on a field a base class declares, and on a field of a typed value, in files that never name the method's class", () => {
    assert.deepEqual(
      callers('src/services.ts', 'tableName', 11).filter((c) => c.startsWith('src/')),
      ['src/pgRunner.ts:4 resolved'],
    );
    assert.deepEqual(
      callers('src/services.ts', 'log', 8).filter((c) => c.startsWith('src/')),
      ['src/pgRunner.ts:10 resolved', 'src/pgRunner.ts:5 resolved'],
    );
    assert.deepEqual(
      callers('src/other.ts', 'tableName', 2),
      ['src/other.ts:6 resolved'],
      'the other naming field is of the other class',
    );
  });

  it("types the element of a typed array in an array method's callback and in a for…of loop", async () => {
    assert.deepEqual(
      callers('src/services.ts', 'log', 8).filter((c) => c.startsWith('test/')),
      ['test/sources.test.ts:4 resolved'],
    );
    assert.deepEqual(
      callers('src/services.ts', 'tableName', 11).filter((c) => c.startsWith('test/')),
      ['test/sources.test.ts:5 resolved'],
    );
    const f = await factsOfSource(
      'typescript',
      [
        'class Svc {', // 1
        '  private items: Array<Item> = [];', // 2
        '  constructor(private readonly runners: readonly Runner[]) {}', // 3
        '  go(list: ns.Thing[], other: Thing[]) {', // 4
        '    this.items.forEach((i) => i.run()); list.filter((t: Other) => t.ok()); for (const r of this.runners) r.start();', // 5
        '    list.map(function (x) { return x.size(); }); other.find(y => y.is()); list.reduce((a, b) => b.add(), 0);', // 6
        '  }', // 7
        '}', // 8
        'function plain(list: Thing[]) { const list2 = list; for (const z of list2) z.go(); }', // 9
      ].join('\n'),
    );
    const at = (line: number) =>
      f.calls
        .filter((c) => c.line === line && !/^(forEach|filter|map|find|reduce)$/.test(c.name))
        .map((c) => `${c.qualifier ?? ''}.${c.name}`);
    assert.deepEqual(
      at(5),
      ['type:Item.run', 'type:Other.ok', 'type:Runner.start'],
      'a field, an annotated callback parameter, a parameter property',
    );
    assert.deepEqual(
      at(6),
      ['type:ns.Thing.size', 'type:Thing.is', 'b.add'],
      "a function callback, a bare parameter; reduce's is no element",
    );
    assert.deepEqual(at(9), ['z.go'], 'an array copied without a type says nothing');
  });

  it("counts a call on a field typed as an interface the method's class implements as likely, through that interface", async () => {
    assert.deepEqual(callers('src/services.ts', 'escape', 5), ['src/pgRunner.ts:6 likely']);
    const items = await panelItemsAt(ws.index, 'src/services.ts', 'escape', 5);
    assert.deepEqual(
      items.filter((i) => i.type === 'related_code').map((i) => `${i.location.path}:${i.location.line} ${i.reason}`),
      ['src/pgRunner.ts:6 probably calls escape on the field driver, declared as Driver'],
    );
    const logs = await panelItemsAt(ws.index, 'src/services.ts', 'log', 8);
    assert.deepEqual(
      logs
        .filter((i) => i.type === 'related_code')
        .map((i) => `${i.location.line} ${i.reason}`)
        .sort(),
      ['10 calls log on the field logger', '4 calls log on the field logger', '5 calls log on the field logger'],
    );
  });

  it("leaves out a field whose type is another class of the same name, or whose owner's name more than one file defines", () => {
    assert.ok(!callers('src/services.ts', 'log', 8).some((c) => c.startsWith('src/nest.ts')), "the library's Logger");
    assert.ok(
      !callers('src/services.ts', 'tableName', 11).some((c) => /^src\/(propsB|propsC|pg)\.ts/.test(c)),
      "the other Props, a type alias named Props, a library's Client",
    );
  });

  it("gives a callback its own parameters, and takes this for the class only where it is the class's", async () => {
    const f = await factsOfSource(
      'typescript',
      [
        'function a(users: User[], orders: any[]) { users.forEach((u) => u.save()); orders.forEach((u) => u.cancel()); }', // 1
        'function h(x: Foo, items: Bar[]) { items.forEach((x) => x.b()); x.foo(); }', // 2
        'class Sub extends Base {', // 3
        '  go() {', // 4
        '    const o = { helper: 1, run() { this.helper.save(); } };', // 5
        '    const K = class { w = 1; k() { this.w.save(); } };', // 6
        '    items.map(function () { this.repo.save(); });', // 7
        '    const arrow = () => this.repo.save();', // 8
        '    function inner() { this.repo.save(); }', // 9
        '  }', // 10
        '  handlers = { save() { this.repo.save(); } };', // 11
        '}', // 12
        'function d(repo: Repo, xs: Repo[]) { xs.forEach(({ repo }) => repo.save()); xs.map((...repo) => repo.save()); repo.go(); }', // 13
        'function e(repo: Repo) { try { repo.a(); } catch (repo) { repo.b(); } [1].forEach(() => { const repo = make(); repo.c(); }); repo.d(); }', // 14
      ].join('\n'),
    );
    const at = (line: number) =>
      f.calls
        .filter((c) => c.line === line && !/^(forEach|map)$/.test(c.name))
        .map((c) => `${c.qualifier ?? ''}.${c.name}`);
    assert.deepEqual(at(1), ['type:User.save', 'u.cancel'], "another callback's parameter of the same name");
    assert.deepEqual(
      at(2),
      ['type:Bar.b', 'type:Foo.foo'],
      'the callback parameter hides the function parameter only inside',
    );
    assert.deepEqual(
      [5, 6, 7, 8, 9, 11].map(at),
      [
        ['this.helper.save'],
        ['this.w.save'],
        ['this.repo.save'],
        ['type:@Sub.repo.save'],
        ['this.repo.save'],
        ['this.repo.save'],
      ],
      "an object's method (a field's too), a class expression, a function have their own this; an arrow has the method's",
    );
    assert.deepEqual(
      at(13),
      ['repo.save', 'repo.save', 'type:Repo.go'],
      'destructured and rest parameters hide the name',
    );
    assert.deepEqual(
      at(14),
      ['type:Repo.a', 'repo.b', '.make', 'type:()make~repo.c', 'type:Repo.d'],
      "a catch parameter, a callback's own variable; a result keeps the name of the variable holding it",
    );
    assert.ok(
      !f.symbols.some((s) => s.name === 'save' && s.container === 'Sub'),
      "an object literal's method is no method of the class",
    );
  });

  it("takes super.m() for the base class's method, not for the override it is written in", () => {
    assert.deepEqual(callers('src/shapes.ts', 'draw', 5), []);
    assert.deepEqual(callers('src/shapes.ts', 'draw', 2), ['src/shapes.ts:5 likely']);
  });

  it("keeps a field named like an object's built-in property as a plain field", async () => {
    const f = await factsOfSource(
      'typescript',
      ['class Odd {', '  __proto__: Naming;', '  constructor: Logger;', '}'].join('\n'),
    );
    const fields = f.symbols.find((s) => s.name === 'Odd')?.fields;
    assert.equal(Object.getPrototypeOf(fields), null);
    assert.deepEqual(Object.entries(fields ?? {}), [
      ['__proto__', 'Naming'],
      ['constructor', 'Logger'],
    ]);
  });
});

describe('TypeScript fields typed through type parameters and intersections', () => {
  it("reads a field's type from the class's type parameter bound, an intersection's only named member and a getter's return type", async () => {
    const f = await factsOfSource(
      'typescript',
      [
        'class Orm<D extends Driver = Driver, EM extends D[typeof K] & EntityManager<D> = D[typeof K] & EntityManager<D>, T = unknown> {',
        "  em!: EM & { '~entities'?: T };",
        '  readonly driver: D;',
        '  both: Naming & Logger;',
        '  raw: T;',
        '  constructor(public naming: Naming & { extra: 1 }) {}',
        '  get req(): HonoRequest<D> { return new HonoRequest(); }',
        '  get schema(): ReturnType<D["schema"]> { return this.driver.schema; }',
        '}',
      ].join('\n'),
    );
    const fields = f.symbols.find((s) => s.name === 'Orm')?.fields;
    assert.deepEqual({ ...fields }, { em: 'EntityManager', driver: 'Driver', naming: 'Naming', req: 'HonoRequest' });
  });

  it("resolves a call through such a field in a file that never names the method's class", async () => {
    const ws = await indexWorkspace({
      'src/em.ts': ['export class EntityManager {', '  find(name: string) { return name; }', '}', ''].join('\n'),
      'src/orm.ts': [
        "import { EntityManager } from './em';",
        'export class Orm<EM extends EntityManager = EntityManager> {',
        '  em!: EM & { tag?: string };',
        '}',
        '',
      ].join('\n'),
      'test/find.test.ts': [
        "import { Orm } from '../src/orm';",
        'let orm: Orm;',
        "test('finds', () => orm.em.find('a'));",
        '',
      ].join('\n'),
    });
    try {
      const found = ws.index
        .callers({ name: 'find', path: 'src/em.ts', line: 2 }, 10)
        .map((c) => `${c.path}:${c.line} ${c.confidence}`);
      assert.deepEqual(found, ['test/find.test.ts:3 resolved']);
    } finally {
      ws.dispose();
    }
  });
});
