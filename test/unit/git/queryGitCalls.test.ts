import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEngine, type EngineParts } from '../../../src/core/engine';
import { runGit, type GitResult, type GitRunner, type GitRunOptions } from '../../../src/core/git/gitExec';
import type { ContextSuggestion, ProactiveQuery } from '../../../src/core/types';
import { TempRepo } from './repoFixture';

const CALC = [
  '// calc',
  'export function total(xs: number[]): number {',
  '  let t = 0;',
  '  for (const x of xs) t += x;',
  '  return t;',
  '}',
  '',
  'export function mean(xs: number[]): number {',
  '  return total(xs) / xs.length;',
  '}',
  '',
].join('\n');

/** Every git call the engine makes through its runner, with a way to hold the ones that match. */
class RecordingRunner {
  readonly calls: { args: readonly string[]; options: GitRunOptions }[] = [];
  hold: ((args: readonly string[]) => boolean) | undefined;
  private onHeld: ((options: GitRunOptions) => void) | undefined;

  readonly run: GitRunner = (args, options) => {
    this.calls.push({ args, options });
    if (!this.hold?.(args)) return runGit(args, options);
    this.onHeld?.(options);
    // Held until the caller's signal ends it, as a git process killed by it would end.
    return new Promise<GitResult>((resolve) => {
      const stop = () => resolve({ ok: false, stdout: '', stderr: '', code: null, failure: 'aborted' });
      if (options.signal?.aborted) stop();
      else options.signal?.addEventListener('abort', stop, { once: true });
    });
  };

  /** Resolves with the options of the next held call. */
  nextHeld(): Promise<GitRunOptions> {
    return new Promise((resolve) => (this.onHeld = resolve));
  }

  count(pred: (args: readonly string[]) => boolean): number {
    return this.calls.filter((c) => pred(c.args)).length;
  }
}

const isDiff = (args: readonly string[]) => args.includes('diff');
const isFileStatus = (file: string) => (args: readonly string[]) => args.includes('status') && args.includes(file);
const isDiffTree = (args: readonly string[]) => args.includes('diff-tree');
const lineItems = (s: ContextSuggestion, name = 'total') =>
  s.items
    .filter((i) => i.type === 'change' && i.reason.split('; ').includes(`changed ${name}`))
    .map((i) => i.title)
    .sort();

describe('git calls on the query path', function () {
  this.timeout(60000);
  let repo: TempRepo;
  let stateDir: string;
  let runner: RecordingRunner;
  let engine: EngineParts;
  const suggest = (query: ProactiveQuery, options: { signal?: AbortSignal } = {}) =>
    engine.provider.suggest(query, options);
  /** The first answer, then the slow second pass that enriches it, as the panel asks them. */
  const enriched = async (query: ProactiveQuery, options: { signal?: AbortSignal } = {}) => {
    const first = await engine.provider.suggest(query, options);
    return (await engine.provider.enrich(first, options)) ?? first;
  };

  beforeEach(async () => {
    repo = new TempRepo();
    repo.commit('add calc', { 'src/calc.ts': CALC, 'src/other.ts': 'export const other = 1;\n' });
    repo.commit('loop with a guard', {
      'src/calc.ts': CALC.replace(
        '  for (const x of xs) t += x;',
        '  for (const x of xs) if (Number.isFinite(x)) t += x;',
      ),
    });
    repo.commit('mean of nothing is 0', {
      'src/calc.ts': CALC.replace(
        '  for (const x of xs) t += x;',
        '  for (const x of xs) if (Number.isFinite(x)) t += x;',
      ).replace('return total(xs) / xs.length;', 'return xs.length ? total(xs) / xs.length : 0;'),
    });
    // Files untouched for an hour: the whole-tree status taken after mining covers them.
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const f of ['src/calc.ts', 'src/other.ts']) utimesSync(join(repo.dir, f), hourAgo, hourAgo);
    stateDir = mkdtempSync(join(tmpdir(), 'pc-calls-'));
    runner = new RecordingRunner();
    engine = await openEngine({
      root: repo.dir,
      stateDir,
      gitRunner: runner.run,
      config: { minRelevanceScore: 0, recentChangeDays: 3650 },
    });
    await engine.indexer.refreshAll();
  });

  afterEach(() => {
    engine.dispose();
    repo.dispose();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('asks git nothing for a clean file, and for a saved one once per save, however often the cursor moves', async () => {
    const before = runner.calls.length;
    for (const line of [2, 3, 4, 9]) await suggest({ currentFile: 'src/calc.ts', cursorPosition: { line, column: 1 } });
    assert.equal(
      runner.calls.length,
      before,
      `no git call for a clean file: ${runner.calls
        .slice(before)
        .map((c) => c.args.join(' '))
        .join(' | ')}`,
    );

    writeFileSync(join(repo.dir, 'src/calc.ts'), CALC.replace('// calc', '// calc, edited'));
    engine.indexer.fileChanged('src/calc.ts');
    let s: ContextSuggestion | undefined;
    for (const line of [1, 2, 3, 4])
      s = await suggest({ currentFile: 'src/calc.ts', cursorPosition: { line, column: 1 } });
    assert.equal(runner.count(isDiff), 1, 'one diff for the save');
    // The same save told again (the index tells it after its quiet time): still one.
    engine.history.invalidate('src/calc.ts');
    for (const line of [2, 3]) s = await suggest({ currentFile: 'src/calc.ts', cursorPosition: { line, column: 1 } });
    assert.equal(runner.count(isDiff), 1, 'one diff for a save told twice');
    assert.equal(runner.count(isFileStatus('src/calc.ts')), 1);
    assert.ok(
      s?.items.some((i) => i.meta?.uncommitted && i.location.line === 1),
      'the edit is shown',
    );

    writeFileSync(join(repo.dir, 'src/calc.ts'), CALC.replace('// calc', '// calc, edited twice'));
    engine.indexer.fileChanged('src/calc.ts');
    for (const line of [1, 5]) await suggest({ currentFile: 'src/calc.ts', cursorPosition: { line, column: 1 } });
    assert.equal(runner.count(isDiff), 2, 'one more for the second save');

    // A save nobody reported is still seen: the file is newer than what git was last asked.
    writeFileSync(join(repo.dir, 'src/other.ts'), 'export const other = 2;\n');
    for (const line of [1, 1]) s = await suggest({ currentFile: 'src/other.ts', cursorPosition: { line, column: 1 } });
    assert.equal(runner.count(isDiff), 3);
    assert.ok(
      s?.items.some((i) => i.meta?.uncommitted),
      'the unreported edit is shown',
    );
  });

  it('answers recent commits without git, and leaves the lines’ history to the second pass', async () => {
    const before = runner.calls.length;
    runner.hold = isDiffTree;
    const first = await suggest({ currentFile: 'src/calc.ts', cursorPosition: { line: 4, column: 1 } });
    assert.equal(runner.calls.length, before, 'the first answer asked git nothing');
    assert.ok(
      first.items.some((i) => i.type === 'change' && i.location.commit && i.location.line === undefined),
      'recent commits are in the first answer',
    );
    assert.deepEqual(lineItems(first), []);

    runner.hold = undefined;
    const withLines = await enriched({ currentFile: 'src/calc.ts', cursorPosition: { line: 4, column: 1 } });
    assert.deepEqual(
      lineItems(withLines),
      ['add calc', 'loop with a guard'],
      'the commits that changed total(), not mean()',
    );
    assert.equal(runner.count(isDiffTree), 1, 'one git call for the lines, no walk of history');
  });

  it('stops the lines’ history when the query is cancelled, and asks again next time', async () => {
    runner.hold = isDiffTree;
    const held = runner.nextHeld();
    const ac = new AbortController();
    const pending = enriched(
      { currentFile: 'src/calc.ts', cursorPosition: { line: 4, column: 1 } },
      { signal: ac.signal },
    );
    const options = await held;
    assert.ok(options.signal, 'the git call carries the query’s signal');
    assert.ok(
      (options.timeoutMs ?? Infinity) <= 3000,
      `and a hard bound (${options.timeoutMs} ms) within the provider’s per-source limit`,
    );
    ac.abort();
    await assert.rejects(pending, /Cancelled/);
    assert.equal(options.signal.aborted, true, 'the git call was told to stop');

    runner.hold = undefined;
    const again = await enriched({ currentFile: 'src/calc.ts', cursorPosition: { line: 4, column: 1 } });
    assert.deepEqual(lineItems(again), ['add calc', 'loop with a guard'], 'a cancelled answer is not kept');
  });

  it('follows the lines through uncommitted edits above them', async () => {
    writeFileSync(
      join(repo.dir, 'src/calc.ts'),
      `// one\n// two\n// three\n${CALC.replace('  for (const x of xs) t += x;', '  for (const x of xs) if (Number.isFinite(x)) t += x;').replace('return total(xs) / xs.length;', 'return xs.length ? total(xs) / xs.length : 0;')}`,
    );
    const reindexed = new Promise<void>((resolve) =>
      engine.indexer.onDidChangeData((paths: string[]) => paths.includes('src/calc.ts') && resolve()),
    );
    engine.indexer.fileChanged('src/calc.ts');
    await reindexed;
    const s = await enriched({ currentFile: 'src/calc.ts', cursorPosition: { line: 12, column: 1 } });
    assert.equal(s.query.currentSymbol, 'mean');
    assert.deepEqual(
      lineItems(s, 'mean'),
      ['add calc', 'mean of nothing is 0'],
      'mean() three lines lower is still mean() in history',
    );
  });
});
