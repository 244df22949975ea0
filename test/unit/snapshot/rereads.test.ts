import { strict as assert } from 'node:assert';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ContextService } from '../../../src/core/api/contextService';
import { indexingText } from '../../../src/core/api/messages';
import type { IndexingProgress } from '../../../src/core/api/types';
import { openEngine, type EngineParts } from '../../../src/core/engine';
import { loadSqlJs } from '../../../src/core/store/sqlite';
import type { TempRepo } from '../git/repoFixture';
import { buildRepo, cloneAt, indexed, tempDir } from './snapshotFixture';

/** Each file's content hash and the names it defines, in the index cache of `stateDir`, by path. */
async function definitions(stateDir: string): Promise<Map<string, string[]>> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database(readFileSync(join(stateDir, 'index.db')));
  try {
    const out = new Map<string, string[]>();
    const rows = db.exec(
      'SELECT f.path, f.hash, s.name FROM files f LEFT JOIN symbols s ON s.file = f.id ORDER BY 1, 3',
    );
    for (const [path, hash, name] of rows[0]?.values ?? []) {
      const list = out.get(String(path)) ?? [String(hash)];
      if (name !== null) list.push(String(name));
      out.set(String(path), list);
    }
    return out;
  } finally {
    db.close();
  }
}

describe('team index snapshot: only files changed since its commit are read again', function () {
  this.timeout(180_000);
  let repo: TempRepo;
  let snapshot: string;
  const dirs: string[] = [];

  before(async () => {
    repo = buildRepo(5);
    // CI made the snapshot at the commit this clone then moved on from.
    const ci = cloneAt(repo, 'HEAD');
    const ciState = tempDir('pc-snap-reread-ci-');
    const out = tempDir('pc-snap-reread-out-');
    dirs.push(ci, ciState, out);
    snapshot = join(out, 'team.pcsnap');
    const { service } = await indexed(ci, ciState);
    await service.workspace.exportSnapshot(snapshot, '9.9.9-test');
    service.dispose();
    // One file changed by a commit after the snapshot, one by an uncommitted edit that keeps its size.
    repo.commit('Audit util4', {
      'src/lib/util4.ts':
        readFileSync(join(repo.dir, 'src/lib/util4.ts'), 'utf8') + '\nexport function util4Audit() {\n  return 4;\n}\n',
    });
    const util7 = readFileSync(join(repo.dir, 'src/lib/util7.ts'), 'utf8');
    repo.write('src/lib/util7.ts', util7.replace('+ 7;', '+ 9;').replace('util7(n', 'zeta7(n'));
  });

  after(() => {
    repo.dispose();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('reads the two changed files and none of the others', async () => {
    const fromSnapshot = tempDir('pc-snap-reread-a-');
    const full = tempDir('pc-snap-reread-b-');
    dirs.push(fromSnapshot, full);
    const a = await indexed(repo.dir, fromSnapshot, { location: snapshot });
    const b = await indexed(repo.dir, full);
    a.service.workspace.flush();
    b.service.workspace.flush();
    a.service.dispose();
    b.service.dispose();
    assert.equal(a.summary.snapshot?.status, 'applied', a.summary.snapshot?.message);
    // Without a snapshot every code file is read; with it, only the two that changed since.
    assert.equal(b.summary.index.read, b.summary.index.files);
    assert.equal(a.summary.index.files, b.summary.index.files);
    assert.equal(a.summary.index.read, 2, `read ${a.summary.index.read} of ${a.summary.index.files} files`);
    assert.equal(a.summary.index.parsed, 2);
    const got = await definitions(fromSnapshot);
    // The committed change was read: its new definition is there, as a full index has it.
    assert.deepEqual(got.get('src/lib/util4.ts')?.slice(1), ['util4', 'util4Audit']);
    // Both edits are in, the one that kept the size included (same content hashes as a full index).
    assert.deepEqual(got, await definitions(full));
    // A later run reads nothing: every file now carries this clone's size and time.
    const again = await indexed(repo.dir, fromSnapshot);
    again.service.dispose();
    assert.equal(again.summary.index.read, 0);
  });

  it("takes the unchanged files' words from the snapshot and reads the changed ones", async () => {
    const fromSnapshot = tempDir('pc-snap-reread-words-a-');
    const full = tempDir('pc-snap-reread-words-b-');
    dirs.push(fromSnapshot, full);
    const a = await openEngine({ root: repo.dir, stateDir: fromSnapshot, snapshot: { location: snapshot } });
    const b = await openEngine({ root: repo.dir, stateDir: full });
    try {
      const summary = await a.indexer.refreshAll();
      await b.indexer.refreshAll();
      assert.equal(summary.snapshot?.status, 'applied', summary.snapshot?.message);
      // Every code file but the two changed since the snapshot's commit kept the snapshot's words.
      const words = (e: EngineParts) =>
        new Map((e.history.termFiles() ?? []).map((f) => [f.path, [...f.terms].sort()]));
      const got = words(a);
      assert.equal(got.size, summary.index.files);
      // The changed files' words were read again (the same-size edit's new name included): as a full read gives.
      assert.ok(got.get('src/lib/util7.ts')?.some((t) => t.includes('zeta')));
      assert.deepEqual(got, words(b));
      // And no more were read: the words of the others came from the snapshot.
      assert.match(summary.snapshot.message, new RegExp(`, ${summary.index.files - 2} with their words\\)`));
    } finally {
      a.dispose();
      b.dispose();
    }
  });

  it("tells that the workspace's data changed once the snapshot is loaded, before catching up", async () => {
    const state = tempDir('pc-snap-reread-data-');
    dirs.push(state);
    const engine = await openEngine({ root: repo.dir, stateDir: state, snapshot: { location: snapshot } });
    const events: string[] = [];
    const progress = engine.indexer.onDidChangeIndexing((p) =>
      events.push(!p ? 'idle' : p.snapshot ? 'snapshot' : p.total === 0 && !p.commits ? 'build' : 'progress'),
    );
    const data = engine.indexer.onDidChangeData(() => events.push('data'));
    try {
      await engine.indexer.startBackgroundWork();
    } finally {
      progress.dispose();
      data.dispose();
      engine.dispose();
    }
    // The open file's suggestions are asked for again from the snapshot's index, not after the build.
    const loaded = events.indexOf('idle', events.lastIndexOf('snapshot'));
    const built = events.indexOf('build', loaded);
    assert.ok(loaded > 0 && built > loaded, events.join(' '));
    assert.ok(events.slice(loaded, built).includes('data'), events.join(' '));
  });

  it('shows that it is loading the snapshot from the start, before the files are indexed', async () => {
    const state = tempDir('pc-snap-reread-progress-');
    dirs.push(state);
    const service = await ContextService.open({ root: repo.dir, stateDir: state, snapshot: { location: snapshot } });
    const seen: (IndexingProgress | undefined)[] = [];
    const listening = service.workspace.onDidChangeIndexing((p) => seen.push(p && { ...p }));
    try {
      const summary = await service.workspace.refreshAll();
      assert.equal(summary.snapshot?.status, 'applied', summary.snapshot?.message);
    } finally {
      listening.dispose();
      service.dispose();
    }
    // A file is read without download progress: the editor still has something to show meanwhile.
    assert.deepEqual(seen[0]?.snapshot, { received: 0 });
    assert.equal(indexingText(seen[0]), 'Loading the team index');
    const files = seen.findIndex((p) => !!p && p.total > 0);
    const cleared = seen.findIndex((p) => !p?.snapshot);
    assert.ok(cleared > 0 && cleared <= files, `the snapshot's progress ends before the files' (${cleared}, ${files})`);
  });
});
