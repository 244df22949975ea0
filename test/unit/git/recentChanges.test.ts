import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoChangeModel } from '../../../src/core/cochange/cochangeModel';
import { resolveConfig } from '../../../src/core/config';
import { GitService } from '../../../src/core/git/gitService';
import type { QueryContext } from '../../../src/core/sources/sourceQuery';
import { commitItem, lineCounts } from '../../../src/core/sources/git/commitItems';
import { HistorySources } from '../../../src/core/sources/git/historySources';
import type { SuggestionItem } from '../../../src/core/types';
import { awkwardHistory } from './awkwardHistory';
import { TempRepo } from './repoFixture';

const demoSetup = join(__dirname, '..', '..', '..', '..', 'demo-workspace', 'setup.mjs');

/** `whole`: no definition at the cursor, so the file's older commits may fill in (the window alone otherwise). */
function context(file: string, days: number, now: number, whole = false): QueryContext {
  return {
    query: { currentFile: file },
    symbolRange: whole ? undefined : { name: 'x', startLine: 1, endLine: 1 },
    config: resolveConfig({ recentChangeDays: days }),
    now,
    signal: new AbortController().signal,
    note: () => undefined,
  };
}

/**
 * The commit items the history source shows for each tracked file, next to the items built from
 * what `git log --first-parent` says for the same file and for the same related files: same commits,
 * same order, same fields. The commits of the files that change with it are not this file's.
 */
async function compareItems(root: string, stateDir: string, days: number): Promise<number> {
  const git = new GitService(root);
  const model = new CoChangeModel({ root, store: { stateDir }, git, lineCountDays: () => days });
  await model.update();
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
  const now = Date.now();
  const sources = new HistorySources(
    root,
    git,
    model,
    { importsOf: () => [], importersOf: () => [] },
    () => tracked,
    () => now,
  );
  const source = sources.changeSource();
  // The window ends at the newest commit when the repository has been quiet since.
  const newest =
    Number(
      execFileSync('git', ['log', '-1', '--first-parent', '--format=%ct', 'HEAD'], {
        cwd: root,
        encoding: 'utf8',
      }).trim(),
    ) * 1000;
  const windowEnd = Math.min(now, newest);
  let compared = 0;
  for (const file of tracked) {
    const shown = (await source.collect(context(file, days, now))).filter((i) => i.location.commit);
    const expected: SuggestionItem[] = [];
    for (const c of await git.recentCommits(file, { days, maxCount: 8, now: windowEnd })) {
      const lines = c.added === undefined ? 'changed this file' : lineCounts(c.added, c.removed ?? 0);
      expected.push(commitItem(file, c, 0.6, lines));
    }
    assert.deepEqual(shown, expected, `${file} within ${days} days`);
    compared += expected.length;
  }
  return compared;
}

describe('recent changes from the history index are the ones git log gives', function () {
  this.timeout(60000);
  let base: string;
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'pc-recent-'));
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('on the demo workspace, for every file, in the default window and over all history', async () => {
    const root = join(base, 'demo');
    execFileSync(process.execPath, [demoSetup, root], { stdio: 'ignore' });
    assert.ok((await compareItems(root, join(base, 'state'), 30)) > 10);
    assert.ok((await compareItems(root, join(base, 'state'), 3650)) > 20);
  });

  it('in a repository quiet for months, counts the window back from its newest commit', async () => {
    const repo = new TempRepo(true, 'pc-quiet-', Math.floor(Date.now() / 1000) - 400 * 86400);
    try {
      repo.commit('first take', { 'src/a.ts': '1\n' }); // 399 days ago
      repo.commit('second take', { 'src/a.ts': '1\n2\n' }, 100); // 299 days ago
      repo.commit('last work', { 'src/b.ts': 'b\n' }, 20); // 279 days ago, nothing since
      const git = new GitService(repo.dir);
      const model = new CoChangeModel({
        root: repo.dir,
        store: { stateDir: join(base, 'quiet') },
        git,
        lineCountDays: () => 30,
      });
      await model.update();
      const now = Date.now();
      const sources = new HistorySources(
        repo.dir,
        git,
        model,
        { importsOf: () => [], importersOf: () => [] },
        () => ['src/a.ts', 'src/b.ts'],
        () => now,
      );
      const shown = (await sources.changeSource().collect(context('src/a.ts', 30, now))).filter(
        (i) => i.location.path === 'src/a.ts',
      );
      assert.deepEqual(
        shown.map((i) => [i.title, i.reason]),
        [['second take', '+1 line']],
        'within 30 days of the last commit, with its line counts and not its age; the first take is older',
      );
      // With no definition at the cursor (a config, a style sheet) there is no line history: older commits fill in.
      const whole = (await sources.changeSource().collect(context('src/a.ts', 30, now, true))).filter(
        (i) => i.location.path === 'src/a.ts',
      );
      assert.deepEqual(
        whole.map((i) => i.title),
        ['second take', 'first take'],
      );
    } finally {
      repo.dispose();
    }
  });

  it('leaves out the commits listed to be ignored by blame and reads the list again when HEAD moves', async () => {
    const repo = new TempRepo(true, 'pc-ignored-', Math.floor(Date.now() / 1000) - 20 * 86400);
    try {
      repo.commit('add a and b', { 'src/a.ts': 'a\n', 'src/b.ts': 'b\n' });
      repo.commit('grow a and b', { 'src/a.ts': 'a\na\n', 'src/b.ts': 'b\nb\n' });
      repo.commit('fix a', { 'src/a.ts': 'a\na\na\n' });
      const reformat = repo.commit('reformat everything', { 'src/a.ts': ' a\n a\n a\n', 'src/b.ts': ' b\n b\n' });
      const git = new GitService(repo.dir);
      const model = new CoChangeModel({
        root: repo.dir,
        store: { stateDir: join(base, 'ignored') },
        git,
        lineCountDays: () => 30,
      });
      await model.update();
      const now = Date.now();
      const sources = new HistorySources(
        repo.dir,
        git,
        model,
        { importsOf: () => [], importersOf: () => [] },
        () => ['src/a.ts', 'src/b.ts'],
        () => now,
      );
      const shown = async () =>
        (await sources.changeSource().collect(context('src/a.ts', 30, now))).map(
          (i) => `${i.location.path}: ${i.title}`,
        );
      assert.deepEqual(await shown(), [
        'src/a.ts: reformat everything',
        'src/a.ts: fix a',
        'src/a.ts: grow a and b',
        'src/a.ts: add a and b',
      ]);

      repo.commit('list the reformat', { '.git-blame-ignore-revs': `# formatting\n${reformat}\n` });
      await model.update();
      sources.headMoved();
      // As the indexer does after each history update, off the query path.
      await sources.refreshWorkingTree();
      assert.deepEqual(await shown(), ['src/a.ts: fix a', 'src/a.ts: grow a and b', 'src/a.ts: add a and b']);
    } finally {
      repo.dispose();
    }
  });

  it('on a history with merges, a rename, odd names, binary and deleted files and a skewed clock', async () => {
    const repo = awkwardHistory();
    try {
      for (const days of [92, 95, 3650])
        assert.ok((await compareItems(repo.dir, join(base, `state-${days}`), days)) > 0);
    } finally {
      repo.dispose();
    }
  });
});
