import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { MemoryLogger } from '../../../src/core/api/types';
import { gitDirectoriesOf, ignoredPathsOf } from '../../../src/core/git/workspaceGit';
import { WorkspaceWatcher, type WorkspaceWatcherOptions } from '../../../src/mcp/workspaceWatcher';
import { TempRepo } from '../git/repoFixture';
import { hostileRepo } from './hostileRepo';

/** A watcher on `repo` and the paths it reported, with a way to wait for one. */
function watcherOn(repo: TempRepo, options: WorkspaceWatcherOptions = {}) {
  const reported = new Map<string, boolean>();
  const waiters: (() => void)[] = [];
  const logger = new MemoryLogger();
  const watcher = new WorkspaceWatcher(
    repo.dir,
    (path, deleted) => {
      reported.set(path, deleted);
      for (const w of waiters.splice(0)) w();
    },
    logger,
    {
      gitDirectories: (signal) => gitDirectoriesOf(repo.dir, signal),
      ignoredPaths: (paths, signal) => ignoredPathsOf(repo.dir, paths, signal),
    },
    options,
  );
  const waitFor = async (path: string, timeoutMs = 15_000): Promise<boolean> => {
    const end = Date.now() + timeoutMs;
    while (!reported.has(path)) {
      if (Date.now() > end)
        throw new Error(`${path} was not reported; got ${[...reported.keys()].slice(0, 30).join(', ')}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
    return reported.get(path)!;
  };
  const watched = () =>
    watcher
      .watchedFolders()
      .map((abs) => relative(repo.dir, abs).split('\\').join('/') || '.')
      .sort();
  return { watcher, reported, waitFor, watched, logger };
}

describe('WorkspaceWatcher', function () {
  this.timeout(120_000);
  const repos: TempRepo[] = [];
  const disposers: (() => void)[] = [];
  const make = (...args: Parameters<typeof hostileRepo>) => {
    const r = hostileRepo(...args);
    repos.push(r);
    return r;
  };
  afterEach(() => {
    for (const d of disposers.splice(0)) d();
    for (const r of repos.splice(0)) r.dispose();
  });

  it('holds one watch per tracked folder: none in the object store, per tag, or in ignored trees', async () => {
    const repo = make({ packedTags: 100_000, looseTags: 3000, ignoredFolders: 1000 });
    const w = watcherOn(repo);
    disposers.push(() => w.watcher.dispose());
    await w.watcher.start();
    assert.deepEqual(w.watched(), [
      '.',
      '.git',
      '.git/refs',
      '.git/refs/heads',
      '.git/refs/tags',
      'docs',
      'docs/adr',
      'src',
      'src/auth',
      'src/util',
    ]);
    assert.equal(w.watcher.handleCount(), 10);
    assert.equal(w.watcher.polledCount(), 0);
  });

  it('reports edits, new folders with their files, new tags and a moved HEAD under the paths the engine expects', async () => {
    const repo = make({ packedTags: 10, looseTags: 10, ignoredFolders: 20 });
    const w = watcherOn(repo);
    disposers.push(() => w.watcher.dispose());
    await w.watcher.start();

    writeFileSync(join(repo.dir, 'src/auth/login.ts'), 'export const login = 2;\n');
    assert.equal(await w.waitFor('src/auth/login.ts'), false);
    // A whole new tree, written before the watcher can have seen its folders.
    mkdirSync(join(repo.dir, 'src/feature/deep'), { recursive: true });
    writeFileSync(join(repo.dir, 'src/feature/deep/new.ts'), 'export const n = 1;\n');
    assert.equal(await w.waitFor('src/feature/deep/new.ts'), false);
    await w.watcher.settled();
    assert.ok(w.watched().includes('src/feature/deep'), w.watched().join(' '));
    writeFileSync(join(repo.dir, 'src/feature/deep/later.ts'), 'export const l = 1;\n');
    await w.waitFor('src/feature/deep/later.ts');

    repo.git('tag', 'v1.0.0');
    await w.waitFor('.git/refs/tags/v1.0.0');
    repo.git('checkout', '-q', '-b', 'topic');
    await w.waitFor('.git/HEAD');

    // A newly ignored folder loses its watch once .gitignore says so.
    w.reported.delete('.gitignore');
    writeFileSync(join(repo.dir, '.gitignore'), 'build/\nnode_modules/\nsrc/feature/\n');
    await w.waitFor('.gitignore');
    await w.watcher.settled();
    assert.ok(!w.watched().some((d) => d.startsWith('src/feature')), w.watched().join(' '));

    assert.ok(
      ![...w.reported.keys()].some((p) => /^(build|node_modules)\/|^\.git\/(objects|logs|index)/.test(p)),
      [...w.reported.keys()].join(' '),
    );
  });

  it('outside a repository, skips node_modules and the folders the root .gitignore names', async () => {
    const repo = new TempRepo(false, 'pc-fswatch-plain-');
    repos.push(repo);
    repo.write('.gitignore', 'dist/\n');
    for (const f of ['src/a.ts', 'dist/x/a.js', 'node_modules/p/q/i.js', 'lib/b.ts']) repo.write(f, 'x\n');
    const w = watcherOn(repo);
    disposers.push(() => w.watcher.dispose());
    await w.watcher.start();
    assert.deepEqual(w.watched(), ['.', 'lib', 'src']);
  });

  it('polls the folders beyond the ceiling, says so in the log, and still reports their changes', async () => {
    const repo = make({ packedTags: 10, looseTags: 10, ignoredFolders: 5 });
    const w = watcherOn(repo, { maxHandles: 3, pollIntervalMs: 100 });
    disposers.push(() => w.watcher.dispose());
    await w.watcher.start();
    assert.equal(w.watcher.handleCount(), 3);
    // refs/heads, refs/tags, docs, docs/adr, src, src/auth, src/util
    assert.equal(w.watcher.polledCount(), 7);
    assert.ok(
      w.logger.lines.some(
        (l) =>
          l.level === 'warn' &&
          /limit of 3 folder watches \(--max-watches\) was reached; further folders are polled every 0\.1 s/.test(
            l.message,
          ),
      ),
      JSON.stringify(w.logger.lines),
    );

    writeFileSync(join(repo.dir, 'src/auth/polled.ts'), 'export const p = 1;\n');
    assert.equal(await w.waitFor('src/auth/polled.ts'), false);
    repo.git('tag', 'v2');
    await w.waitFor('.git/refs/tags/v2');
    assert.equal(w.watcher.handleCount(), 3);
  });

  it('lets the event loop run while it lists a large tree, and stops listing once disposed', async () => {
    const repo = make({ packedTags: 0, looseTags: 0, ignoredFolders: 0 });
    for (let i = 0; i < 1500; i++) mkdirSync(join(repo.dir, 'lib', `m${i}`), { recursive: true });
    const w = watcherOn(repo, { maxHandles: 100_000 });
    let turns = 0;
    const ticker = setInterval(() => turns++, 0);
    try {
      await w.watcher.start();
    } finally {
      clearInterval(ticker);
    }
    assert.ok(turns >= 2, `timers ran ${turns} times while the tree was listed`);
    assert.equal(w.watcher.handleCount(), 1500 + 7 + 4);

    const again = watcherOn(repo, { maxHandles: 100_000 });
    const started = again.watcher.start();
    again.watcher.dispose();
    await started;
    assert.equal(again.watcher.handleCount(), 0);
    w.watcher.dispose();
  });
});
