import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoChangeModel } from '../../../src/core/cochange/cochangeModel';
import { resolveConfig } from '../../../src/core/config';
import { GitService } from '../../../src/core/git/gitService';
import { HistorySources } from '../../../src/core/sources/git/historySources';
import { GitRunLog } from '../git/gitRuns';
import { TempRepo } from '../git/repoFixture';

const FILE = 'src/m.ts';

/**
 * Moving the cursor from one function to the next in the same file: the second function's line
 * history comes from the diffs read for the first, with no git process at all (each `spawn` holds
 * the extension host's thread while it forks). Counted by the runs of the real git, through a
 * wrapper on PATH that logs each call.
 */
describe('line history of the next function in the same file', function () {
  this.timeout(60000);
  let repo: TempRepo;
  let stateDir: string;
  let gitLog: GitRunLog;
  const gitRuns = (): string[] => gitLog.runs();

  let alpha = ['let x = 1;', 'return x;'];
  let beta = ['return 0;'];
  const fn = (name: string, body: string[]) => [`export function ${name}() {`, ...body.map((l) => `  ${l}`), '}'];
  const gamma = ['return "g";'];
  const text = () =>
    ['// header', '', ...fn('alpha', alpha), '', ...fn('beta', beta), '', ...fn('gamma', gamma), ''].join('\n');
  const rangeOf = (name: string) => {
    const lines = text().split('\n');
    const startLine = lines.findIndex((l) => l.includes(`function ${name}`)) + 1;
    return { name, startLine, endLine: lines.indexOf('}', startLine) + 1 };
  };

  before(() => {
    repo = new TempRepo(true, 'pc-line-runs-');
    // The file is created after the first commit: following alpha back to its start asks whether
    // that commit renamed it, once.
    repo.commit('start', { 'src/other.ts': '1\n' });
    repo.commit('add alpha and beta', { [FILE]: text() });
    alpha = ['let x = 2;', 'return x;'];
    repo.commit('alpha starts at two', { [FILE]: text() });
    // More commits than the first batch of diffs: alpha's lines are followed into older batches.
    for (let i = 1; i <= 30; i++) {
      beta = [`return ${i};`];
      repo.commit(`beta returns ${i}`, { [FILE]: text() });
    }
    stateDir = mkdtempSync(join(tmpdir(), 'pc-line-runs-state-'));
    gitLog = new GitRunLog();
  });

  after(() => {
    gitLog.dispose();
    repo.dispose();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('answers the second function of a file from the diffs read for the first, as git log -L does', async () => {
    const git = new GitService(repo.dir);
    const model = new CoChangeModel({ root: repo.dir, store: { stateDir }, git });
    await model.update();
    const sources = new HistorySources(
      repo.dir,
      git,
      model,
      { importsOf: () => [], importersOf: () => [] },
      () => [FILE, 'src/other.ts'],
      () => Date.now(),
    );
    await sources.refreshWorkingTree();
    const source = sources.lineHistorySource();
    const expected = async (name: string) => {
      const { startLine, endLine } = rangeOf(name);
      return (await git.lineHistory(FILE, startLine, endLine, { maxCount: 5 })).map((c) => c.subject);
    };
    const wantAlpha = await expected('alpha');
    const wantBeta = await expected('beta');
    const wantGamma = await expected('gamma');
    assert.deepEqual(wantGamma, ['add alpha and beta'], 'gamma never changed since the file was written');
    assert.deepEqual(wantAlpha, ['alpha starts at two', 'add alpha and beta'], 'alpha goes back to the start');
    const titles = async (name: string) =>
      (
        await source.collect({
          query: { currentFile: FILE },
          symbolRange: rangeOf(name),
          config: resolveConfig(),
          now: Date.now(),
          signal: new AbortController().signal,
          note: () => undefined,
        })
      ).map((i) => i.title);

    const beforeAlpha = gitRuns().length;
    assert.deepEqual(await titles('alpha'), wantAlpha);
    assert.ok(
      gitRuns()
        .slice(beforeAlpha)
        .some((l) => / diff-tree --stdin /.test(` ${l} `)),
      'the first function of the file reads its diffs',
    );

    const beforeBeta = gitRuns().length;
    assert.deepEqual(await titles('beta'), wantBeta);
    assert.deepEqual(gitRuns().slice(beforeBeta), [], 'no git process for the second function of the file');

    // Back to the commit that wrote the file: whether it renamed the file was asked for alpha.
    const beforeGamma = gitRuns().length;
    assert.deepEqual(await titles('gamma'), wantGamma);
    assert.deepEqual(gitRuns().slice(beforeGamma), [], 'no git process for the third function either');
  });
});
