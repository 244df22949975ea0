import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GitService } from '../../../src/core/git/gitService';
import { hunkAt, parseHunks } from '../../../src/core/git/hunks';
import { TempRepo } from './repoFixture';

const FN = [
  '// header',
  'const a = 1;',
  '',
  'export function total(xs: number[]) {',
  '  let t = 0;',
  '  for (const x of xs) t += x;',
  '  return t;',
  '}',
  '',
  'export const b = 2;',
  '',
].join('\n');

describe('GitService', () => {
  let repo: TempRepo;
  let git: GitService;

  beforeEach(() => {
    repo = new TempRepo();
    git = new GitService(repo.dir);
  });
  afterEach(() => repo.dispose());

  it('lists recent commits of a file with the lines each added and removed', async () => {
    repo.commit('add calc', { 'src/calc.ts': FN, 'other.ts': 'x\n' });
    repo.commit('touch other', { 'other.ts': 'y\n' });
    repo.commit('fix total', { 'src/calc.ts': FN.replace('return t;', 'return t + 0;\n  // rounded') });
    const commits = await git.recentCommits('src/calc.ts', { days: 365 });
    assert.deepEqual(
      commits.map((c) => c.subject),
      ['fix total', 'add calc'],
    );
    assert.equal(commits[0].added, 2);
    assert.equal(commits[0].removed, 1);
    assert.equal(commits[1].added, FN.split('\n').length - 1);
    assert.equal(commits[0].author, 'Ada');
    assert.equal(commits[0].email, 'ada@example.com');
    assert.equal(commits[0].date, repo.time * 1000);
  });

  it('walks the first-parent line: a merged branch is its merge commit, with its diff against the first parent', async () => {
    repo.commit('base', { 'a.ts': '1\n' });
    repo.git('checkout', '-q', '-b', 'feature');
    repo.commit('on the branch', { 'a.ts': '1\n2\n' });
    repo.git('checkout', '-q', 'main');
    repo.commit('elsewhere', { 'b.ts': 'x\n' });
    repo.git('merge', '-q', '--no-ff', '-m', 'merge feature', 'feature');
    assert.deepEqual(
      (await git.recentCommits('a.ts', { days: 365 })).map((c) => `${c.subject} +${c.added} -${c.removed}`),
      ['merge feature +1 -0', 'base +1 -0'],
    );
  });

  it('titles a merge a forge made by what it merged, and leaves a plain merge as it is', async () => {
    repo.commit('base', { 'a.ts': '1\n' });
    const branch = (name: string, content: string) => {
      repo.git('checkout', '-q', '-b', name);
      repo.commit(`work on ${name}`, { 'a.ts': content });
      repo.git('checkout', '-q', 'main');
    };
    branch('login', '1\n2\n');
    repo.git(
      'merge',
      '-q',
      '--no-ff',
      '-m',
      'Merge pull request #7 from someone/login',
      '-m',
      'Log in with a passkey',
      'login',
    );
    branch('bump', '1\n2\n3\n');
    repo.git('merge', '-q', '--no-ff', '-m', 'Merge pull request #8 from someone/bump-deps', 'bump');
    branch('local', '1\n2\n3\n4\n');
    repo.git('merge', '-q', '--no-ff', '-m', "Merge branch 'local'", 'local');
    // An imported or rewritten history keeps the forge's subject on a commit of one parent.
    repo.write('a.ts', '1\n2\n3\n4\n5\n');
    repo.git(
      'commit',
      '-q',
      '-am',
      'Merge pull request #9 from someone/imported',
      '-m',
      'Imported from the old repository',
    );
    assert.deepEqual(
      (await git.recentCommits('a.ts', { days: 365 })).map((c) => c.subject),
      [
        'Imported from the old repository (#9)',
        "Merge branch 'local'",
        'bump-deps (#8)',
        'Log in with a passkey (#7)',
        'base',
      ],
    );
  });

  it('takes a file name as a name, never as a pattern', async () => {
    repo.commit('two routes', { 'pages/[id].ts': '1\n', 'pages/i.ts': '1\n' });
    repo.commit('only i', { 'pages/i.ts': '2\n' });
    repo.write('pages/i.ts', '3\n');
    assert.deepEqual(
      (await git.recentCommits('pages/[id].ts', { days: 365 })).map((c) => c.subject),
      ['two routes'],
    );
    assert.deepEqual(await git.uncommittedHunks('pages/[id].ts'), [], 'the edit of pages/i.ts is not the route file');
  });

  it('diffs one file in given commits without walking history, and lists every changed file of the tree at once', async () => {
    const one = repo.commit('add calc', { 'calc.ts': FN });
    const two = repo.commit('change b', { 'calc.ts': FN.replace('b = 2', 'b = 3') });
    const diffs = await git.fileDiffs('calc.ts', [{ hash: two, parent: one }, { hash: one }]);
    assert.deepEqual(diffs.get(two), [{ oldStart: 10, oldLines: 1, newStart: 10, newLines: 1, kind: 'modified' }]);
    assert.deepEqual(
      diffs.get(one),
      [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: 10, kind: 'added' }],
      'the first commit against the empty tree',
    );
    repo.write('calc.ts', FN);
    repo.write('new file.ts', 'x\n');
    assert.deepEqual([...((await git.changedPaths()) ?? [])].sort(), [
      ['calc.ts', ' M'],
      ['new file.ts', '??'],
    ]);
  });

  it('leaves out commits older than the window', async () => {
    repo.commit('old', { 'a.ts': '1\n' }, 0);
    const recent = await git.recentCommits('a.ts', { days: 30 });
    assert.equal(recent.length, 0, 'the fixture clock starts 100 days ago');
    assert.equal((await git.recentCommits('a.ts', { days: 200 })).length, 1);
  });

  it("follows the history of a function's lines, not of the whole file", async () => {
    repo.commit('add calc', { 'calc.ts': FN });
    repo.commit('change b', { 'calc.ts': FN.replace('b = 2', 'b = 3') });
    repo.commit('change loop', { 'calc.ts': FN.replace('b = 2', 'b = 3').replace('t += x', 't += x * 1') });
    const history = await git.lineHistory('calc.ts', 4, 8);
    assert.deepEqual(
      history.map((c) => c.subject),
      ['change loop', 'add calc'],
    );
  });

  it('finds uncommitted hunks and the one under the cursor', async () => {
    repo.commit('add calc', { 'calc.ts': FN });
    repo.write(
      'calc.ts',
      FN.replace('const a = 1;', 'const a = 10;').replace(
        'export const b = 2;\n',
        'export const b = 2;\nexport const c = 3;\nexport const d = 4;\n',
      ),
    );
    const hunks = await git.uncommittedHunks('calc.ts');
    assert.equal(hunks.length, 2);
    assert.deepEqual(hunkAt(hunks, 2), { oldStart: 2, oldLines: 1, newStart: 2, newLines: 1, kind: 'modified' });
    assert.equal(hunkAt(hunks, 11)?.kind, 'added');
    assert.equal(hunkAt(hunks, 12)?.newLines, 2);
    assert.equal(hunkAt(hunks, 5), undefined);
  });

  it('places a deletion hunk at the lines around it', () => {
    const hunks = parseHunks('@@ -5,2 +4,0 @@\n-x\n-y\n');
    assert.equal(hunks[0].kind, 'deleted');
    assert.ok(hunkAt(hunks, 4));
    assert.ok(hunkAt(hunks, 5));
    assert.equal(hunkAt(hunks, 7), undefined);
  });

  it('treats an untracked file as one hunk over the whole file', async () => {
    repo.commit('init', { 'a.ts': '1\n' });
    repo.write('new.ts', 'one\ntwo\nthree\n');
    assert.deepEqual(await git.uncommittedHunks('new.ts'), [
      { oldStart: 0, oldLines: 0, newStart: 1, newLines: 3, kind: 'untracked' },
    ]);
  });

  it('has no hunks for a clean file or an ignored one, and diffs a staged file before the first commit', async () => {
    repo.commit('init', { 'a.ts': '1\n', '.gitignore': 'build/\n' });
    assert.deepEqual(await git.uncommittedHunks('a.ts'), [], 'clean');
    repo.write('build/out.ts', 'x\n');
    assert.deepEqual(await git.uncommittedHunks('build/out.ts'), [], 'ignored');
    assert.deepEqual(await git.uncommittedHunks('missing.ts'), [], 'no such file');

    const fresh = new TempRepo();
    try {
      fresh.write('s.ts', 'a\nb\n');
      fresh.git('add', 's.ts');
      const hunks = await new GitService(fresh.dir).uncommittedHunks('s.ts');
      assert.deepEqual(
        hunks.map((h) => [h.newStart, h.newLines, h.kind]),
        [[1, 2, 'added']],
        'staged, no HEAD yet',
      );
    } finally {
      fresh.dispose();
    }
  });

  it('lists the files a commit changed', async () => {
    repo.commit('one', { 'a.ts': '1\n', 'b.ts': '1\n' });
    const h = repo.commit('two', { 'b.ts': '2\n', 'dir/c.ts': '2\n' });
    assert.deepEqual((await git.changedFiles(h)).sort(), ['b.ts', 'dir/c.ts']);
    assert.deepEqual(await git.changedFiles('--output=/tmp/x'), []);
  });

  it('handles file names with spaces, unicode and a leading dash', async () => {
    const names = ['with space.ts', 'ünïcødé/naïve файл.ts', '-dash.ts'];
    repo.commit('odd names', Object.fromEntries(names.map((n) => [n, FN])));
    const h = repo.commit(
      'again',
      Object.fromEntries(names.map((n) => [n, FN.replace('const a = 1;', 'const a = 2;')])),
    );
    assert.deepEqual((await git.changedFiles(h)).sort(), [...names].sort());
    for (const n of names) {
      const commits = await git.recentCommits(n, { days: 365 });
      assert.equal(commits.length, 2, n);
      assert.equal(commits[0].added, 1, n);
      assert.deepEqual(
        (await git.lineHistory(n, 2, 2)).map((c) => c.subject),
        ['again', 'odd names'],
        n,
      );
      repo.write(n, FN.replace('// header', '// changed'));
      assert.equal((await git.uncommittedHunks(n)).length, 1, n);
    }
  });

  it('reports a healthy repository with its HEAD', async () => {
    const h = repo.commit('one', { 'a.ts': '1\n' });
    assert.deepEqual(await git.state(), { ok: true, head: h });
    assert.equal(await git.isRepo(), true);
  });

  it('degrades to empty results in a folder that is not a repository', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pc-norepo-'));
    try {
      const g = new GitService(dir);
      assert.deepEqual(await g.state(), { ok: false, reason: 'not-a-repo' });
      assert.equal(await g.isRepo(), false);
      assert.deepEqual(await g.recentCommits('a.ts', { days: 30 }), []);
      assert.deepEqual(await g.lineHistory('a.ts', 1, 2), []);
      assert.deepEqual(await g.uncommittedHunks('a.ts'), []);
      assert.deepEqual(await g.changedFiles('HEAD'), []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('degrades to empty results in a repository without commits', async () => {
    repo.write('a.ts', 'x\ny\n');
    assert.deepEqual(await git.state(), { ok: false, reason: 'no-commits' });
    assert.deepEqual(await git.recentCommits('a.ts', { days: 30 }), []);
    assert.deepEqual(await git.lineHistory('a.ts', 1, 2), []);
    assert.deepEqual(await git.changedFiles('HEAD'), []);
    assert.equal((await git.uncommittedHunks('a.ts'))[0]?.newLines, 2, 'an untracked file is still one hunk');
  });

  it('still works in a shallow clone and says so', async () => {
    repo.commit('one', { 'a.ts': '1\n' });
    const h = repo.commit('two', { 'a.ts': '2\n' });
    const dir = mkdtempSync(join(tmpdir(), 'pc-shallow-'));
    try {
      execFileSync('git', ['clone', '-q', '--depth', '1', `file://${repo.dir}`, dir]);
      const g = new GitService(dir);
      const s = await g.state();
      assert.equal(s.ok, true);
      assert.equal(s.reason, 'shallow');
      assert.equal(s.head, h);
      assert.deepEqual(
        (await g.recentCommits('a.ts', { days: 365 })).map((c) => c.subject),
        ['two'],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('still works on a detached HEAD and says so', async () => {
    const first = repo.commit('one', { 'a.ts': '1\n' });
    repo.commit('two', { 'a.ts': '2\n' });
    repo.git('checkout', '-q', '--detach', first);
    const s = await git.state();
    assert.deepEqual(s, { ok: true, head: first, detached: true, reason: 'detached' });
    assert.deepEqual(
      (await git.recentCommits('a.ts', { days: 365 })).map((c) => c.subject),
      ['one'],
    );
  });

  it('returns nothing once cancelled, without throwing', async () => {
    repo.commit('one', { 'a.ts': '1\n' });
    const ac = new AbortController();
    ac.abort();
    assert.deepEqual(await git.recentCommits('a.ts', { days: 365, signal: ac.signal }), []);
  });

  it('refuses files outside the root', async () => {
    repo.commit('one', { 'a.ts': '1\n' });
    assert.deepEqual(await git.recentCommits('../elsewhere.ts', { days: 365 }), []);
  });

  it('reports a missing git binary as a reason, not an exception', async () => {
    const saved = process.env.PATH;
    process.env.PATH = '/nonexistent-bin';
    try {
      assert.deepEqual(await git.state(), { ok: false, reason: 'git-missing' });
      assert.deepEqual(await git.recentCommits('a.ts', { days: 30 }), []);
    } finally {
      process.env.PATH = saved;
    }
  });
});
