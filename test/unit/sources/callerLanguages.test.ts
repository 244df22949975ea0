import { strict as assert } from 'node:assert';
import { indexWorkspace, panelItemsFor, type IndexedWorkspace } from '../index/fixtureWorkspace';

const FILES: Record<string, string> = {
  // A Kotlin service method; the index does not parse Kotlin.
  'risk/src/Discoverer.kt':
    'class Discoverer {\n  fun discover(id: String): List<String> {\n    return listOf(id)\n  }\n}\n',
  // A Python server and a TypeScript hook (which declares a `discover` of its own) calling
  // something named `discover`: no call of the Kotlin method.
  'engine/server.py': 'def serve(finder):\n    return finder.discover("a")\n',
  'ui/useDiscover.ts':
    'declare function discover(id: string): string[];\nexport function useDiscover() {\n  return api.discover("a");\n}\n',
  // Java calls Kotlin by name on the same runtime.
  'legacy/src/Legacy.java':
    'class Legacy {\n  void run() {\n    Discoverer d = new Discoverer();\n    d.discover("b");\n  }\n}\n',
};

describe('callers: a name matched in another language is no call', () => {
  let ws: IndexedWorkspace;

  before(async () => {
    ws = await indexWorkspace(FILES);
  });

  after(() => ws.dispose());

  it('shows no Python or TypeScript call of a Kotlin method by its name, and keeps a Java one', async () => {
    const items = await panelItemsFor(ws.index, 'risk/src/Discoverer.kt', {
      name: 'discover',
      startLine: 2,
      endLine: 4,
    });
    const paths = items.filter((i) => i.type === 'related_code').map((i) => i.location.path);
    assert.deepEqual(paths, ['legacy/src/Legacy.java']);
  });
});
