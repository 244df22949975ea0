import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { resolveConfig } from '../../../src/core/config';
import { ProactiveContextProvider } from '../../../src/core/provider/provider';
import type { SuggestionSource } from '../../../src/core/sources/sourceQuery';
import { writeFileAtomic } from '../../../src/core/store/atomicFile';
import { one } from '../../../src/core/store/sqlite';
import { Store, type StoreOptions } from '../../../src/core/store/store';

/** Lets every timer due before `ms` from now run first (timers fire in the order they fall due). */
const afterTimers = (ms = 5) => new Promise((done) => setTimeout(done, ms));

/**
 * Each cursor move records what the panel suggested. A save of the durable database exports it
 * whole and syncs it, on the editor's thread: recording must not bring one per move. The log waits
 * for a quiet moment (or the next save the user's own change brings, or dispose) and loses nothing.
 */
describe('recording suggestions saves the durable database only when quiet', () => {
  let dir: string;
  let saves: string[];
  let stores: Store[];

  const open = async (options: Partial<StoreOptions>) => {
    const store = await Store.open({
      stateDir: dir,
      // A change the user makes is saved on the next turn of the timers.
      durableSaveDelayMs: 0,
      writeFile: (path, data, o) => {
        saves.push(basename(path));
        writeFileAtomic(path, data, o);
      },
      ...options,
    });
    stores.push(store);
    return store;
  };
  const item = (n: number) => ({
    type: 'doc' as const,
    title: `Notes ${n}`,
    summary: 'notes',
    relevanceScore: 0.9,
    reason: 'about this file',
    location: { path: `docs/${n}.md` },
    entityId: `doc:${n}`,
  });
  const source: SuggestionSource = {
    name: 'docs',
    kinds: ['doc'],
    collect: (ctx) => Promise.resolve([item(ctx.query.cursorPosition?.line ?? 0)]),
  };
  /** Suggestions for N cursor stops, each recorded and marked shown, as the panel does. */
  const moves = async (provider: ProactiveContextProvider, n: number): Promise<string[]> => {
    const ids: string[] = [];
    for (let line = 1; line <= n; line++) {
      const s = await provider.suggest({ currentFile: 'src/a.ts', cursorPosition: { line, column: 1 } });
      provider.markShown(s.id);
      ids.push(s.id);
    }
    return ids;
  };
  const durableSaves = () => saves.filter((s) => s === 'durable.db').length;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pc-quiet-saves-'));
    saves = [];
    stores = [];
  });
  afterEach(() => {
    for (const s of stores) s.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes nothing while suggestions are recorded, and everything on dispose', async () => {
    const store = await open({ quietSaveDelayMs: 3_600_000, quietSaveMaxDelayMs: 3_600_000 });
    const provider = new ProactiveContextProvider(store, () => resolveConfig({ minRelevanceScore: 0 }), [source]);
    const ids = await moves(provider, 25);
    await afterTimers();
    assert.equal(durableSaves(), 0, 'no save of the whole database for the recorded suggestions');

    store.dispose();
    assert.equal(durableSaves(), 1, 'dispose writes them, once');
    const reopened = await open({});
    const stored = reopened.read((db) =>
      one<{ n: number; shown: number }>(
        db,
        "SELECT count(*) AS n, sum(CASE WHEN status = 'shown' THEN 1 ELSE 0 END) AS shown FROM suggestions",
      ),
    );
    assert.deepEqual({ n: Number(stored?.n), shown: Number(stored?.shown) }, { n: ids.length, shown: ids.length });
  });

  it('saves the waiting log with the next change the user makes', async () => {
    const store = await open({ quietSaveDelayMs: 3_600_000, quietSaveMaxDelayMs: 3_600_000 });
    const provider = new ProactiveContextProvider(store, () => resolveConfig({ minRelevanceScore: 0 }), [source]);
    const [first] = await moves(provider, 3);
    provider.markUsed(first, 0);
    await afterTimers();
    assert.equal(durableSaves(), 1, 'the feedback is saved soon, and the log with it');
    const other = await Store.open({ stateDir: dir });
    try {
      const n = other.read((db) => one<{ n: number }>(db, 'SELECT count(*) AS n FROM suggestions'));
      assert.equal(Number(n?.n), 3, 'another process sees the suggestions');
    } finally {
      other.dispose();
    }
  });

  it('saves once the log has waited its longest, however busy', async () => {
    const store = await open({ quietSaveDelayMs: 3_600_000, quietSaveMaxDelayMs: 0 });
    const provider = new ProactiveContextProvider(store, () => resolveConfig({ minRelevanceScore: 0 }), [source]);
    await moves(provider, 2);
    while (durableSaves() === 0) await afterTimers();
    assert.ok(durableSaves() >= 1);
  });
});
