import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from 'sql.js';
import { countRuns } from './sqlRuns';
import { indexWorkspace, type IndexedWorkspace } from './fixtureWorkspace';

/** A deprecated function, a file that calls it and one that calls only current code. */
const FILES: Record<string, string> = {
  'src/old.ts':
    '/** @deprecated use fresh() */\nexport function legacy(): void {}\n\nexport function fresh(): void {}\n',
  'src/user.ts': "import { legacy } from './old';\n\nexport function go(): void {\n  legacy();\n}\n",
  'src/clean.ts': "import { fresh } from './old';\n\nexport function go(): void {\n  fresh();\n}\n",
};

describe('deprecated uses kept while the index stays the same', function () {
  this.timeout(60000);
  let ws: IndexedWorkspace;

  beforeEach(async () => {
    ws = await indexWorkspace(FILES);
  });

  afterEach(() => ws.dispose());

  it('reads the names a file calls once, whether or not it calls anything deprecated', () => {
    const db = (ws.index as unknown as { state: { db: Database } }).state.db;
    const runs = countRuns(db, 'SELECT DISTINCT c.name AS name FROM calls');
    for (let stop = 0; stop < 3; stop++) {
      assert.deepEqual(
        ws.index.deprecatedUsedIn('src/user.ts').map((u) => `${u.name}@${u.line}`),
        ['legacy@4'],
      );
      assert.deepEqual(ws.index.deprecatedUsedIn('src/clean.ts'), []);
    }
    // Before: twice per stop, six in all; each cursor stop read the file's calls again.
    assert.equal(runs(), 2);
  });

  it('answers anew after a write to the index', async () => {
    assert.equal(ws.index.deprecatedUsedIn('src/clean.ts').length, 0);
    writeFileSync(
      join(ws.root, 'src/clean.ts'),
      "import { legacy } from './old';\n\nexport function go(): void {\n  legacy();\n}\n",
    );
    await ws.index.updateFile('src/clean.ts');
    assert.deepEqual(
      ws.index.deprecatedUsedIn('src/clean.ts').map((u) => `${u.name}@${u.line}`),
      ['legacy@4'],
    );
  });
});
