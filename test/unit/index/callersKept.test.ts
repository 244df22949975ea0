import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallResolver } from '../../../src/core/index/callResolution';
import { indexWorkspace, type IndexedWorkspace } from './fixtureWorkspace';

/** A function over several lines, called from two files. */
const FILES: Record<string, string> = {
  'src/lib.ts': 'export function work(n: number): number {\n  const twice = n * 2;\n  return twice + 1;\n}\n',
  'src/a.ts': "import { work } from './lib';\n\nexport function a(): number {\n  return work(1);\n}\n",
  'src/b.ts': "import { work } from './lib';\n\nexport function b(): number {\n  return work(2);\n}\n",
};

/** Counts the definitions whose calls the index resolves from now on. */
function resolutions(ws: IndexedWorkspace): () => number {
  const resolver = (ws.index as unknown as { resolution: CallResolver }).resolution;
  let n = 0;
  const callsTo = resolver.callsTo.bind(resolver);
  resolver.callsTo = (...args: Parameters<CallResolver['callsTo']>) => {
    n++;
    return callsTo(...args);
  };
  return () => n;
}

const callersAt = (ws: IndexedWorkspace, line: number) =>
  ws.index.callers({ name: 'work', path: 'src/lib.ts', line }).map((c) => `${c.path}:${c.line} ${c.confidence}`);

describe('callers kept while the index stays the same', function () {
  this.timeout(60000);
  let ws: IndexedWorkspace;

  beforeEach(async () => {
    ws = await indexWorkspace(FILES);
  });

  afterEach(() => ws.dispose());

  it('resolves a function’s calls once for every cursor stop inside it', () => {
    const count = resolutions(ws);
    const expected = ['src/a.ts:4 resolved', 'src/b.ts:4 resolved'];
    for (const line of [1, 2, 3, 2]) assert.deepEqual(callersAt(ws, line), expected);
    assert.equal(ws.index.definitionFileCount('work'), 1);
    // Before: once per stop, four in all.
    assert.equal(count(), 1);
  });

  it('answers anew after a write to the index', async () => {
    assert.equal(callersAt(ws, 2).length, 2);
    assert.equal(ws.index.definitionFileCount('work'), 1);
    writeFileSync(
      join(ws.root, 'src/c.ts'),
      "import { work } from './lib';\n\nexport function c(): number {\n  return work(3);\n}\n",
    );
    writeFileSync(join(ws.root, 'src/d.ts'), 'export function work(): void {}\n');
    await ws.index.updateFile('src/c.ts');
    await ws.index.updateFile('src/d.ts');
    assert.deepEqual(callersAt(ws, 2), ['src/a.ts:4 resolved', 'src/b.ts:4 resolved', 'src/c.ts:4 resolved']);
    assert.equal(ws.index.definitionFileCount('work'), 2);
  });
});
