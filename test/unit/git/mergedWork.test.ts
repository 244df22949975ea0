import assert from 'node:assert/strict';
import { GitService } from '../../../src/core/git/gitService';
import { MergedWork } from '../../../src/core/sources/git/mergedWork';
import type { SuggestionItem } from '../../../src/core/types';
import { TempRepo } from './repoFixture';

const change = (title: string, path: string, commit: string): SuggestionItem => ({
  type: 'change',
  title,
  summary: '',
  reason: `changed ${path}`,
  relevanceScore: 0.6,
  location: { path, commit },
  entityId: `commit:${commit}:${path}`,
});

describe('what a plain branch merge brought', () => {
  let repo: TempRepo;
  let merge: string;
  let ownCommit: string;

  before(() => {
    repo = new TempRepo();
    repo.commit('start', { 'src/rules.py': 'rules = 1\n', 'src/map.py': 'map = 1\n', 'README.md': 'x\n' });
    repo.git('branch', 'stable');
    ownCommit = repo.commit('main work on the app', { 'src/app.py': 'app = 1\n' });
    repo.git('checkout', '-q', 'stable');
    repo.commit('merge any number of slashes (#3001)', { 'src/rules.py': 'rules = 2\n' });
    repo.commit('update docs', { 'README.md': 'y\n' });
    repo.commit('fix host matching (#3002)', { 'src/rules.py': 'rules = 3\n', 'src/map.py': 'map = 1\nhost = 1\n' });
    repo.git('checkout', '-q', 'main');
    repo.git('merge', '-q', '--no-ff', '--no-edit', '-m', "Merge branch 'stable'", 'stable');
    merge = repo.head();
  });

  after(() => repo.dispose());

  it('names the merged commits that changed the file, newest first, and where they came from', async () => {
    const items = [
      change("Merge branch 'stable'", 'src/rules.py', merge),
      change("Merge branch 'stable'", 'src/map.py', merge),
      change("Merge branch 'stable'", 'README.md', merge),
      change('main work on the app', 'src/app.py', ownCommit),
    ];
    await new MergedWork(new GitService(repo.dir)).retitle(items);
    assert.deepEqual(
      items.map((i) => i.title),
      [
        'fix host matching (#3002) and 1 more, merged from stable',
        'fix host matching (#3002), merged from stable',
        'update docs, merged from stable',
        'main work on the app',
      ],
    );
    assert.equal(items[0].meta?.merge, "Merge branch 'stable'");

    const others = [
      change('Merge commit from fork', 'src/rules.py', merge),
      change("Merge tag 'v2.1'", 'src/map.py', merge),
      change('Merge branch 2.3.x', 'src/map.py', merge),
    ];
    await new MergedWork(new GitService(repo.dir)).retitle(others);
    assert.deepEqual(
      others.map((i) => i.title),
      [
        'fix host matching (#3002) and 1 more, merged from a fork',
        'fix host matching (#3002), merged from v2.1',
        'fix host matching (#3002), merged from 2.3.x',
      ],
    );
  });

  it('looks again at a merge whose first look was cut short', async () => {
    const work = new MergedWork(new GitService(repo.dir));
    const first = [change("Merge branch 'stable'", 'src/map.py', merge)];
    const stop = new AbortController();
    const looking = work.retitle(first, stop.signal);
    stop.abort();
    await looking;
    assert.equal(first[0].title, "Merge branch 'stable'", 'git was stopped before it answered');
    await work.retitle(first);
    assert.equal(first[0].title, 'fix host matching (#3002), merged from stable');
  });

  it('keeps the subject when git has nothing to say: not a merge, an unknown commit, a path outside the root', async () => {
    const items = [
      change("Merge branch 'stable'", 'src/rules.py', ownCommit),
      change("Merge branch 'stable'", 'src/rules.py', 'f'.repeat(40)),
      change("Merge branch 'stable'", '../elsewhere.py', merge),
    ];
    await new MergedWork(new GitService(repo.dir)).retitle(items);
    assert.deepEqual(
      items.map((i) => i.title),
      ["Merge branch 'stable'", "Merge branch 'stable'", "Merge branch 'stable'"],
    );
  });
});
