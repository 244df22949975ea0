import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultConfig, resolveConfig, type CoreConfig } from '../../../src/core/config';
import { CodeIndex } from '../../../src/core/index/codeIndex';
import type { QueryContext } from '../../../src/core/sources/sourceQuery';
import { CodeIndexSource } from '../../../src/core/sources/code/codeIndexSource';
import { Store } from '../../../src/core/store/store';
import type { ProactiveQuery } from '../../../src/core/types';
import { copyFixture } from './fixtureWorkspace';

function context(
  query: ProactiveQuery,
  config: CoreConfig = defaultConfig,
  symbolRange?: QueryContext['symbolRange'],
): QueryContext {
  return { query, symbolRange, config, now: 0, signal: new AbortController().signal, note: () => undefined };
}

describe('CodeIndexSource', () => {
  let root: string;
  let store: Store;
  let source: CodeIndexSource;

  before(async () => {
    root = copyFixture('ws');
    store = await Store.open({ stateDir: mkdtempSync(join(tmpdir(), 'pc-index-source-')) });
    const index = new CodeIndex(store, root, defaultConfig);
    await index.build();
    source = new CodeIndexSource(index);
  });

  after(() => {
    store.dispose();
    rmSync(store.stateDir, { recursive: true, force: true });
    rmSync(root, { recursive: true, force: true });
  });

  it('lists the callers of the symbol at the cursor by calling function and file:line, best evidence first', async () => {
    const items = await source.collect(
      context({ currentFile: 'src/lib/math.ts', cursorPosition: { line: 21, column: 1 } }, defaultConfig, {
        name: 'push',
        startLine: 20,
        endLine: 23,
      }),
    );
    assert.deepEqual(
      items.map((i) => [i.type, i.title, i.relevanceScore, i.reason]),
      [
        ['related_code', 'run — src/app.ts:9', 0.85, 'calls push (resolved through imports)'],
        ['related_code', 'addTo — src/lib/math.ts:27', 0.85, 'calls push (resolved through imports)'],
        ['related_code', 'record — src/lib/math.ts:41', 0.65, 'probably calls push (method of a class in scope)'],
      ],
    );
    assert.ok(items.every((i) => i.entityId && i.location.path));
  });

  it('warns about deprecated definitions the current file calls, naming them', async () => {
    const items = await source.collect(context({ currentFile: 'src/app.ts' }));
    assert.deepEqual(
      items.filter((i) => i.type === 'warning').map((i) => [i.title, i.location.line, i.reason]),
      [
        ['Deprecated: addTo used at line 9', 9, 'addTo is deprecated (src/lib/math.ts:26)'],
        ['Deprecated: plus used at line 10', 10, 'plus is deprecated (src/lib/math.ts:7)'],
      ],
    );
  });

  it('warns only of the uses inside the definition at the cursor', async () => {
    const titles = async (startLine: number, endLine: number) =>
      (await source.collect(context({ currentFile: 'src/app.ts' }, defaultConfig, { name: 'run', startLine, endLine })))
        .filter((i) => i.type === 'warning')
        .map((i) => i.title);
    assert.deepEqual(await titles(7, 11), ['Deprecated: addTo used at line 9', 'Deprecated: plus used at line 10']);
    assert.deepEqual(await titles(10, 11), ['Deprecated: plus used at line 10']);
    assert.deepEqual(await titles(1, 5), [], 'uses in another definition are not warned of here');
  });

  it('says nothing of a kind the settings turn off, nor without a file', async () => {
    const quiet = resolveConfig({
      enabledKinds: { ...defaultConfig.enabledKinds, warning: false, related_code: false },
    });
    assert.deepEqual(await source.collect(context({ currentFile: 'src/app.ts', currentSymbol: 'run' }, quiet)), []);
    assert.deepEqual(await source.collect(context({})), []);
  });
});
