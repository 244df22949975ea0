import assert from 'node:assert/strict';
import { runGit, streamGit } from '../../../src/core/git/gitExec';
import { TempRepo } from './repoFixture';

describe('running git', function () {
  this.timeout(30000);
  let repo: TempRepo;

  before(() => {
    repo = new TempRepo();
    repo.write('a.txt', 'x'.repeat(10_000));
    repo.git('add', 'a.txt');
    repo.git('commit', '-q', '-m', 'add a');
  });
  after(() => repo.dispose());

  it('returns the whole output, and feeds its input on stdin', async () => {
    const shown = await runGit(['show', 'HEAD:a.txt'], { cwd: repo.dir });
    assert.equal(shown.ok, true, shown.stderr);
    assert.equal(shown.stdout.length, 10_000);
    const hashed = await runGit(['hash-object', '--stdin'], { cwd: repo.dir, input: 'hello\n' });
    assert.equal(hashed.stdout.trim(), 'ce013625030ba8dba906f756967f9e9ca394464a');
  });

  it('stops git and fails with too-large past maxBytes, keeping none of the output', async () => {
    const r = await runGit(['show', 'HEAD:a.txt'], { cwd: repo.dir, maxBytes: 1000 });
    assert.equal(r.ok, false);
    assert.equal(r.failure, 'too-large');
    assert.equal(r.stdout, '');
  });

  it('stops a stream whose reader throws, and says the call failed', async () => {
    let chunks = 0;
    const r = await streamGit(['show', 'HEAD:a.txt'], {
      cwd: repo.dir,
      onData: () => {
        chunks++;
        throw new Error('enough');
      },
    });
    assert.equal(chunks, 1, 'no chunk after the reader gave up');
    assert.equal(r.failure, 'exit');
  });

  it('answers an aborted call at once and a failing one with its exit code', async () => {
    const ac = new AbortController();
    ac.abort();
    assert.equal((await runGit(['status'], { cwd: repo.dir, signal: ac.signal })).failure, 'aborted');
    const bad = await runGit(['rev-parse', '--verify', '--quiet', 'no-such-branch'], { cwd: repo.dir });
    assert.equal(bad.failure, 'exit');
    assert.equal(bad.code, 1);
  });
});
