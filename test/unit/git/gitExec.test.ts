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

  it('lets the event loop run between the chunks of a long output whose reader is slow', async () => {
    const big = new TempRepo();
    try {
      big.write('big.txt', 'y'.repeat(2_000_000));
      big.git('add', 'big.txt');
      big.git('commit', '-q', '-m', 'big');
      // A ticker on the event loop's check phase: the chunks handed over between two of its turns.
      let sinceTurn = 0;
      let most = 0;
      let ticking = true;
      const turn = () => {
        sinceTurn = 0;
        if (ticking) setImmediate(turn);
      };
      setImmediate(turn);
      let bytes = 0;
      let chunks = 0;
      const r = await streamGit(['show', 'HEAD:big.txt'], {
        cwd: big.dir,
        onData: (chunk) => {
          bytes += chunk.length;
          chunks++;
          most = Math.max(most, ++sinceTurn);
          // A reader that takes longer than a slice over every chunk (parsing a history).
          const until = performance.now() + 15;
          while (performance.now() < until);
        },
      });
      ticking = false;
      assert.equal(r.ok, true, r.stderr);
      assert.equal(bytes, 2_000_000, 'every byte is read');
      assert.ok(chunks >= 10, `the output came in ${chunks} chunks, too few to tell`);
      // One chunk a turn; the stream's end may hand over the last one with the one before it.
      assert.ok(most <= 2, `${most} chunks were handed over in one turn of the event loop`);
    } finally {
      big.dispose();
    }
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
