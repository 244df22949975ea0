import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoChangeModel, HISTORY_FILE } from '../../../src/core/cochange/cochangeModel';
import { decodeHistory, encodeHistory } from '../../../src/core/cochange/fileHistoryCodec';
import { FileHistory, HistoryDelta } from '../../../src/core/cochange/fileHistory';
import { PathTable } from '../../../src/core/cochange/pathTable';
import { GitService } from '../../../src/core/git/gitService';
import { nullLogger, type Logger } from '../../../src/core/logger';
import { sinceOf } from '../../../src/core/cochange/recentWindow';
import { awkwardHistory, ODD_NAMES } from '../git/awkwardHistory';
import { TempRepo } from '../git/repoFixture';

const ALL = 10_000;
const ALL_DAYS = () => 3650;

/** Every path the index knows, answered by the index and by `git log --first-parent` (GitService.recentCommits). */
async function compareWithGitLog(
  model: CoChangeModel,
  dir: string,
  options: { days?: number; limit?: number; now?: number } = {},
): Promise<number> {
  const git = new GitService(dir);
  const now = options.now ?? Date.now();
  const since = options.days === undefined ? undefined : sinceOf(now, options.days);
  let compared = 0;
  for (const path of model.history.paths.all()) {
    const fromIndex = model.history.recent(path, options.limit ?? ALL, since);
    const fromGit = await git.recentCommits(path, { maxCount: options.limit ?? ALL, days: options.days, now });
    assert.deepEqual(fromIndex, fromGit, `${path}${options.days === undefined ? '' : ` within ${options.days} days`}`);
    compared += fromGit.length;
  }
  return compared;
}

function logged(lines: string[]): Logger {
  return { ...nullLogger, info: (m: string) => lines.push(m), warn: (m: string) => lines.push(m) };
}

describe('the history index (per-file commit lists)', function () {
  this.timeout(30000);
  let repo: TempRepo;
  let stateDir: string;

  beforeEach(() => {
    repo = awkwardHistory();
    stateDir = mkdtempSync(join(tmpdir(), 'pc-history-'));
  });
  afterEach(() => {
    repo.dispose();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('lists every file’s commits exactly as git log --first-parent does: merges, a rename, odd names, binary, deleted', async () => {
    const model = new CoChangeModel({ root: repo.dir, store: { stateDir }, lineCountDays: ALL_DAYS });
    assert.equal((await model.update()).mode, 'rebuild');
    const compared = await compareWithGitLog(model, repo.dir);
    assert.ok(compared > 20, `compared ${compared} commits`);
    for (const n of ODD_NAMES) assert.ok(model.history.recent(n, 5).length > 0, n);
    assert.deepEqual(
      model.history.recent('src/b.ts', 5).map((c) => c.subject),
      ['rename b to bee', 'Touch b and add c (#12)', 'start'],
      'the merge is one change, titled by what it merged; the rename ends the old name',
    );
    assert.deepEqual(
      model.history.recent('src/bee.ts', 5).map((c) => c.subject),
      ['after the skew', 'rename b to bee'],
    );
    assert.deepEqual(
      model.history.recent('assets/logo.bin', 5).map((c) => [c.added, c.removed]),
      [[0, 0]],
      'binary: no line counts',
    );
    const marked = model.history.recent('src/a.ts', ALL).find((c) => c.subject.startsWith('\u0001'));
    assert.ok(marked, 'a subject that starts with the record mark is kept whole');
    assert.equal(model.history.recent('src/c.ts', 1)[0].author, 'Zoë Ångström');
  });

  it('stops the recent-changes window where git log --since stops its walk, skewed clocks included', async () => {
    const model = new CoChangeModel({ root: repo.dir, store: { stateDir }, lineCountDays: ALL_DAYS });
    await model.update();
    const now = Date.now();
    for (const days of [1, 80, 85, 90, 95, 100, 3650])
      await compareWithGitLog(model, repo.dir, { days, limit: 8, now });
  });

  it('keeps line counts for the recent-changes window only, and reads the older ones when the window grows', async () => {
    let days = 8;
    const model = new CoChangeModel({ root: repo.dir, store: { stateDir }, lineCountDays: () => days });
    await model.update();
    const git = new GitService(repo.dir);
    const a = model.history.recent('src/a.ts', ALL);
    const fromGit = await git.recentCommits('src/a.ts', { maxCount: ALL });
    // The window ends at the newest commit, as the repository has been quiet since.
    const newest = Number(repo.git('log', '-1', '--first-parent', '--format=%ct', 'HEAD').trim()) * 1000;
    const inWindow = await git.recentCommits('src/a.ts', { maxCount: ALL, days, now: Math.min(Date.now(), newest) });
    assert.ok(
      inWindow.length > 0 && inWindow.length < fromGit.length,
      'the fixture has commits on both sides of the window',
    );
    assert.deepEqual(a.slice(0, inWindow.length), inWindow, 'counted inside the window');
    assert.deepEqual(
      a.slice(inWindow.length),
      fromGit.slice(inWindow.length).map(({ added: _a, removed: _r, ...c }) => c),
      'not outside it',
    );
    days = 3650;
    assert.equal((await model.update()).mode, 'up-to-date');
    await compareWithGitLog(model, repo.dir);
    await compareWithGitLog(new CoChangeModel({ root: repo.dir, store: { stateDir } }), repo.dir);
  });

  it('titles the merges a forge made, of two parents or of one (an imported history), on a rebuild and on new commits', async () => {
    const r = new TempRepo();
    try {
      r.commit('base', { 'a.ts': '1\n' });
      r.git('checkout', '-q', '-b', 'login');
      r.commit('work', { 'a.ts': '1\n2\n' });
      r.git('checkout', '-q', 'main');
      r.git(
        'merge',
        '-q',
        '--no-ff',
        '-m',
        'Merge pull request #7 from someone/login',
        '-m',
        'Log in with a passkey',
        'login',
      );
      r.write('a.ts', '1\n2\n3\n');
      r.git(
        'commit',
        '-q',
        '-am',
        'Merge pull request #9 from someone/imported',
        '-m',
        'Imported from the old repository',
      );
      const model = new CoChangeModel({ root: r.dir, store: { stateDir }, lineCountDays: ALL_DAYS });
      assert.equal((await model.update()).mode, 'rebuild');
      r.git('checkout', '-q', '-b', 'bump');
      r.commit('bump', { 'a.ts': '4\n' });
      r.git('checkout', '-q', 'main');
      r.git('merge', '-q', '--no-ff', '-m', 'Merge pull request #10 from someone/bump-deps', 'bump');
      assert.equal((await model.update()).mode, 'incremental');
      assert.deepEqual(
        model.history.recent('a.ts', ALL).map((c) => c.subject),
        ['bump-deps (#10)', 'Imported from the old repository (#9)', 'Log in with a passkey (#7)', 'base'],
      );
      assert.ok((await compareWithGitLog(model, r.dir)) >= 4);
    } finally {
      r.dispose();
    }
  });

  it('mines a history whose blobs are missing, without line counts, instead of failing', async () => {
    const blob = execFileSync('git', ['rev-parse', 'HEAD~3:src/a.ts'], { cwd: repo.dir, encoding: 'utf8' }).trim();
    rmSync(join(repo.dir, '.git', 'objects', blob.slice(0, 2), blob.slice(2)));
    const said: string[] = [];
    const model = new CoChangeModel({
      root: repo.dir,
      store: { stateDir },
      logger: logged(said),
      lineCountDays: ALL_DAYS,
    });
    assert.equal((await model.update()).mode, 'rebuild');
    assert.ok(
      said.some((m) => /Could not count the lines of every file of commit .* counted one by one/.test(m)),
      said.join(' | '),
    );
    assert.equal(model.history.recent('src/a.ts', ALL).length, 5, 'every commit of the file');
    assert.equal(
      model.history.recent('src/a.ts', 1)[0].added,
      undefined,
      'the commit whose blob is gone has no counts',
    );
    assert.equal(model.history.recent('src/bee.ts', 1)[0].added, 1, 'the commits around it have theirs');
    assert.deepEqual(
      model.history.recent('ünïcødé/naïve файл.ts', 1).map((c) => [c.subject, c.added, c.removed]),
      [['by the first author again', 1, 1]],
      'and so do the readable files of that commit',
    );
    assert.ok(model.support('src/a.ts', '-dash.ts') > 0, 'co-change is mined all the same');
    repo.commit('after the loss', { 'src/a.ts': 'again\n' });
    assert.equal((await model.update()).mode, 'incremental');
    assert.equal(model.history.recent('src/a.ts', 1)[0].added, 1, 'new commits are counted');
  });

  it('adds new commits incrementally, saves them and answers as git log after a restart', async () => {
    const model = new CoChangeModel({ root: repo.dir, store: { stateDir }, lineCountDays: ALL_DAYS });
    await model.update();
    const before = model.history.commitCount;
    repo.commit('later one', { 'src/a.ts': 'later\n', 'new/file.ts': 'n\n' });
    repo.commit('later two', { 'new/file.ts': 'n2\n', 'with space.ts': 'again\n' });
    const res = await model.update();
    assert.equal(res.mode, 'incremental');
    assert.equal(res.commits, 2);
    assert.equal(model.history.commitCount, before + 2);
    await compareWithGitLog(model, repo.dir);
    const reopened = new CoChangeModel({ root: repo.dir, store: { stateDir }, lineCountDays: ALL_DAYS });
    assert.equal(reopened.history.head, repo.head());
    await compareWithGitLog(reopened, repo.dir);
    assert.equal((await reopened.update()).mode, 'up-to-date');
  });

  it('mines everything again when HEAD reaches the mined commit only through a merged branch', async () => {
    repo.git('checkout', '-q', '-b', 'topic');
    repo.commit('topic work', { 'src/a.ts': 'topic\n' });
    const model = new CoChangeModel({ root: repo.dir, store: { stateDir }, lineCountDays: ALL_DAYS });
    await model.update();
    repo.git('checkout', '-q', 'main');
    repo.commit('main work', { 'src/bee.ts': 'main\n' });
    repo.git('merge', '-q', '--no-ff', '-m', 'merge topic', 'topic');
    const said: string[] = [];
    const again = new CoChangeModel({
      root: repo.dir,
      store: { stateDir },
      logger: logged(said),
      lineCountDays: ALL_DAYS,
    });
    assert.equal((await again.update()).mode, 'rebuild');
    assert.ok(
      said.some((m) => /does not continue the first-parent line/.test(m)),
      said.join(' | '),
    );
    await compareWithGitLog(again, repo.dir);
  });

  it('rebuilds from history, with a logged reason, when the file is damaged, missing or from another commit', async () => {
    const model = new CoChangeModel({ root: repo.dir, store: { stateDir }, lineCountDays: ALL_DAYS });
    await model.update();
    const file = join(stateDir, HISTORY_FILE);
    const older = join(stateDir, 'older.bin');
    copyFileSync(file, older);
    repo.commit('one more', { 'src/a.ts': 'more\n' });
    await model.update();
    const good = readFileSync(file);
    const cases: [Buffer | undefined, RegExp][] = [
      [good.subarray(0, good.length - 9), /unusable \(checksum mismatch\)/],
      [
        Buffer.concat([good.subarray(0, 100), Buffer.from([good[100] ^ 1]), good.subarray(101)]),
        /unusable \(checksum mismatch\)/,
      ],
      [Buffer.from('PK not a history file at all, long enough to be read'), /unusable \(not a file-history cache\)/],
      [Buffer.alloc(2), /unusable \(too short\)/],
      [undefined, /No history\.bin/],
      [readFileSync(older), /disagree/],
    ];
    for (const [bytes, reason] of cases) {
      if (bytes) writeFileSync(file, bytes);
      else rmSync(file);
      const said: string[] = [];
      const fresh = new CoChangeModel({
        root: repo.dir,
        store: { stateDir },
        logger: logged(said),
        lineCountDays: ALL_DAYS,
      });
      assert.equal(fresh.history.commitCount, 0, 'nothing half-loaded');
      assert.equal(fresh.commitCount, 0);
      assert.ok(
        said.some((m) => reason.test(m)),
        `${reason}: ${said.join(' | ')}`,
      );
      assert.equal((await fresh.update()).mode, 'rebuild');
      assert.deepEqual(readFileSync(file), good, 'saved again, byte for byte');
    }
  });

  it('covers the fetched commits of a shallow clone and says it is shallow', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pc-shallow-'));
    try {
      execFileSync('git', ['clone', '-q', '--depth', '4', `file://${repo.dir}`, join(dir, 'clone')]);
      const model = new CoChangeModel({ root: join(dir, 'clone'), store: { stateDir }, lineCountDays: ALL_DAYS });
      assert.equal((await model.update()).mode, 'rebuild');
      assert.equal(model.repoState?.reason, 'shallow');
      assert.equal(model.history.commitCount, 4);
      await compareWithGitLog(model, join(dir, 'clone'));
      const oldest = model.history.revisions('src/a.ts', ALL).at(-1);
      assert.equal(oldest?.parent, undefined, 'nothing before the shallow boundary');
      assert.equal(
        new CoChangeModel({ root: join(dir, 'clone'), store: { stateDir }, lineCountDays: ALL_DAYS }).repoState?.reason,
        'shallow',
        'and the cache remembers it',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives each file’s commits with the commit before each on the first-parent line', async () => {
    const model = new CoChangeModel({ root: repo.dir, store: { stateDir }, lineCountDays: ALL_DAYS });
    await model.update();
    const git = new GitService(repo.dir);
    for (const rev of model.history.revisions('src/a.ts', ALL)) {
      const parents = execFileSync('git', ['rev-list', '--parents', '-n', '1', rev.hash], {
        cwd: repo.dir,
        encoding: 'utf8',
      })
        .trim()
        .split(' ');
      assert.equal(rev.parent, parents[1], rev.subject);
    }
    assert.ok((await git.fileDiffs('src/a.ts', model.history.revisions('src/a.ts', ALL))).size > 3);
  });

  it('says why there is no history: no commits, not a repository', async () => {
    const empty = new TempRepo();
    const plain = mkdtempSync(join(tmpdir(), 'pc-plain-'));
    try {
      const none = new CoChangeModel({ root: empty.dir, store: { stateDir } });
      assert.equal((await none.update()).reason, 'no-commits');
      assert.deepEqual(none.repoState, { ok: false, reason: 'no-commits' });
      assert.deepEqual(none.history.recent('a.ts', 5), []);
      const notRepo = new CoChangeModel({ root: plain, store: { stateDir: join(plain, 'state') } });
      assert.equal((await notRepo.update()).reason, 'not-a-repo');
      assert.deepEqual(notRepo.history.revisions('a.ts', 5), []);
    } finally {
      empty.dispose();
      rmSync(plain, { recursive: true, force: true });
    }
  });
});

describe('the history index file', () => {
  const hash = (n: number) => n.toString(16).padStart(40, '0');
  const commit = (n: number, files: string[], extra: Partial<{ subject: string; author: string }> = {}) => ({
    hash: hash(n),
    parents: n > 1 ? [hash(n - 1)] : [],
    time: n * 86_400_000,
    author: extra.author ?? 'Ada',
    email: 'ada@example.com',
    subject: extra.subject ?? `commit ${n}`,
    files,
    added: files.map((_, i) => i + n),
    removed: files.map(() => n),
  });

  it('round-trips exactly, and a history grown in two steps equals one built at once', () => {
    const commits = [
      commit(1, ['a.ts', 'b.ts']),
      commit(2, ['b.ts'], { subject: 'ünïcødé — subject' }),
      commit(3, ['c d.ts', 'a.ts'], { author: 'Zoë' }),
      commit(4, []),
    ];
    const build = (parts: (typeof commits)[]) => {
      const h = new FileHistory(new PathTable());
      for (const part of parts) {
        const delta = new HistoryDelta(h.paths, true);
        for (const c of [...part].reverse()) delta.add(c);
        h.append(delta);
      }
      return h;
    };
    const once = build([commits]);
    const twice = build([commits.slice(0, 2), commits.slice(2)]);
    const answers = (h: FileHistory) =>
      ['a.ts', 'b.ts', 'c d.ts', 'none.ts'].map((p) => [h.recent(p, 10), h.revisions(p, 10)]);
    assert.deepEqual(answers(twice), answers(once));
    assert.deepEqual(
      once.recent('a.ts', 10).map((c) => [c.subject, c.author, c.added, c.removed]),
      [
        ['commit 3', 'Zoë', 4, 3],
        ['commit 1', 'Ada', 1, 1],
      ],
    );
    const decoded = decodeHistory(Buffer.concat(encodeHistory(once, hash(4), false)));
    if (typeof decoded === 'string') assert.fail(decoded);
    assert.deepEqual(answers(decoded.history), answers(once));
    assert.equal(decoded.head, hash(4));
    assert.notEqual(
      typeof decodeHistory(Buffer.concat(encodeHistory(new FileHistory(new PathTable()), '', true))),
      'string',
      'an empty history decodes',
    );
  });

  it('refuses a file whose numbers point outside its arrays, even with a valid checksum', () => {
    const h = new FileHistory(new PathTable());
    const delta = new HistoryDelta(h.paths, true);
    delta.add(commit(2, ['b.ts']));
    delta.add(commit(1, ['a.ts', 'b.ts']));
    h.append(delta);
    h.columns.entryCommit[0] = 7;
    assert.match(failureOf(decodeHistory(Buffer.concat(encodeHistory(h, hash(2), false)))), /names commit 7 of 2/);
    h.columns.entryCommit[0] = 0;
    h.columns.authorOf[1] = 3;
    assert.match(failureOf(decodeHistory(Buffer.concat(encodeHistory(h, hash(2), false)))), /names author 3 of 1/);
  });

  it('refuses commit ids that are not commit ids', () => {
    const delta = new HistoryDelta(new PathTable(), true);
    assert.throws(() => delta.add({ ...commit(1, ['a.ts']), hash: '--output=x' }), /not a commit id/);
  });
});

/** Why a file was refused, or a marker that it was read. */
function failureOf(decoded: string | object): string {
  return typeof decoded === 'string' ? decoded : '(decoded)';
}
