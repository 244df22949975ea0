import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { killAllGit, runGit } from '../../../src/core/git/gitExec';
import { PartialClone } from './partialClone';
import { groupEnds, liveInGroup, until } from './processes';
import { TempRepo } from './repoFixture';

describe('bounded git calls', function () {
  this.timeout(60_000);
  let repo: TempRepo;

  before(() => {
    repo = new TempRepo();
    repo.commit('first', { 'a.txt': 'a\n' });
  });
  after(() => repo.dispose());

  it('settles when git exits, though a child it left behind still holds its output, and ends that child', async () => {
    // A shell alias stands for what a file system monitor or a fetch does: a background child that keeps stdout open.
    const r = await runGit(['-c', 'alias.bg=!ps -o pgid= -p $$; sleep 600 &', 'bg'], {
      cwd: repo.dir,
      timeoutMs: 60_000,
    });
    assert.equal(r.ok, true, r.stderr);
    const pgid = Number(r.stdout.trim());
    assert.ok(pgid > 0, r.stdout);
    await groupEnds(pgid);
  });

  it('ends the whole process group on timeout, not only git', async () => {
    const mark = join(repo.dir, '.git', 'stall-pgid');
    // The repository's configuration is read before the first call: not within the timeout below.
    await runGit(['rev-parse'], { cwd: repo.dir });
    const r = await runGit(['-c', `alias.stall=!ps -o pgid= -p $$ > '${mark}'; sleep 600; echo late`, 'stall'], {
      cwd: repo.dir,
      timeoutMs: 4000,
    });
    assert.equal(r.failure, 'timeout');
    assert.equal(r.stdout, '');
    await groupEnds(Number(readFileSync(mark, 'utf8').trim()));
  });

  it('ends every call under way when asked to (at exit)', async () => {
    const mark = join(repo.dir, '.git', 'held-pgid');
    const call = runGit(['-c', `alias.hold=!ps -o pgid= -p $$ > '${mark}'; sleep 600`, 'hold'], {
      cwd: repo.dir,
      timeoutMs: 60_000,
    });
    await until(() => existsSync(mark) && readFileSync(mark, 'utf8').trim() !== '');
    const pgid = Number(readFileSync(mark, 'utf8').trim());
    assert.ok(liveInGroup(pgid).length > 0);
    killAllGit();
    const r = await call;
    assert.equal(r.ok, false);
    await groupEnds(pgid);
  });

  describe('in a partial clone', () => {
    let clone: PartialClone;
    before(() => (clone = new PartialClone()));
    after(() => clone.dispose());

    it('never fetches a missing blob: the read fails at once and the remote is not started', async () => {
      const before = clone.fetches().length;
      const r = await runGit(['cat-file', '-p', clone.missingBlob()], { cwd: clone.dir, timeoutMs: 60_000 });
      assert.equal(r.ok, false);
      assert.match(r.stderr, /not allowed|could not fetch/);
      assert.equal(clone.fetches().length, before);
    });

    it('settles at its timeout when a fetch stalls, and leaves no process of its group', async () => {
      clone.remote('exec sleep 600');
      await runGit(['rev-parse'], { cwd: clone.dir });
      const before = clone.fetches().length;
      // The test lets the transport through and fetches outright: what a git that ignored both the
      // refusal and GIT_NO_LAZY_FETCH would do on a missing blob.
      const r = await runGit(['-c', 'protocol.file.allow=always', 'fetch', '-q', 'origin'], {
        cwd: clone.dir,
        timeoutMs: 8000,
      });
      assert.equal(r.failure, 'timeout');
      await until(() => clone.fetches().length > before);
      const stalled = clone.fetches().at(-1)!;
      await groupEnds(stalled.pgid);
    });
  });
});
