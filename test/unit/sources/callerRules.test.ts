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
});
