import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEngine, type EngineParts } from '../../../src/core/engine';
import { all } from '../../../src/core/store/sqlite';
import { TempRepo } from '../git/repoFixture';

describe('co-change while the code index builds', () => {
  let repo: TempRepo;
  let stateDir: string;
  let engine: EngineParts | undefined;

  beforeEach(() => {
    repo = new TempRepo();
    stateDir = mkdtempSync(join(tmpdir(), 'pc-state-'));
    for (let i = 0; i < 6; i++) repo.change(`pair ${i}`, ['src/a.ts', 'src/b.ts']);
    repo.change('alone', ['src/c.ts']);
  });

  afterEach(() => {
    engine?.dispose();
    repo.dispose();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('ranks the files that change together as soon as the scan has listed them, before any is indexed', async () => {
    engine = await openEngine({ root: repo.dir, stateDir });
    const parts = engine;
    await parts.cochange.update();
    // Asked before the build: nothing is listed yet, and the answer is cached.
    assert.deepEqual(parts.history.related('src/a.ts'), []);
    const seen: string[][] = [];
    parts.indexer.onDidChangeData(() => {
      const indexed = all<{ n: number }>(parts.store.index, 'SELECT count(*) AS n FROM files')[0].n;
      if (parts.indexer.indexingProgress && indexed === 0)
        seen.push(parts.history.related('src/a.ts').map((r) => r.path));
    });
    await parts.indexer.startBackgroundWork();
    assert.ok(
      seen.some((paths) => paths.includes('src/b.ts')),
      `told while indexing: ${JSON.stringify(seen)}`,
    );
  });
});
