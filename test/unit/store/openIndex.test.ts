import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { indexMigrations, userVersion } from '../../../src/core/store/migrations';
import { all } from '../../../src/core/store/sqlite';
import { SuggestionUseCases } from '../../../src/core/api/service/suggestions';
import { openEngine } from '../../../src/core/engine';
import { Store } from '../../../src/core/store/store';
import { loopTurnsDuring } from '../loopTurns';

describe('Store.openIndex', () => {
  let stateDir: string;
  let store: Store;

  beforeEach(async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'pc-open-index-'));
    store = await Store.open({ stateDir });
  });

  afterEach(() => {
    store.dispose();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('migrates a fresh index cache a migration per turn of the event loop, ahead of its first use', async () => {
    const { turns } = await loopTurnsDuring(() => store.openIndex());
    // In one step before: the first suggestion pass ran every migration of a fresh cache at once.
    assert.ok(
      turns >= indexMigrations.length - 1,
      `the event loop ran ${turns} times over ${indexMigrations.length} migrations`,
    );
    assert.equal(userVersion(store.index), indexMigrations.length);
    assert.deepEqual(all(store.index, 'SELECT count(*) AS n FROM files'), [{ n: 0 }]);
  });

  it('is finished at once by a use meanwhile, on the same database', async () => {
    const opening = store.openIndex();
    await new Promise<void>((r) => setImmediate(r));
    const db = store.index;
    assert.equal(userVersion(db), indexMigrations.length);
    await opening;
    assert.equal(store.index, db, 'the cache opened by the use is kept');
  });

  it('stops when the store is disposed meanwhile', async () => {
    const opening = store.openIndex();
    store.dispose();
    await opening;
    assert.throws(() => store.index);
  });

  it('is waited for by the first suggestion pass, which no longer finishes it in one step', async () => {
    const root = mkdtempSync(join(tmpdir(), 'pc-open-index-root-'));
    // An engine of its own on another state directory: the store of beforeEach stays unused.
    const engine = await openEngine({ root, stateDir: join(stateDir, 'engine'), noGit: { reason: 'not trusted yet' } });
    const suggestions = new SuggestionUseCases(engine);
    try {
      writeFileSync(join(root, 'a.ts'), 'export function a() {\n  return 1;\n}\n');
      // The background work starts the opening; the editor asks for the active file at once.
      const opening = engine.store.openIndex();
      const { turns } = await loopTurnsDuring(() => suggestions.suggestAt({ file: 'a.ts', line: 2 }));
      assert.ok(turns >= indexMigrations.length - 1, `the event loop ran ${turns} times during the first pass`);
      await opening;
    } finally {
      engine.dispose();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
