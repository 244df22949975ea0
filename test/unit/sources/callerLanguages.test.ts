import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { defaultConfig } from '../../../src/core/config';
import { CodeIndex } from '../../../src/core/index/codeIndex';
import type { QueryContext } from '../../../src/core/sources/sourceQuery';
import { CodeIndexSource } from '../../../src/core/sources/code/codeIndexSource';
import { Store } from '../../../src/core/store/store';

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

function context(file: string, symbol: { name: string; startLine: number; endLine: number }): QueryContext {
  return {
    query: { currentFile: file, cursorPosition: { line: symbol.startLine, column: 1 } },
    symbolRange: symbol,
    config: defaultConfig,
    now: 0,
    signal: new AbortController().signal,
    note: () => undefined,
  };
}

describe('callers: a name matched in another language is no call', () => {
  let root: string;
  let store: Store;
  let index: CodeIndex;

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'pc-caller-langs-'));
    for (const [path, text] of Object.entries(FILES)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    store = await Store.open({ stateDir: mkdtempSync(join(tmpdir(), 'pc-caller-langs-state-')) });
    index = new CodeIndex(store, root, defaultConfig);
    await index.build();
  });

  after(() => {
    store.dispose();
    rmSync(store.stateDir, { recursive: true, force: true });
    rmSync(root, { recursive: true, force: true });
  });

  it('shows no Python or TypeScript call of a Kotlin method by its name, and keeps a Java one', async () => {
    const items = await new CodeIndexSource(index).collect(
      context('risk/src/Discoverer.kt', { name: 'discover', startLine: 2, endLine: 4 }),
    );
    const paths = items.filter((i) => i.type === 'related_code').map((i) => i.location.path);
    assert.deepEqual(paths, ['legacy/src/Legacy.java']);
  });
});
