import assert from 'node:assert/strict';
import { GitService } from '../../../src/core/git/gitService';
import { WorkingTreeStatus } from '../../../src/core/git/workingTree';
import { TempRepo } from './repoFixture';

describe('WorkingTreeStatus', () => {
  let repo: TempRepo;
  // Files are older than the status by more than the slack, so only the status decides.
  const OLD = 0;

  beforeEach(() => {
    repo = new TempRepo();
    repo.commit('start', { 'a.ts': 'a\n', 'b.ts': 'b\n' });
  });

  afterEach(() => repo.dispose());

  it('tells clean and changed files apart from one status, and asks again for a file saved since', async () => {
    repo.write('b.ts', 'b changed\n');
    const tree = new WorkingTreeStatus(new GitService(repo.dir));
    assert.deepEqual(tree.stateOf('a.ts', OLD), { kind: 'ask' }, 'nothing is known before a status');
    await tree.refresh();
    assert.deepEqual(tree.stateOf('a.ts', OLD), { kind: 'clean' });
    assert.equal(tree.stateOf('b.ts', OLD).kind, 'changed');
    tree.fileChanged('a.ts');
    assert.deepEqual(tree.stateOf('a.ts', OLD), { kind: 'ask' });
  });

  it('drops a status that was under way when HEAD moved: it was taken against the old HEAD', async () => {
    const tree = new WorkingTreeStatus(new GitService(repo.dir));
    const taking = tree.refresh();
    tree.forget();
    await taking;
    assert.equal(tree.known, false, 'the status from before the move is not used');
    assert.deepEqual(tree.stateOf('a.ts', OLD), { kind: 'ask' });
    await tree.refresh();
    assert.deepEqual(tree.stateOf('a.ts', OLD), { kind: 'clean' }, 'the next status is used');
  });
});
