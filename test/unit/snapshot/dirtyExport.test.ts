import { strict as assert } from 'node:assert';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSqlJs } from '../../../src/core/store/sqlite';
import type { TempRepo } from '../git/repoFixture';
import { buildRepo, cloneAt, indexed, tempDir } from './snapshotFixture';

/** The names a file defines, in the index cache of `stateDir`. */
async function namesIn(stateDir: string, path: string): Promise<string[]> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database(readFileSync(join(stateDir, 'index.db')));
  try {
    const rows = db.exec('SELECT s.name FROM symbols s JOIN files f ON f.id = s.file WHERE f.path = ? ORDER BY 1', [
      path,
    ]);
    return (rows[0]?.values ?? []).map(([n]) => String(n));
  } finally {
    db.close();
  }
}

describe('team index snapshot: exported from a work tree that differs from HEAD', function () {
  this.timeout(180_000);
  let repo: TempRepo;
  const dirs: string[] = [];

  before(() => {
    repo = buildRepo(3);
  });

  after(() => {
    repo.dispose();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it("never lets an importer take the exporter's uncommitted edits for the commit's files", async () => {
    // CI's work tree has an uncommitted edit that keeps the size, and an untracked file.
    const ci = cloneAt(repo, 'HEAD');
    const ciState = tempDir('pc-snap-dirty-ci-');
    const out = tempDir('pc-snap-dirty-out-');
    const clone = cloneAt(repo, 'HEAD');
    const state = tempDir('pc-snap-dirty-state-');
    dirs.push(ci, ciState, out, clone, state);
    const util5 = join(ci, 'src/lib/util5.ts');
    const text = readFileSync(util5, 'utf8');
    writeFileSync(util5, text.replace('util5(n', 'zeta5(n'));
    writeFileSync(join(ci, 'src/lib/scratch.ts'), 'export function scratch() {\n  return 1;\n}\n');
    const exporter = await indexed(ci, ciState);
    const snapshot = join(out, 'team.pcsnap');
    await exporter.service.workspace.exportSnapshot(snapshot, '9.9.9-test');
    exporter.service.dispose();
    assert.deepEqual(await namesIn(ciState, 'src/lib/util5.ts'), ['zeta5']);

    // A clean clone at the same commit: the edited file is read again and holds what the commit holds.
    const { service, summary } = await indexed(clone, state, { location: snapshot });
    service.workspace.flush();
    service.dispose();
    assert.equal(summary.snapshot?.status, 'applied', summary.snapshot?.message);
    assert.equal(summary.index.read, 1, `read ${summary.index.read} of ${summary.index.files} files`);
    assert.deepEqual(await namesIn(state, 'src/lib/util5.ts'), ['util5']);
    assert.deepEqual(await namesIn(state, 'src/lib/scratch.ts'), []);
  });
});
