import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { TempRepo } from '../git/repoFixture';
import { openWatching, type Watching } from './watchHarness';

/** Writes the files in `dir` and commits them there with git itself, as a developer would. */
function commitIn(dir: string, message: string, files: Record<string, string>): void {
  for (const [p, c] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), c);
  }
  const git = (...args: string[]) =>
    execFileSync(
      'git',
      ['-c', 'user.name=Ada', '-c', 'user.email=ada@example.com', '-c', 'commit.gpgsign=false', ...args],
      { cwd: dir },
    );
  git('add', '--', ...Object.keys(files));
  git('commit', '-q', '-m', message);
}

describe('commit and topic watches where git keeps HEAD elsewhere', function () {
  this.timeout(60_000);
  const cleanup: (() => void)[] = [];
  afterEach(() => {
    for (const c of cleanup.splice(0).reverse()) c();
  });

  function setUp(): { repo: TempRepo; stateDir: string } {
    const repo = new TempRepo(true, 'pc-watch-commit-');
    repo.commit('Start', { 'README.md': '# app\n', 'app/src/engine.ts': 'export const v = 1;\n' });
    const stateDir = mkdtempSync(join(tmpdir(), 'pc-watch-commit-state-'));
    cleanup.push(() => {
      repo.dispose();
      rmSync(stateDir, { recursive: true, force: true });
    });
    return { repo, stateDir };
  }

  async function expectCommitFirings(w: Watching, commit: () => void, fileGlob: string): Promise<void> {
    const topic = w.store.add({
      patterns: [{ type: 'topic', pattern: 'flux capacitor' }],
      minRelevanceScore: 0,
      cooldownMs: 0,
    }).watch;
    const files = w.store.add({
      patterns: [{ type: 'file', pattern: fileGlob }],
      minRelevanceScore: 0,
      cooldownMs: 0,
    }).watch;
    const fired = Promise.all([
      w.nextFiring((f) => f.watchId === topic.id),
      w.nextFiring((f) => f.watchId === files.id),
    ]);
    commit();
    for (const f of await fired) {
      assert.equal(f.suggestion.trigger.type, 'commit');
      assert.match(f.suggestion.trigger.source, /Tune the flux capacitor/);
    }
  }

  it('fires in a linked work tree (git worktree add), whose HEAD and branch live outside it', async () => {
    const { repo, stateDir } = setUp();
    const tree = `${repo.dir}-linked`;
    repo.git('worktree', 'add', '-q', '-b', 'feature', tree);
    cleanup.push(() => rmSync(tree, { recursive: true, force: true }));
    const w = await openWatching(tree, stateDir);
    cleanup.push(() => w.dispose());
    await expectCommitFirings(
      w,
      () => commitIn(tree, 'Tune the flux capacitor', { 'app/src/engine.ts': 'export const v = 2;\n' }),
      'app/src/*.ts',
    );
  });

  it('fires in a submodule, whose git dir is inside the parent repository', async () => {
    const { repo, stateDir } = setUp();
    const lib = new TempRepo(true, 'pc-watch-commit-lib-');
    cleanup.push(() => lib.dispose());
    lib.commit('Start the library', { 'src/engine.ts': 'export const v = 1;\n' });
    repo.git('-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib.dir, 'vendor/lib');
    const root = join(repo.dir, 'vendor', 'lib');
    const w = await openWatching(root, stateDir);
    cleanup.push(() => w.dispose());
    await expectCommitFirings(
      w,
      () => commitIn(root, 'Tune the flux capacitor', { 'src/engine.ts': 'export const v = 2;\n' }),
      'src/*.ts',
    );
  });

  it('fires for a root that is a folder inside the repository, matching files relative to that root', async () => {
    const { repo, stateDir } = setUp();
    const root = join(repo.dir, 'app');
    const w = await openWatching(root, stateDir);
    cleanup.push(() => w.dispose());
    await expectCommitFirings(
      w,
      () => commitIn(repo.dir, 'Tune the flux capacitor', { 'app/src/engine.ts': 'export const v = 3;\n' }),
      'src/engine.ts',
    );
  });
});
