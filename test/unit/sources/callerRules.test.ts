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
  // Two route files define the same handler name; a third calls `GET` with nothing that says which.
  'app/users/route.ts': 'export async function GET() {\n  return 1;\n}\n',
  'app/teams/route.ts': 'export async function GET() {\n  return 2;\n}\n',
  'lib/client.ts': 'declare const api: any;\nexport function load() {\n  return api.GET();\n}\n',
  // One definition, called (through imports) by a test that sorts first and by production code.
  'src/format.ts': 'export function format(n: number): string {\n  return String(n);\n}\n',
  'src/a.test.ts': "import { format } from './format';\nexport function checkFormat() {\n  return format(1);\n}\n",
  'src/b.ts': "import { format } from './format';\nexport function show() {\n  return format(2);\n}\n",
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

describe('callers: resolve or stay out', () => {
  let root: string;
  let store: Store;
  let index: CodeIndex;
  let source: CodeIndexSource;

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'pc-caller-rules-'));
    for (const [path, text] of Object.entries(FILES)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    store = await Store.open({ stateDir: mkdtempSync(join(tmpdir(), 'pc-caller-rules-state-')) });
    index = new CodeIndex(store, root, defaultConfig);
    await index.build();
    source = new CodeIndexSource(index);
  });

  after(() => {
    store.dispose();
    rmSync(store.stateDir, { recursive: true, force: true });
    rmSync(root, { recursive: true, force: true });
  });

  it('never shows a call matched by name alone when several files define the name', async () => {
    // The index itself still finds the call by name: the rule is the source's.
    assert.ok(
      index
        .callers({ name: 'GET', path: 'app/users/route.ts', line: 1 })
        .some((c) => c.path === 'lib/client.ts' && c.confidence === 'name'),
    );
    const items = await source.collect(context('app/users/route.ts', { name: 'GET', startLine: 1, endLine: 3 }));
    assert.deepEqual(
      items.filter((i) => i.type === 'related_code').map((i) => i.title),
      [],
    );
  });

  it('puts production callers before test callers of the same confidence', async () => {
    const items = (await source.collect(context('src/format.ts', { name: 'format', startLine: 1, endLine: 3 }))).filter(
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
