import { strict as assert } from 'node:assert';
import { indexWorkspace, panelItemsAt, type IndexedWorkspace } from './fixtureWorkspace';

describe('TypeScript callers on the results of calls', () => {
  let ws: IndexedWorkspace;

  before(async () => {
    ws = await indexWorkspace({
      'src/qb.ts': [
        'export abstract class QueryBuilder {',
        '  abstract execute(): number;',
        '}',
        'export interface WhereBuilder {',
        '  where(sql: string): this;',
        '}',
        'export class SelectQB extends QueryBuilder implements WhereBuilder {',
        '  where(sql: string): this { return this; }',
        '  refine(): this { return this; }',
        '  orderBy(key: string): this { return this; }',
        '  execute(): number { return 1; }',
        '}',
        'export class UpdateQB extends QueryBuilder implements WhereBuilder {',
        '  where(sql: string): this { return this; }',
        '  refine(): this { return this; }',
        '  execute(): number { return 2; }',
        '}',
        '',
      ].join('\n'),
      'src/source.ts': [
        "import { SelectQB } from './qb';",
        'export class DataSource {',
        '  createQueryBuilder(): SelectQB { return new SelectQB(); }',
        '}',
        "import { Job } from './job';",
        'export class Jobs {',
        '  async loadJob(): Promise<Job> { return new Job(); }',
        '}',
        '',
      ].join('\n'),
      // The results in variables, one awaited.
      'test/vars.test.ts': [
        'export async function vars(ds: any, jobs: any) {',
        '  const qb = ds.createQueryBuilder();',
        "  qb.orderBy('id');",
        '  const job = await jobs.loadJob();',
        '  job.execute();',
        '}',
        '',
      ].join('\n'),
      // Another family with a where() and an execute() of its own.
      'src/job.ts': [
        'export class Job {',
        '  narrow(sql: string): Job { return this; }',
        '  where(sql: string): Job { return this; }',
        '  execute(): number { return 3; }',
        '}',
        '',
      ].join('\n'),
      // A workspace class with methods named like Array's.
      'src/cursor.ts': [
        'export class Cursor {',
        '  filter(query: string): this { return this; }',
        '  /** @deprecated Use for await instead. */',
        '  forEach(cb: () => void): void {}',
        '}',
        '',
      ].join('\n'),
      // A function of the workspace, and a file that calls another function of the same name.
      'src/make.ts': ['export function makeJob(): Job { return new Job(); }', "import { Job } from './job';", ''].join('\n'),
      'test/other.test.ts': ["import { makeJob } from 'jobs-lib';", "makeJob().execute();", ''].join('\n'),
      'test/own.test.ts': ["import { makeJob } from '../src/make';", "makeJob().execute();", ''].join('\n'),
      'src/rows.ts': ['export function visit(rows: number[]) {', '  rows.filter((r) => r > 0).forEach(() => undefined);', '}', ''].join('\n'),
      // Never names a builder: every receiver is a call's result.
      'test/chain.test.ts': [
        'export function run(ds: any, jobs: any) {',
        "  ds.createQueryBuilder().orderBy('id');",
        "  ds.createQueryBuilder().where('a').execute();",
        "  jobs.next().narrow('b').execute();",
        "  ds.createQueryBuilder().where('c').orderBy('id');",
        '  ds.createQueryBuilder().refine().execute();',
        '}',
        '',
      ].join('\n'),
    });
  });

  after(() => ws.dispose());

  const callers = (path: string, name: string, line: number) => ws.index.callers({ name, path, line }).filter((c) => c.confidence !== 'name').map((c) => `${c.path}:${c.line} ${c.confidence}`).sort();

  it('resolves a call on the result of a function whose every definition returns the method\'s class, leaving out result types without the method', () => {
    // Line 5: where() may return a SelectQB, an UpdateQB, a WhereBuilder or a Job; only a SelectQB has an orderBy.
    assert.deepEqual(callers('src/qb.ts', 'orderBy', 10), ['test/chain.test.ts:2 resolved', 'test/chain.test.ts:5 resolved', 'test/vars.test.ts:3 resolved']);
  });

  it('follows a result into the variable it is kept in, and a promise into what await gives', () => {
    assert.deepEqual(callers('src/job.ts', 'execute', 4).filter((c) => c.startsWith('test/vars')), ['test/vars.test.ts:5 resolved']);
    assert.ok(!callers('src/qb.ts', 'execute', 11).some((c) => c.startsWith('test/vars')), "the awaited Job's execute is not a builder's");
  });

  it('counts a call on a result that may be any class of the method\'s family as likely, and one that may be another family\'s as nothing', () => {
    // refine() returns a SelectQB or an UpdateQB, both QueryBuilders; where() may also return a Job, whose execute is another.
    assert.deepEqual(callers('src/qb.ts', 'execute', 16), ['test/chain.test.ts:6 likely']);
    assert.deepEqual(callers('src/qb.ts', 'execute', 11), ['test/chain.test.ts:6 likely']);
    assert.deepEqual(callers('src/job.ts', 'execute', 4).filter((c) => !c.startsWith('test/vars')), ['test/chain.test.ts:4 resolved', 'test/own.test.ts:2 resolved'], 'narrow() and makeJob() return only a Job; another makeJob() is not the workspace\'s');
  });

  it('takes the result of a built-in method name for a built-in\'s, not for the workspace class that has a method of that name', () => {
    assert.deepEqual(callers('src/cursor.ts', 'forEach', 4), []);
    assert.deepEqual(ws.index.deprecatedUsedIn('src/rows.ts'), [], 'Array.filter(…).forEach() is no deprecated Cursor.forEach');
  });

  it('tells in the panel what result a call is on', async () => {
    const items = await panelItemsAt(ws.index, 'src/qb.ts', 'orderBy', 10);
    assert.deepEqual(items.filter((i) => i.type === 'related_code' && i.location.path === 'test/chain.test.ts').map((i) => `${i.location.line} ${i.reason}`), [
      '2 calls orderBy on what createQueryBuilder() returns',
      '5 calls orderBy on what where() returns',
    ]);
  });
});
