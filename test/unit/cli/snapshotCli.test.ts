import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TempRepo } from '../git/repoFixture';
import { buildRepo, cloneAt, tempDir } from '../snapshot/snapshotFixture';

const cli = join(__dirname, '..', '..', '..', 'src', 'cli', 'main.js');

function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [cli, ...args], {
    encoding: 'utf8',
    env: {
      ...process.env,
      PROACTIVE_CONTEXT_SNAPSHOT: '',
      PROACTIVE_CONTEXT_SNAPSHOT_SHA256: '',
      PROACTIVE_CONTEXT_SNAPSHOT_TOKEN: '',
      ...env,
    },
    timeout: 120_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `suggest --json` without what differs between runs. */
function items(stdout: string): unknown {
  const s = JSON.parse(stdout) as { items: unknown[]; notes?: string[] };
  return { items: s.items, notes: s.notes };
}

describe('CLI: team index snapshots', function () {
  this.timeout(240_000);
  let repo: TempRepo;
  let out: string;
  let file: string;
  const dirs: string[] = [];
  const state = () => {
    const d = tempDir('pc-snap-cli-state-');
    dirs.push(d);
    return d;
  };

  before(() => {
    repo = buildRepo(12);
    out = tempDir('pc-snap-cli-');
    const ci = cloneAt(repo, 'HEAD~4');
    dirs.push(ci);
    file = join(out, 'team.pcsnap');
    const r = run(['index', '--root', ci, '--state-dir', state(), '--export', file, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const stats = JSON.parse(r.stdout) as { exported: { file: string; commit: string; bytes: number } };
    assert.equal(stats.exported.file, file);
    assert.equal(stats.exported.commit, repo.git('rev-parse', 'HEAD~4').trim());
    assert.ok(existsSync(file) && existsSync(`${file}.sha256`));
  });

  after(() => {
    repo.dispose();
    for (const d of [out, ...dirs]) rmSync(d, { recursive: true, force: true });
  });

  it('suggest --snapshot gives what a local index gives', () => {
    const args = ['suggest', '--root', repo.dir, '--file', 'src/cart.ts', '--json'];
    const withSnapshot = run([...args, '--state-dir', state(), '--snapshot', file]);
    const local = run([...args, '--state-dir', state()]);
    assert.equal(withSnapshot.code, 0, withSnapshot.stderr);
    assert.equal(local.code, 0, local.stderr);
    assert.deepEqual(items(withSnapshot.stdout), items(local.stdout));
  });

  it('takes the snapshot from PROACTIVE_CONTEXT_SNAPSHOT and says what came of it', () => {
    const r = run(['index', '--root', repo.dir, '--state-dir', state(), '--json'], {
      PROACTIVE_CONTEXT_SNAPSHOT: file,
    });
    assert.equal(r.code, 0, r.stderr);
    const stats = JSON.parse(r.stdout) as { snapshot: { status: string }; history: { mode: string; commits: number } };
    assert.equal(stats.snapshot.status, 'applied');
    assert.deepEqual([stats.history.mode, stats.history.commits], ['incremental', 4]);
  });

  it('warns about an unusable snapshot on stderr and indexes locally', () => {
    const junk = join(out, 'junk.pcsnap');
    writeFileSync(junk, 'not a snapshot');
    const r = run(['index', '--root', repo.dir, '--state-dir', state(), '--snapshot', junk]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stderr,
      /\[warn\] Team index .*junk\.pcsnap: not used: the file is not a Proactive Context index snapshot; indexing locally\./,
    );
    assert.match(r.stdout, /snapshot {4}refused: not used: the file is not/);
    assert.match(r.stdout, /code {8}\d+ files \(\d+ parsed/);
  });

  it('exits 2 on a malformed --snapshot-sha256, or one without --snapshot', () => {
    const bad = run([
      'index',
      '--root',
      repo.dir,
      '--state-dir',
      state(),
      '--snapshot',
      file,
      '--snapshot-sha256',
      'abc',
    ]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--snapshot-sha256 needs a SHA-256 hash of 64 hexadecimal digits/);
    const alone = run(['suggest', '--root', repo.dir, '--file', 'src/cart.ts', '--snapshot-sha256', 'a'.repeat(64)]);
    assert.equal(alone.code, 2);
    assert.match(alone.stderr, /--snapshot-sha256 needs --snapshot/);
  });

  it('offers --snapshot on the commands that open the index, the MCP server among them', () => {
    for (const command of ['index', 'suggest', 'mcp', 'subscribe', 'watch']) {
      const r = run([command, '--help']);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /--snapshot FILE\|URL/, command);
    }
    // eval decisions and eval panel open the index; eval cochange replays git and refuses it.
    assert.match(run(['eval', '--help']).stdout, /--snapshot FILE\|URL/);
    const cochange = run(['eval', 'cochange', '--root', repo.dir, '--snapshot', file]);
    assert.equal(cochange.code, 2);
    assert.match(cochange.stderr, /--snapshot is for eval decisions and eval panel: eval cochange reads no index/);
  });

  it('eval decisions --snapshot gives the figures of a local index, and fails rather than fall back', () => {
    const labels = join(out, 'decisions.json');
    writeFileSync(
      labels,
      JSON.stringify({
        repo: 'example/shop',
        commit: repo.head(),
        language: 'TypeScript',
        layout: 'docs/adr/NNNN-title.md',
        records: ['docs/adr/0001-money-in-cents.md'],
        cases: [
          { file: 'src/billing.ts', expected: ['docs/adr/0001-money-in-cents.md'], why: 'names billing' },
          { file: 'src/cart.ts', line: 4, expected: ['docs/adr/0001-money-in-cents.md'], why: 'names cart' },
          { file: 'src/search.ts', expected: ['docs/adr/0001-money-in-cents.md'], why: 'nothing links it' },
        ],
      }),
    );
    const args = ['eval', 'decisions', '--root', repo.dir, '--labels', labels, '--json'];
    const local = run([...args, '--state-dir', state()]);
    const fromSnapshot = run([...args, '--state-dir', state(), '--snapshot', file]);
    assert.equal(local.code, 0, local.stderr);
    assert.equal(fromSnapshot.code, 0, fromSnapshot.stderr);
    // Exit 0 with --snapshot: it was applied (an eval fails rather than fall back, as below).
    const figures = JSON.parse(fromSnapshot.stdout) as { cases: number; perCase: { rank: number }[] };
    assert.equal(figures.cases, 3);
    assert.ok(
      figures.perCase.some((c) => c.rank > 0),
      'the record is found for some file',
    );
    assert.deepEqual(figures, JSON.parse(local.stdout));
    const junk = join(out, 'junk-eval.pcsnap');
    writeFileSync(junk, 'not a snapshot');
    const refused = run([...args, '--state-dir', state(), '--snapshot', junk]);
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      /the figures would not come from the snapshot: not used: the file is not a Proactive Context index snapshot/,
    );
  });

  it('refuses to export where there is no history to share', () => {
    const plain = tempDir('pc-snap-cli-plain-');
    dirs.push(plain);
    writeFileSync(join(plain, 'a.ts'), 'export const a = 1;\n');
    const r = run(['index', '--root', plain, '--state-dir', state(), '--export', join(out, 'none.pcsnap')]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /no commit to export/);
    assert.ok(!existsSync(join(out, 'none.pcsnap')));
  });
});
