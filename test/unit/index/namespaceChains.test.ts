import assert from 'node:assert/strict';
import type { ImportGraph } from '../../../src/core/index/importGraph';
import type { IndexState } from '../../../src/core/index/indexState';
import { callersIn, indexWorkspace, type IndexedWorkspace } from './fixtureWorkspace';

/**
 * Python modules that import each other whole (`import app.a` in b, `import app.b` in a, as mypy's
 * checker and checkexpr do), one of which imports the module defining `helper` whole too.
 */
const FILES: Record<string, string> = {
  'app/__init__.py': '',
  'app/util.py': 'def helper():\n    return 1\n',
  'app/a.py': 'import app.b\nimport app.util\n\n\ndef run_a():\n    return app.util.helper()\n',
  'app/b.py': 'import app.a\nimport app.c\n\n\ndef run_b():\n    return app.a.run_a()\n',
  'app/c.py': 'import app.b\n\n\ndef run_c():\n    return app.b.run_b()\n',
};

describe('bindings through modules imported whole', function () {
  this.timeout(60000);
  let ws: IndexedWorkspace;

  before(async () => {
    ws = await indexWorkspace(FILES);
  });

  after(() => ws.dispose());

  it('are not carried round modules that import each other', () => {
    const state = (ws.index as unknown as { state: IndexState }).state;
    const graph = state.graph();
    let visits = 0;
    const forEachImporter = graph.forEachImporter.bind(graph);
    graph.forEachImporter = (...args: Parameters<ImportGraph['forEachImporter']>) => {
      visits++;
      return forEachImporter(...args);
    };
    // The call through the module imported whole is found, as before.
    assert.deepEqual(callersIn(ws, 'app/util.py', 'helper', 1), ['app/a.py:6 resolved']);
    // Before: `app.util.helper` in a, `app.a.app.util.helper` in b, `app.b.app.a.app.util.helper` in
    // a and c, and so on round the cycle until the walk's limit of 5,000 steps.
    assert.ok(visits < 50, `${visits} importer lists walked`);
  });
});
