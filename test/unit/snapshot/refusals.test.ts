import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SnapshotOutcome, SnapshotSource } from '../../../src/core/api/types';
import { decodeSnapshot, encodeSnapshot, sha256 } from '../../../src/core/snapshot/format';
import type { TempRepo } from '../git/repoFixture';
import { buildRepo, cloneAt, indexed, tempDir } from './snapshotFixture';

describe('team index snapshot: refusals fall back to local indexing', function () {
  this.timeout(180_000);
  let repo: TempRepo;
  let out: string;
  let good: string;
  const dirs: string[] = [];

  /** Opens a fresh state with the source; checks the refusal and that the index was then built locally. */
  async function refusedWith(source: SnapshotSource, reason: string, message: RegExp): Promise<void> {
    const state = tempDir('pc-snap-refused-');
    dirs.push(state);
    const { service, summary } = await indexed(repo.dir, state, source);
    service.dispose();
    const s: SnapshotOutcome | undefined = summary.snapshot;
    assert.equal(s?.status, 'refused', s?.message);
    assert.equal(s?.reason, reason, s?.message);
    assert.match(s?.message ?? '', message);
    // Local indexing ran as without a snapshot: all history mined, every file parsed.
    assert.equal(summary.history.mode, 'rebuild');
    assert.ok(summary.index.files > 0);
    assert.equal(summary.index.parsed, summary.index.files);
  }

  function variant(name: string, data: Buffer): string {
    const p = join(out, name);
    writeFileSync(p, data);
    return p;
  }

  before(async () => {
    repo = buildRepo(8);
    out = tempDir('pc-snap-out-');
    const ci = cloneAt(repo, 'HEAD~2');
    const ciState = tempDir('pc-snap-ci-');
    dirs.push(ci, ciState);
    good = join(out, 'good.pcsnap');
    const { service } = await indexed(ci, ciState);
    await service.workspace.exportSnapshot(good, 'test');
    service.dispose();
  });

  after(() => {
    repo.dispose();
    for (const d of [out, ...dirs]) rmSync(d, { recursive: true, force: true });
  });

  it('uses a good snapshot, checked against the published FILE.sha256', async () => {
    assert.match(readFileSync(`${good}.sha256`, 'utf8'), new RegExp(`^${sha256(readFileSync(good))}  good.pcsnap\\n$`));
    const state = tempDir('pc-snap-good-');
    dirs.push(state);
    const { service, summary } = await indexed(repo.dir, state, { location: good });
    service.dispose();
    assert.equal(summary.snapshot?.status, 'applied', summary.snapshot?.message);
    assert.equal(summary.history.mode, 'incremental');
  });

  it('refuses a snapshot whose commit this clone does not have', async () => {
    const other = buildRepo(3);
    other.commit('Elsewhere', { 'src/other.ts': 'export const other = 1;\n' });
    const state = tempDir('pc-snap-other-');
    dirs.push(state);
    try {
      const { service } = await indexed(other.dir, state);
      await service.workspace.exportSnapshot(join(out, 'other.pcsnap'), 'test');
      service.dispose();
    } finally {
      other.dispose();
    }
    await refusedWith({ location: join(out, 'other.pcsnap') }, 'unknown-commit', /not in this clone's history/);
  });

  it("refuses a snapshot of a commit that is not an ancestor of HEAD (another branch's)", async () => {
    const side = cloneAt(repo, 'HEAD');
    const sideState = tempDir('pc-snap-side-');
    dirs.push(side, sideState);
    execFileSync('git', ['checkout', '-q', '-b', 'side', 'HEAD~1'], { cwd: side });
    writeFileSync(join(side, 'side.ts'), 'export const side = 1;\n');
    execFileSync('git', ['add', 'side.ts'], { cwd: side });
    execFileSync('git', ['-c', 'user.name=A', '-c', 'user.email=a@b', 'commit', '-q', '-m', 'Side'], { cwd: side });
    const { service } = await indexed(side, sideState);
    await service.workspace.exportSnapshot(join(out, 'side.pcsnap'), 'test');
    service.dispose();
    // The branch's commit reaches the repository, which stays on main.
    execFileSync('git', ['fetch', '-q', side, 'side:side'], { cwd: repo.dir });
    await refusedWith({ location: join(out, 'side.pcsnap') }, 'not-an-ancestor', /not an ancestor of HEAD/);
  });

  it('refuses a snapshot that does not match its published hash', async () => {
    const copy = variant('published.pcsnap', readFileSync(good));
    writeFileSync(`${copy}.sha256`, `${'0'.repeat(64)}  published.pcsnap\n`);
    await refusedWith({ location: copy }, 'hash-mismatch', /does not match the published/);
    await refusedWith({ location: good, sha256: 'f'.repeat(64) }, 'hash-mismatch', /does not match the published/);
  });

  it('refuses truncated, corrupted and oversized snapshots', async () => {
    const data = readFileSync(good);
    await refusedWith(
      { location: variant('cut.pcsnap', data.subarray(0, data.length - 100)) },
      'truncated',
      /truncated/,
    );
    const damaged = Buffer.from(data);
    damaged[damaged.length - 50] ^= 0x55;
    await refusedWith({ location: variant('damaged.pcsnap', damaged) }, 'corrupted', /damaged/);
    await refusedWith({ location: good, maxBytes: 1000 }, 'oversized', /too large/);
    await refusedWith({ location: join(out, 'missing.pcsnap') }, 'unreadable', /cannot read/);
  });

  it('refuses a snapshot from a newer format or a newer index schema', async () => {
    const { header, entries } = decodeSnapshot(readFileSync(good));
    const meta = { productVersion: '99.0.0', commit: header.commit, createdAt: header.createdAt };
    const newerSchema = encodeSnapshot(
      { ...meta, indexSchema: 99 },
      [...entries].map(([name, d]) => ({ name, data: d })),
    );
    await refusedWith({ location: variant('schema.pcsnap', newerSchema) }, 'newer-schema', /update Proactive Context/);
    const raw = readFileSync(good);
    const length = raw.readUInt32BE(8);
    const json = JSON.parse(raw.toString('utf8', 12, 12 + length)) as { format: number };
    json.format = 2;
    const text = Buffer.from(JSON.stringify(json));
    const len = Buffer.alloc(4);
    len.writeUInt32BE(text.length);
    const newer = Buffer.concat([raw.subarray(0, 8), len, text, raw.subarray(12 + length)]);
    await refusedWith({ location: variant('newer.pcsnap', newer) }, 'newer-format', /format 2/);
  });
});
