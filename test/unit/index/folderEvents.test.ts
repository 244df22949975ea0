import { strict as assert } from 'node:assert';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { openEngine } from '../../../src/core/engine';
import { TempRepo } from '../git/repoFixture';

describe('code index and folder events', function () {
  this.timeout(60000);
  let repo: TempRepo | undefined;

  afterEach(() => repo?.dispose());

  it('indexes the files of a new folder (not of an ignored one), and forgets those of a removed one, when the watcher reports only the folder', async () => {
    repo = new TempRepo();
    repo.commit('start', { 'src/index.ts': 'export {};\n', '.gitignore': 'dist/\n' });
    const engine = await openEngine({ root: repo.dir, stateDir: repo.stateDir });
    try {
      await engine.indexer.refreshAll();
      // A checkout or a generator makes a folder with files in it; the watcher may say only `rbapp`.
      repo.write('rbapp/app/models/ledger.rb', 'class Ledger\n  def self.open_books(year)\n    new\n  end\nend\n');
      repo.write('rbapp/app/services/settle.rb', 'class Settle\n  def call\n    Ledger.open_books(2026)\n  end\nend\n');
      let changed = new Promise<string[]>((resolve) => engine.indexer.onDidChangeData(resolve));
      engine.indexer.fileChanged('rbapp');
      assert.deepEqual(await changed, ['rbapp']);
      assert.equal(engine.index.symbolAt('rbapp/app/models/ledger.rb', 3)?.name, 'open_books');
      assert.deepEqual(
        engine.index
          .callers({ name: 'open_books', path: 'rbapp/app/models/ledger.rb' })
          .map((c) => `${c.path}:${c.line}`),
        ['rbapp/app/services/settle.rb:3'],
      );

      // A build's output folder is ignored: nothing in it is indexed.
      repo.write('dist/bundle.js', 'export function bundled() {\n  return 1;\n}\n');
      changed = new Promise<string[]>((resolve) => engine.indexer.onDidChangeData(resolve));
      engine.indexer.fileChanged('dist');
      await changed;
      assert.equal(engine.index.symbolAt('dist/bundle.js', 2), undefined);

      rmSync(join(repo.dir, 'rbapp'), { recursive: true, force: true });
      changed = new Promise<string[]>((resolve) => engine.indexer.onDidChangeData(resolve));
      engine.indexer.fileChanged('rbapp', true);
      assert.deepEqual(await changed, ['rbapp']);
      assert.equal(engine.index.symbolAt('rbapp/app/models/ledger.rb', 3), undefined);
      assert.deepEqual(engine.index.callers({ name: 'open_books' }), []);
    } finally {
      engine.dispose();
    }
  });
});
