import { strict as assert } from 'node:assert';
import { indexWorkspace, panelItemsFor, type IndexedWorkspace } from '../index/fixtureWorkspace';

const FILES: Record<string, string> = {
  // Two route files define the same handler name; a third calls `GET` with nothing that says which.
  'app/users/route.ts': 'export async function GET() {\n  return 1;\n}\n',
  'app/teams/route.ts': 'export async function GET() {\n  return 2;\n}\n',
  'lib/client.ts': 'declare const api: any;\nexport function load() {\n  return api.GET();\n}\n',
  // One definition, called (through imports) by a test that sorts first and by production code.
  'src/format.ts': 'export function format(n: number): string {\n  return String(n);\n}\n',
  'src/a.test.ts': "import { format } from './format';\nexport function checkFormat() {\n  return format(1);\n}\n",
  'src/b.ts': "import { format } from './format';\nexport function show() {\n  return format(2);\n}\n",
  // A walk that calls itself on the children, and a caller of it in another file.
  'src/tree.ts':
    'export function walk(node: { children: any[] }): number {\n  let n = 1;\n  for (const c of node.children) n += walk(c);\n  return n;\n}\n',
  'src/count.ts': "import { walk } from './tree';\nexport function count(root: any) {\n  return walk(root);\n}\n",
  // A class built by its own static factory.
  'src/box.ts': 'export class Box {\n  static empty(): Box {\n    return new Box();\n  }\n}\n',
};

describe('callers: resolve or stay out', () => {
  let ws: IndexedWorkspace;

  before(async () => {
    ws = await indexWorkspace(FILES);
  });

  after(() => ws.dispose());

  it('never shows a call matched by name alone when several files define the name', async () => {
    // The index itself still finds the call by name: the rule is the source's.
    assert.ok(
      ws.index
        .callers({ name: 'GET', path: 'app/users/route.ts', line: 1 })
        .some((c) => c.path === 'lib/client.ts' && c.confidence === 'name'),
    );
    const items = await panelItemsFor(ws.index, 'app/users/route.ts', { name: 'GET', startLine: 1, endLine: 3 });
    assert.deepEqual(
      items.filter((i) => i.type === 'related_code').map((i) => i.title),
      [],
    );
  });

  it('puts production callers before test callers of the same confidence', async () => {
    const items = (await panelItemsFor(ws.index, 'src/format.ts', { name: 'format', startLine: 1, endLine: 3 })).filter(
      (i) => i.type === 'related_code',
    );
    const ranked = [...items].sort((a, b) => b.relevanceScore - a.relevanceScore);
    assert.deepEqual(
      ranked.map((i) => i.title),
      ['show — src/b.ts:3', 'checkFormat — src/a.test.ts:3'],
    );
    assert.ok(ranked[0].relevanceScore > ranked[1].relevanceScore);
  });

  it('never lists a call inside the definition at the cursor as its caller', async () => {
    assert.ok(ws.index.callers({ name: 'walk', path: 'src/tree.ts', line: 1 }).some((c) => c.path === 'src/tree.ts'));
    const items = await panelItemsFor(ws.index, 'src/tree.ts', { name: 'walk', startLine: 1, endLine: 5 });
    assert.deepEqual(
      items.filter((i) => i.type === 'related_code').map((i) => i.title),
      ['count — src/count.ts:3'],
    );
    // A class's own factory, inside the class, does build it.
    const built = await panelItemsFor(ws.index, 'src/box.ts', { name: 'Box', startLine: 1, endLine: 5 });
    assert.deepEqual(
      built.filter((i) => i.type === 'related_code').map((i) => i.title),
      ['empty — src/box.ts:3'],
    );
  });
});
