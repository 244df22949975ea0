import { strict as assert } from 'node:assert';
import { callersIn as callersOf, indexWorkspace, panelItemsAt, type IndexedWorkspace } from './fixtureWorkspace';

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
      'src/make.ts': ['export function makeJob(): Job { return new Job(); }', "import { Job } from './job';", ''].join(
        '\n',
      ),
      'test/other.test.ts': ["import { makeJob } from 'jobs-lib';", 'makeJob().execute();', ''].join('\n'),
      'test/own.test.ts': ["import { makeJob } from '../src/make';", 'makeJob().execute();', ''].join('\n'),
      'src/rows.ts': [
        'export function visit(rows: number[]) {',
        '  rows.filter((r) => r > 0).forEach(() => undefined);',
        '}',
        '',
      ].join('\n'),
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

  const callers = (path: string, name: string, line: number) => callersOf(ws, path, name, line);

  it("resolves a call on the result of a function whose every definition returns the method's class, leaving out result types without the method", () => {
    // Line 5: where() may return a SelectQB, an UpdateQB, a WhereBuilder or a Job; only a SelectQB has an orderBy.
    assert.deepEqual(callers('src/qb.ts', 'orderBy', 10), [
      'test/chain.test.ts:2 resolved',
      'test/chain.test.ts:5 resolved',
      'test/vars.test.ts:3 resolved',
    ]);
  });

  it('follows a result into the variable it is kept in, and a promise into what await gives', () => {
    assert.deepEqual(
      callers('src/job.ts', 'execute', 4).filter((c) => c.startsWith('test/vars')),
      ['test/vars.test.ts:5 resolved'],
    );
    assert.ok(
      !callers('src/qb.ts', 'execute', 11).some((c) => c.startsWith('test/vars')),
      "the awaited Job's execute is not a builder's",
    );
  });

  it("counts a call on a result that may be any class of the method's family as likely, and one that may be another family's as nothing", () => {
    // refine() returns a SelectQB or an UpdateQB, both QueryBuilders; where() may also return a Job, whose execute is another.
    assert.deepEqual(callers('src/qb.ts', 'execute', 16), ['test/chain.test.ts:6 likely']);
    assert.deepEqual(callers('src/qb.ts', 'execute', 11), ['test/chain.test.ts:6 likely']);
    assert.deepEqual(
      callers('src/job.ts', 'execute', 4).filter((c) => !c.startsWith('test/vars')),
      ['test/chain.test.ts:4 resolved', 'test/own.test.ts:2 resolved'],
      "narrow() and makeJob() return only a Job; another makeJob() is not the workspace's",
    );
  });

  it("takes the result of a built-in method name for a built-in's, not for the workspace class that has a method of that name", () => {
    assert.deepEqual(callers('src/cursor.ts', 'forEach', 4), []);
    assert.deepEqual(
      ws.index.deprecatedUsedIn('src/rows.ts'),
      [],
      'Array.filter(…).forEach() is no deprecated Cursor.forEach',
    );
  });

  it('tells in the panel what result a call is on', async () => {
    const items = await panelItemsAt(ws.index, 'src/qb.ts', 'orderBy', 10);
    assert.deepEqual(
      items
        .filter((i) => i.type === 'related_code' && i.location.path === 'test/chain.test.ts')
        .map((i) => `${i.location.line} ${i.reason}`),
      ['2 calls orderBy on what createQueryBuilder() returns', '5 calls orderBy on what where() returns'],
    );
  });
});

describe('TypeScript callers on what a function of several definitions returns', () => {
  let ws: IndexedWorkspace;

  before(async () => {
    ws = await indexWorkspace({
      // Two APIs of one package, each with its own object() and its own families of schemas.
      'src/classic.ts': [
        'export interface Schema {',
        '  parse(data: unknown): unknown;',
        '  refine(): this;',
        '}',
        'export interface ObjectSchema extends Schema {',
        '  extend(): ObjectSchema;',
        '}',
        'export function object(): ObjectSchema { return {} as ObjectSchema; }',
        'export function shape(): ObjectSchema { return {} as ObjectSchema; }',
        'export function number(): ObjectSchema { return {} as ObjectSchema; }',
        'export function datetime(): ObjectSchema { return {} as ObjectSchema; }',
        '',
      ].join('\n'),
      'src/mini.ts': [
        'export interface MiniObject {',
        '  check(): MiniObject;',
        '  refine(): MiniObject;',
        '}',
        'export type MiniShape = MiniObject & { loose: boolean };',
        'export function object(): MiniObject { return {} as MiniObject; }',
        'export function shape(): MiniShape { return {} as MiniShape; }',
        '',
      ].join('\n'),
      // Another family with a parse() of its own, which every schema's internals have.
      'src/internals.ts': ['export interface Internals {', '  parse(payload: unknown): unknown;', '}', ''].join('\n'),
      'test/mocker.ts': ['export class Mocker {', '  get number(): number { return 1; }', '}', ''].join('\n'),
      'src/regexes.ts': ['export function datetime(): RegExp { return /x/; }', ''].join('\n'),
      // A promise of the workspace's own, and a value that extends JavaScript's Promise.
      'src/lazy.ts': [
        'export interface Sub extends Promise<number> { stop(): void; }',
        'export class Lazy implements Promise<number> {',
        '  subscribe(): Sub { return {} as Sub; }',
        '  then(): Lazy { return this; }',
        '}',
        'export class Feed { subscribe(): Feed { return this; } }',
        '',
      ].join('\n'),
      'src/useLazy.ts': [
        "import { Lazy } from './lazy';",
        'export function run(l: Lazy) {',
        '  const s = l.subscribe();',
        '  return s.then();',
        '}',
        '',
      ].join('\n'),
      // Imports the other API: its object() gives a MiniObject, its shape() an alias.
      'test/mini.test.ts': [
        "import type { Internals } from '../src/internals';",
        "import * as m from '../src/mini';",
        'export function run(i: Internals) {',
        '  m.object().refine();',
        '  m.shape().parse(1);',
        '  return i;',
        '}',
        '',
      ].join('\n'),
      'test/use.test.ts': [
        "import type { Internals } from '../src/internals';",
        "import * as z from '../src/classic';",
        'export function run(i: Internals) {',
        '  const schema = z.object();',
        '  schema.parse(1);',
        '  const refined = z.object().refine();',
        '  refined.extend();',
        '  const s = z.shape();',
        '  s.parse(2);',
        '  const n = z.number();',
        '  n.parse(3);',
        '  z.datetime().parse(4);',
        '  return i;',
        '}',
        '',
      ].join('\n'),
    });
  });

  after(() => ws.dispose());

  const callers = (path: string, name: string, line: number) => callersOf(ws, path, name, line);

  it('leaves out a call on the result when every definition returns a type of another family', () => {
    // object() returns an ObjectSchema or a MiniObject: neither is an Internals, and one has another parse().
    assert.ok(!callers('src/internals.ts', 'parse', 2).includes('test/use.test.ts:5 likely'));
    assert.ok(
      callers('src/classic.ts', 'parse', 2).includes('test/use.test.ts:5 likely'),
      'an ObjectSchema is a Schema',
    );
    // number() returns an ObjectSchema, or a number (a getter of that name), which has no workspace method.
    assert.ok(!callers('src/internals.ts', 'parse', 2).includes('test/use.test.ts:11 likely'));
    assert.ok(callers('src/classic.ts', 'parse', 2).includes('test/use.test.ts:11 likely'));
    // datetime() returns an ObjectSchema, or a RegExp, which is JavaScript's own.
    assert.ok(!callers('src/internals.ts', 'parse', 2).includes('test/use.test.ts:12 likely'));
    assert.ok(callers('src/classic.ts', 'parse', 2).includes('test/use.test.ts:12 likely'));
    // subscribe() returns a Feed or a Sub, a Promise: the then() of Lazy's family.
    assert.deepEqual(callers('src/lazy.ts', 'then', 4), ['src/useLazy.ts:4 likely']);
  });

  it('keeps a call on a result declared as a base that returns this, or as a type alias', () => {
    // refine() returns a Schema (`this`) or a MiniObject: a Schema's `this` may be an ObjectSchema.
    assert.deepEqual(callers('src/classic.ts', 'extend', 6), ['test/use.test.ts:7 likely']);
    // shape() returns an ObjectSchema or an alias, which may be anything: the file that imports the alias's API may call parse().
    assert.ok(callers('src/internals.ts', 'parse', 2).includes('test/mini.test.ts:5 likely'));
  });

  it('reads the result by the definition the file imports, when there are several', () => {
    // use.test.ts imports the classic API: its shape() gives an ObjectSchema, which is no Internals.
    assert.ok(!callers('src/internals.ts', 'parse', 2).includes('test/use.test.ts:9 likely'));
    assert.ok(callers('src/classic.ts', 'parse', 2).includes('test/use.test.ts:9 likely'));
    // mini.test.ts imports the mini API: its object() gives a MiniObject, whose refine() is its own.
    assert.deepEqual(callers('src/mini.ts', 'refine', 3), ['test/mini.test.ts:4 resolved']);
    assert.ok(!callers('src/classic.ts', 'refine', 3).includes('test/mini.test.ts:4 likely'));
  });
});

describe('JavaScript callers on what a function returns by its return statements', () => {
  let ws: IndexedWorkspace;

  before(async () => {
    ws = await indexWorkspace({
      'lib/client.js': [
        'class Client {',
        '  send(msg) { return msg; }',
        '  retry() { return this; }',
        '}',
        'class Job {',
        '  send(msg) { return msg; }',
        '}',
        'function createClient(options) {',
        '  const client = new Client(options);',
        '  return client;',
        '}',
        'function createJob() { return new Job(); }',
        'module.exports = { Client, Job, createClient, createJob };',
        '',
      ].join('\n'),
      'app/main.js': [
        "const { createClient, createJob } = require('../lib/client');",
        'const client = createClient({});',
        "client.send('a');",
        "createClient().retry().send('b');",
        "createJob().send('c');",
        '',
      ].join('\n'),
    });
  });

  after(() => ws.dispose());

  it("resolves a call on what a factory returns, and leaves out one on another class's", () => {
    const callers = (line: number) => callersOf(ws, 'lib/client.js', 'send', line);
    assert.deepEqual(callers(2), ['app/main.js:3 resolved', 'app/main.js:4 resolved']);
    assert.deepEqual(callers(6), ['app/main.js:5 resolved']);
  });
});

describe('TypeScript callers on a result whose class shares its name with another', () => {
  let ws: IndexedWorkspace;

  before(async () => {
    ws = await indexWorkspace({
      // Two major versions of one API side by side, each with its own ZodString.
      'src/v3/types.ts': ['export class ZodString {', '  uuid(): ZodString { return this; }', '}', ''].join('\n'),
      'src/v4/schemas.ts': [
        'export class ZodString {',
        '  uuid(): ZodString { return this; }',
        '}',
        'export function string(): ZodString { return new ZodString(); }',
        '',
      ].join('\n'),
      'test/v4.test.ts': ["import * as z from '../src/v4/schemas';", 'z.string().uuid();', ''].join('\n'),
    });
  });

  after(() => ws.dispose());

  it('resolves a call on the result only for the class the producing file names', () => {
    const callers = (path: string) => callersOf(ws, path, 'uuid', 2);
    assert.deepEqual(callers('src/v4/schemas.ts'), ['test/v4.test.ts:2 resolved']);
    assert.ok(
      !callers('src/v3/types.ts').some((c) => c.endsWith('resolved')),
      "string() returns v4's ZodString, not v3's",
    );
  });
});
