import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { factsOfSource, indexWorkspace, panelItemsAt, type IndexedWorkspace } from './fixtureWorkspace';

// A callback's parameter (`app.get('/', (c) => c.json())`) is typed by the signature of the method it
// is passed to, which takes a type checker to read. The workspace's own declarations of that name say
// what such a value usually is.
describe('TypeScript values typed by what the workspace declares for their name', () => {
  let workspace: IndexedWorkspace;

  const middleware = (name: string) =>
    [
      "import { Context } from '../context';", // 1
      `export function ${name}(c: Context, res: Response) {`, // 2
      "  c.header('x');", // 3
      '  return res.ok;', // 4
      '}', // 5
    ].join('\n');

  before(async () => {
    workspace = await indexWorkspace({
      'src/context.ts': [
        'export class HonoRequest {', // 1
        '  header(name: string) { return name; }', // 2
        '}', // 3
        'export class Context {', // 4
        '  req = new HonoRequest();', // 5
        '  json(value: unknown) { return value; }', // 6
        '  header(name: string) { return name; }', // 7
        '}', // 8
      ].join('\n'),
      // Another Context, which has no `req`, and an alias named like the request class.
      'src/router/node.ts': 'export interface Context {\n  params: string[];\n}\n',
      'src/client/types.ts':
        "import { App } from '../app';\nexport type HonoRequest = (typeof App.prototype)['get'];\n",
      'src/app.ts': [
        'export class App {',
        '  get(path: string, handler: (c: any) => unknown) { return handler; }',
        '}',
      ].join('\n'),
      'src/mw/cors.ts': middleware('cors'),
      'src/mw/etag.ts': middleware('etag'),
      'src/mw/logger.ts': middleware('logger'),
      // Two files declare `ctx` a Context: too few to say what a `ctx` is.
      'src/mw/a.ts': "import { Context } from '../context';\nexport const a = (ctx: Context) => ctx;",
      'src/mw/b.ts': "import { Context } from '../context';\nexport const b = (ctx: Context) => ctx;",
      // `h` is declared a Context in three files and a Headers in three: no agreement.
      'src/h/one.ts': "import { Context } from '../context';\nexport const one = (h: Context) => h;",
      'src/h/two.ts': "import { Context } from '../context';\nexport const two = (h: Context) => h;",
      'src/h/three.ts': "import { Context } from '../context';\nexport const three = (h: Context) => h;",
      'src/h/four.ts': 'export const four = (h: Headers) => h;',
      'src/h/five.ts': 'export const five = (h: Headers) => h;',
      'src/h/six.ts': 'export const six = (h: Headers) => h;',
      // Never names Context: its `c` is typed only by App.get's signature.
      'src/routes.ts': [
        "import { App } from './app';", // 1
        'const app = new App();', // 2
        "app.get('/', (c) => c.json({}));", // 3
        "app.get('/a', (ctx) => ctx.json({}));", // 4
        "app.get('/b', (h) => h.json({}));", // 5
        "app.get('/c', (c) => c.req.header('x'));", // 6
      ].join('\n'),
      // Names Context, and calls json on a value of a name the workspace declares a Response.
      'src/proxy.ts': [
        "import { Context } from './context';", // 1
        'export function proxy(c: Context, pending: any[]) {', // 2
        '  pending.forEach((res) => res.json());', // 3
        '  return c.json({});', // 4
        '}', // 5
        'export async function relay(c: Context) {', // 6
        '  const res = await globalThis.fetch(c.url);', // 7
        '  const body = await res.json();', // 8
        '  const made = await globalThis.fetch(c.url);', // 9
        '  return made.json(body);', // 10
        '}', // 11
        "export const all = (list: any[]) => list.forEach((c) => c.req.header('y'));", // 12
      ].join('\n'),
    });
  });

  after(() => workspace.dispose());

  const callers = (name: string, line: number) =>
    workspace.index
      .callers({ name, path: 'src/context.ts', line }, 100)
      .map((c) => `${c.path}:${c.line} ${c.confidence}`)
      .sort();

  it('counts a call on an untyped callback parameter whose name the workspace declares as the class', () => {
    assert.ok(callers('json', 6).includes('src/routes.ts:3 likely'), callers('json', 6).join(', '));
  });

  it("types a field of such a value by the class's field (of the classes so named, the one that declares it): its own method, not the class's namesake", () => {
    assert.ok(callers('header', 2).includes('src/routes.ts:6 likely'), callers('header', 2).join(', '));
    assert.ok(!callers('header', 7).some((c) => c.startsWith('src/routes.ts:6')), callers('header', 7).join(', '));
    // In a file that names Context, too.
    assert.ok(callers('header', 2).includes('src/proxy.ts:12 likely'), callers('header', 2).join(', '));
    assert.ok(!callers('header', 7).some((c) => c.startsWith('src/proxy.ts:12')), callers('header', 7).join(', '));
  });

  it('tells in the panel why such a call counts', async () => {
    const items = await panelItemsAt(workspace.index, 'src/context.ts', 'header', 2);
    const reasons = items
      .filter((i) => i.type === 'related_code')
      .map((i) => `${i.location.path}:${i.location.line} ${i.reason}`);
    assert.ok(
      reasons.includes(
        'src/routes.ts:6 probably calls header (c.req is typed as its class elsewhere in this workspace)',
      ),
      reasons.join('\n'),
    );
  });

  it('needs three files that agree on the name before it says what the value is', () => {
    const found = callers('json', 6);
    assert.ok(!found.some((c) => c.startsWith('src/routes.ts:4')), `two declarations of ctx: ${found.join(', ')}`);
    assert.ok(!found.some((c) => c.startsWith('src/routes.ts:5')), `h is a Context and a Headers: ${found.join(', ')}`);
  });

  it("leaves out a call on a name the workspace declares as another type, in a file that names the method's class", () => {
    const found = callers('json', 6);
    assert.ok(found.includes('src/proxy.ts:4 resolved'), found.join(', '));
    assert.ok(!found.some((c) => c.startsWith('src/proxy.ts:3')), `res is a Response: ${found.join(', ')}`);
  });

  it("leaves out a call on a library call's result held in a variable of such a name, and keeps one held in any other", () => {
    const found = callers('json', 6);
    assert.ok(!found.some((c) => c.startsWith('src/proxy.ts:8')), `res holds a Response: ${found.join(', ')}`);
    assert.ok(found.includes('src/proxy.ts:10 likely'), `nothing says what made is: ${found.join(', ')}`);
  });

  it('follows edits: a name no longer declared stops counting', async () => {
    for (const f of ['cors', 'etag', 'logger']) {
      writeFileSync(join(workspace.root, `src/mw/${f}.ts`), `export const ${f} = 1;`);
      await workspace.index.updateFile(`src/mw/${f}.ts`);
    }
    assert.ok(!callers('json', 6).some((c) => c.startsWith('src/routes.ts:3')), callers('json', 6).join(', '));
  });
});

describe('TypeScript typed names, as extraction notes them', () => {
  it('notes declared parameter and variable types once per file, and no result, type parameter (of the function or of its class) or type made of types', async () => {
    const source = [
      'function f(c: Context, other: ns.Router, x: T, y: string) {', // 1
      '  const em = new EntityManager();', // 2
      '  const qb = em.createQueryBuilder();', // 3
      '  let typed: Repo<User>;', // 4
      '}', // 5
      'function g(c: Context) { return c; }', // 6
      'items.map((item: Item) => item);', // 7
      'function h(p: Partial<User>, r: ReturnType<typeof f>) { return [p, r]; }', // 8
      'function k<Key extends string>(keyType: Key, other: Router) { return keyType; }', // 9
      'class Rec<Value> { set(value: Value, user: User) { return value; } }', // 10
    ].join('\n');
    const names = (await factsOfSource('typescript', source)).typedNames ?? [];
    assert.deepEqual(names.map(([n, t]) => `${n}:${t}`).sort(), [
      'c:Context',
      'em:EntityManager',
      'item:Item',
      'other:Router',
      'typed:Repo',
      'user:User',
    ]);
  });
});
