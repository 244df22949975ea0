import { strict as assert } from 'node:assert';
import { readFileSync, rmSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { loadSqlJs } from '../../../src/core/store/sqlite';
import type { TempRepo } from '../git/repoFixture';
import { buildRepo, cloneAt, indexed, suggestionsFor, tempDir } from './snapshotFixture';

/** Every row of the code tables, by path rather than by the file ids a build happens to give. */
async function tableContents(stateDir: string): Promise<Record<string, unknown[][]>> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database(readFileSync(join(stateDir, 'index.db')));
  const rows = (sql: string) => db.exec(sql)[0]?.values ?? [];
  try {
    return {
      files: rows('SELECT path, hash, lang, size FROM files ORDER BY path'),
      symbols: rows(
        'SELECT f.path, s.name, s.kind, s.start_line, s.end_line, s.container, s.exported, s.deprecated, s.returns, s.supers, s.fields FROM symbols s JOIN files f ON f.id = s.file ORDER BY 1, 2, 4',
      ),
      calls: rows(
        'SELECT f.path, c.name, c.qualifier, c.line, c.col, c.enclosing FROM calls c JOIN files f ON f.id = c.file ORDER BY 1, 4, 5, 2',
      ),
      imports: rows(
        'SELECT f.path, i.spec, i.resolved, i.names, i.line FROM imports i JOIN files f ON f.id = i.file ORDER BY 1, 5, 2',
      ),
      unresolved: rows('SELECT u.name, f.path FROM unresolved_calls u JOIN files f ON f.id = u.file ORDER BY 1, 2'),
      typedNames: rows(
        'SELECT t.name, t.type, f.path FROM typed_names t JOIN files f ON f.id = t.file ORDER BY 1, 2, 3',
      ),
    };
  } finally {
    db.close();
  }
}

describe('team index snapshot: import and catch up', function () {
  this.timeout(180_000);
  let repo: TempRepo;
  let out: string;
  let snapshot: string;
  let behind: string;
  const dirs: string[] = [];

  before(async () => {
    repo = buildRepo(60);
    behind = repo.git('rev-parse', 'HEAD~50').trim();
    // CI: another clone, at the commit the snapshot is made of.
    const ci = cloneAt(repo, behind);
    const ciState = tempDir('pc-snap-ci-state-');
    dirs.push(ci, ciState);
    out = tempDir('pc-snap-out-');
    snapshot = join(out, 'team.pcsnap');
    const { service } = await indexed(ci, ciState);
    const result = await service.workspace.exportSnapshot(snapshot, '9.9.9-test');
    service.dispose();
    assert.equal(result.commit, behind);
    // Uncommitted work in the clone that imports: a changed file, a new one and a deleted one.
    repo.write(
      'src/cart.ts',
      readFileSync(join(repo.dir, 'src/cart.ts'), 'utf8') + '\nexport function cartLocal() {\n  return 1;\n}\n',
    );
    repo.write(
      'src/draft.ts',
      "import { usersRun } from './users';\nexport function draft() {\n  return usersRun(2);\n}\n",
    );
    unlinkSync(join(repo.dir, 'src/extra50.ts'));
    // An edit that keeps the size: found by content, never taken for unchanged.
    const util = join(repo.dir, 'src/lib/util3.ts');
    repo.write('src/lib/util3.ts', readFileSync(util, 'utf8').replace('+ 3;', '+ 7;'));
  });

  after(() => {
    repo.dispose();
    for (const d of [out, ...dirs]) rmSync(d, { recursive: true, force: true });
  });

  it('catches up from 50 commits behind, uncommitted work included, to what a full local index gives', async () => {
    const fromSnapshot = tempDir('pc-snap-a-');
    const full = tempDir('pc-snap-b-');
    dirs.push(fromSnapshot, full);
    const a = await indexed(repo.dir, fromSnapshot, { location: snapshot });
    const b = await indexed(repo.dir, full);
    try {
      assert.equal(a.summary.snapshot?.status, 'applied', a.summary.snapshot?.message);
      assert.equal(a.summary.snapshot?.commit, behind);
      // The eleven files no commit or edit touched since are not even read again.
      assert.match(a.summary.snapshot?.message ?? '', /; 11 files unchanged since, 11 with their words\)/);
      // Only the 50 newer commits were mined, and only changed files parsed.
      assert.equal(a.summary.history.mode, 'incremental');
      assert.equal(a.summary.history.commits, 50);
      assert.equal(b.summary.history.mode, 'rebuild');
      assert.ok(
        a.summary.index.parsed < b.summary.index.parsed,
        `${a.summary.index.parsed} < ${b.summary.index.parsed}`,
      );
      for (const file of [
        'src/auth.ts',
        'src/billing.ts',
        'src/cart.ts',
        'src/orders.ts',
        'src/users.ts',
        'src/search.ts',
        'src/draft.ts',
        'src/extra10.ts',
        'README.md',
        'docs/adr/0001-money-in-cents.md',
      ])
        assert.deepEqual(await suggestionsFor(a.service, file), await suggestionsFor(b.service, file), file);
      a.service.workspace.flush();
      b.service.workspace.flush();
    } finally {
      a.service.dispose();
      b.service.dispose();
    }
    const ta = await tableContents(fromSnapshot);
    const tb = await tableContents(full);
    assert.ok(
      tb.files.some((r) => r[0] === 'src/draft.ts'),
      'the uncommitted file is indexed',
    );
    assert.ok(!tb.files.some((r) => r[0] === 'src/extra50.ts'), 'the deleted file is not');
    assert.deepEqual(ta, tb);
  });

  it('leaves subscriptions and other durable data as they were', async () => {
    const state = tempDir('pc-snap-durable-');
    dirs.push(state);
    const first = await indexed(repo.dir, state);
    await first.service.subscriptions.subscribe({ kind: 'file', target: 'src/cart.ts' });
    const before = first.service.subscriptions.list().list;
    first.service.dispose();
    // The local index is newer than the snapshot: it is kept, and says so.
    const kept = await indexed(repo.dir, state, { location: snapshot });
    kept.service.dispose();
    assert.equal(kept.summary.snapshot?.status, 'skipped', kept.summary.snapshot?.message);
    // With its history cache gone, the snapshot is used; subscriptions stay.
    for (const f of ['history.bin', 'cochange.bin', 'cochange-broad.json']) unlinkSync(join(state, f));
    const durable = readFileSync(join(state, 'durable.db'));
    const again = await indexed(repo.dir, state, { location: snapshot });
    try {
      assert.equal(again.summary.snapshot?.status, 'applied', again.summary.snapshot?.message);
      assert.deepEqual(again.service.subscriptions.list().list, before);
      assert.ok(readFileSync(join(state, 'durable.db')).equals(durable), 'durable.db unchanged');
    } finally {
      again.service.dispose();
    }
  });
});
