import { strict as assert } from 'node:assert';
import { factsOfSource, indexWorkspace, type IndexedWorkspace } from './fixtureWorkspace';

describe("TypeScript callers follow a parameter's or a field's declared type", () => {
  let ws: IndexedWorkspace;

  before(async () => {
    ws = await indexWorkspace({
      'src/generator.ts': [
        'export interface Options {',
        '  format: () => string;', // a property, not a method
        '}',
        'export interface Formatter {',
        '  format(): string;',
        '}',
        'export class Generator implements Formatter {',
        '  /** @deprecated Use the options instead. */',
        '  format(): string {',
        "    return 'x';",
        '  }',
        '}',
        '',
      ].join('\n'),
      'src/use.ts': [
        "import { Generator, type Formatter, type Options } from './generator';",
        'export function byOptions(opts: Options) {',
        '  return opts.format();',
        '}',
        'export function byClass(gen: Generator) {',
        '  const inner = (n: number) => gen.format() + n;',
        '  return inner(1);',
        '}',
        'export function byInterface(f: Formatter) {',
        '  return f.format();',
        '}',
        'export function untyped(g: any) {',
        '  return g.format();',
        '}',
        'export function shadowed(gen: Generator) {',
        '  const walk = function walk(gen) { return gen.format(); };',
        '  return walk(gen);',
        '}',
        '',
      ].join('\n'),
      'src/controller.ts': [
        "import { Generator, type Options } from './generator';",
        'export class Controller {',
        '  private opts: Options;',
        '  constructor(private readonly gen: Generator) {}',
        '  render() {',
        '    const a = this.gen.format();',
        '    return a + this.opts.format();',
        '  }',
        '}',
        '',
      ].join('\n'),
      'src/builder.ts': [
        'export class InsertBuilder {',
        '  valuesFromSelect(sql: string) { return this; }',
        '  execute() { return 1; }',
        '}',
        'export class DeleteBuilder {',
        '  execute() { return 2; }',
        '}',
        'export function builder(): any { return new InsertBuilder(); }', // says nothing of its type
        '',
      ].join('\n'),
      // Never names InsertBuilder: the receiver's type is inferred.
      'test/insert.test.ts': [
        "import { builder } from '../src/builder';",
        "import type { Options } from '../src/generator';",
        'export function run(opts: Options) {',
        '  const qb = builder();',
        "  qb.valuesFromSelect('x');",
        '  qb.execute();',
        "  (opts as any).valuesFromSelect('y');",
        '}',
        '',
      ].join('\n'),
    });
  });

  after(() => ws.dispose());

  it('resolves a call on a parameter of the class, keeps one through an interface that declares the method as likely, and drops one on a shape without it', () => {
    const callers = ws.index
      .callers({ name: 'format', path: 'src/generator.ts', line: 9 })
      .filter((c) => c.path === 'src/use.ts')
      .map((c) => `${c.line} ${c.confidence}`);
    assert.deepEqual(
      callers,
      ['6 resolved', '10 likely', '13 likely', '16 likely'],
      'line 3 calls the format property of Options',
    );
  });

  it("resolves a call on a field by the type the class declares for it (a constructor's parameter property), and drops one on a field of a shape without the method", () => {
    const callers = ws.index
      .callers({ name: 'format', path: 'src/generator.ts', line: 9 })
      .filter((c) => c.path === 'src/controller.ts')
      .map((c) => `${c.line} ${c.confidence}`);
    assert.deepEqual(callers, ['6 resolved']);
    assert.deepEqual(
      ws.index.deprecatedUsedIn('src/controller.ts').map((d) => `${d.name}@${d.line} ${d.confidence}`),
      ['format@6 resolved'],
    );
  });

  it('warns about the deprecated method where the receiver is its class', () => {
    const uses = ws.index.deprecatedUsedIn('src/use.ts').map((d) => `${d.name}@${d.line} ${d.confidence}`);
    // Formatter declares a format that is not deprecated: a call that may be either does not warn.
    assert.deepEqual(uses, ['format@6 resolved']);
  });

  it('counts calls of a method whose name only its class defines, on receivers of unknown type, as likely', () => {
    const show = (name: string, line: number) =>
      ws.index.callers({ name, path: 'src/builder.ts', line }).map((c) => `${c.path}:${c.line} ${c.confidence}`);
    assert.deepEqual(show('valuesFromSelect', 2), ['test/insert.test.ts:5 likely', 'test/insert.test.ts:7 likely']);
    assert.ok(
      !show('execute', 3).some((c) => c.startsWith('test/insert.test.ts') && !c.endsWith('name')),
      'two classes define execute: which one qb.execute() calls is unknown',
    );
  });
});

describe('TypeScript calls of a local that shadows a definition', () => {
  it('leaves out a call of a parameter or variable named like an imported function', async () => {
    const f = await factsOfSource(
      'typescript',
      [
        "import { status } from './error';", // 1
        'export const a = ({ status }) => status(201);', // 2: a destructured parameter
        'export function b(status: (n: number) => void) { status(1); }', // 3: a parameter
        'export function c() { const status = make(); status(2); }', // 4: a variable
        'export function d() { return status(404); }', // 5: the import
        'export class E { status = 1; run() { return status(500); } }', // 6: a field is no local
      ].join('\n'),
    );
    assert.deepEqual(
      f.calls.filter((c) => c.name === 'status').map((c) => c.line),
      [5, 6],
    );
  });
});

describe('TypeScript calls on unknown receivers', () => {
  let ws: IndexedWorkspace;

  before(async () => {
    ws = await indexWorkspace({
      'src/schema.ts': ['export class Schema {', '  parse(text: string) { return text; }', '}', ''].join('\n'),
      // Reaches Schema only as z.Schema.
      'test/a.test.ts': [
        "import * as z from '../src/schema';",
        "export const f = (s: any) => s.parse('a');",
        "export const g = () => JSON.parse('{}');",
        '',
      ].join('\n'),
      // Names Schema.
      'test/b.test.ts': [
        "import { Schema } from '../src/schema';",
        "export const f = (s: any) => s.parse('a');",
        "export const g = () => JSON.parse('{}');",
        'export const h = new Schema();',
        '',
      ].join('\n'),
    });
  });

  after(() => ws.dispose());

  it("counts an unknown receiver's call where the class is in scope, even through a namespace, but not a global object's", () => {
    const found = ws.index
      .callers({ name: 'parse', path: 'src/schema.ts', line: 2 }, 10)
      .map((c) => `${c.path}:${c.line} ${c.confidence}`);
    assert.deepEqual(found.sort(), ['test/a.test.ts:2 likely', 'test/b.test.ts:2 likely']);
  });
});
