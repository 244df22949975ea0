import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoChangeModel } from '../../../src/core/cochange/cochangeModel';
import { resolveConfig } from '../../../src/core/config';
import { GitService } from '../../../src/core/git/gitService';
import { rangeBefore, touches } from '../../../src/core/git/lineRanges';
import { LineHistorySource } from '../../../src/core/sources/git/lineHistorySource';
import { TempRepo } from './repoFixture';

const hunk = (oldStart: number, oldLines: number, newStart: number, newLines: number) => ({
  oldStart,
  oldLines,
  newStart,
  newLines,
  kind: 'modified' as const,
});

describe('following lines back through a diff', () => {
  it('moves unchanged lines by what was added or removed above them', () => {
    assert.deepEqual(
      rangeBefore([hunk(2, 0, 2, 3)], { start: 10, end: 12 }),
      { start: 7, end: 9 },
      'three lines inserted above',
    );
    assert.deepEqual(
      rangeBefore([hunk(2, 2, 1, 0)], { start: 10, end: 12 }),
      { start: 12, end: 14 },
      'two lines deleted above',
    );
    assert.equal(touches([hunk(2, 0, 2, 3)], { start: 10, end: 12 }), false);
  });

  it('brings every line a touching change replaced, and says when all lines are new', () => {
    assert.deepEqual(rangeBefore([hunk(11, 1, 11, 4)], { start: 10, end: 12 }), { start: 10, end: 11 });
    assert.equal(touches([hunk(11, 1, 11, 4)], { start: 10, end: 12 }), true);
    assert.equal(rangeBefore([hunk(0, 0, 1, 20)], { start: 10, end: 12 }), undefined, 'written in this commit');
    assert.equal(rangeBefore([hunk(9, 0, 10, 3)], { start: 10, end: 12 }), undefined, 'inserted whole');
  });

  it('counts a deletion between two lines of the range, not one at its edge', () => {
    assert.equal(touches([hunk(12, 2, 11, 0)], { start: 10, end: 12 }), true, 'lines removed after line 11');
    assert.deepEqual(
      rangeBefore([hunk(12, 2, 11, 0)], { start: 10, end: 12 }),
      { start: 10, end: 14 },
      'lines 10-11, the two removed, then line 12 two further down',
    );
    assert.equal(touches([hunk(13, 2, 12, 0)], { start: 10, end: 12 }), false, 'removed after the last line');
    assert.equal(touches([hunk(10, 2, 9, 0)], { start: 10, end: 12 }), false, 'removed before the first line');
  });
});

describe('line history from the history index', function () {
  this.timeout(30000);

  it('finds for each definition the commits git log -L finds, across a rename', async () => {
    const repo = new TempRepo();
    const stateDir = mkdtempSync(join(tmpdir(), 'pc-lines-'));
    try {
      const fn = (name: string, body: string[]) => [`export function ${name}() {`, ...body.map((l) => `  ${l}`), '}'];
      let a = ['let x = 1;'];
      let b = ['return 2;'];
      let c: string[] | undefined;
      let header = ['// header'];
      const file = () =>
        [...header, '', ...fn('alpha', a), '', ...fn('beta', b), ...(c ? ['', ...fn('gamma', c)] : []), ''].join('\n');
      const step = (message: string, change: () => void) => {
        change();
        repo.commit(message, { 'src/m.ts': file(), 'src/other.ts': `${message}\n` });
      };
      step('add alpha and beta', () => undefined);
      step('grow alpha', () => (a = [...a, 'x += 1;', 'return x;']));
      step('longer header above both', () => (header = ['// header', '// more', '// and more']));
      step('beta returns three', () => (b = ['return 3;']));
      step('add gamma', () => (c = ['return 4;']));
      step('alpha loses a line', () => (a = ['let x = 1;', 'return x;']));
      step('touch only other.ts', () => undefined);
      repo.git('mv', 'src/m.ts', 'src/moved.ts');
      repo.git('commit', '-q', '-m', 'move m to moved');
      const moved = (message: string, change: () => void) => {
        change();
        repo.commit(message, { 'src/moved.ts': file() });
      };
      moved('beta and gamma together', () => ((b = ['const y = 3;', 'return y;']), (c = ['return 5;'])));
      const git = new GitService(repo.dir);
      const model = new CoChangeModel({ root: repo.dir, store: { stateDir }, git });
      await model.update();
      const source = new LineHistorySource(
        git,
        model,
        (f) => git.uncommittedHunks(f),
        () => git.ignoredRevisions(),
      );
      const lines = file().split('\n');
      for (const name of ['alpha', 'beta', 'gamma']) {
        const start = lines.findIndex((l) => l.includes(`function ${name}`)) + 1;
        const end = lines.indexOf('}', start) + 1;
        const items = await source.collect({
          query: { currentFile: 'src/moved.ts' },
          symbolRange: { name, startLine: start, endLine: end },
          config: resolveConfig(),
          now: Date.now(),
          signal: new AbortController().signal,
          note: () => undefined,
        });
        const expected = (await git.lineHistory('src/moved.ts', start, end, { maxCount: 5 })).map((c) => c.subject);
        assert.deepEqual(
          items.map((i) => i.title),
          expected,
          name,
        );
        assert.ok(expected.length >= 2, `${name}: ${expected.join(', ')}`);
        if (name === 'alpha') assert.ok(expected.includes('grow alpha'), 'alpha changed before the file moved');
      }
    } finally {
      repo.dispose();
      rmSync(stateDir, { recursive: true, force: true });
    }
  });

  it('looks past whitespace-only changes and the commits listed to be ignored, as git blame -w --ignore-revs-file does', async () => {
    const repo = new TempRepo();
    const stateDir = mkdtempSync(join(tmpdir(), 'pc-lines-'));
    try {
      const alpha = (indent: string, name: string, extra: string[] = []) =>
        [
          '// header',
          `export function alpha() {`,
          `${indent}let ${name} = 1;`,
          ...extra.map((l) => `${indent}${l}`),
          `${indent}return ${name};`,
          '}',
          '',
        ].join('\n');
      repo.commit('add alpha', { 'src/a.ts': alpha('  ', 'x') });
      repo.commit('grow alpha', { 'src/a.ts': alpha('  ', 'x', ['x += 1;']) });
      repo.commit('reindent with four spaces', { 'src/a.ts': alpha('    ', 'x', ['x += 1;']) });
      repo.commit('line endings', { 'src/a.ts': alpha('    ', 'x', ['x += 1;']).replace(/\n/g, '\r\n') });
      const rename = repo.commit('rename x to total everywhere', {
        'src/a.ts': `// one more header line\r\n${alpha('    ', 'total', ['total += 1;']).replace(/\n/g, '\r\n')}`,
      });
      repo.commit('skip the rename in blame', {
        '.git-blame-ignore-revs': `# mass renames\n${rename}\n`,
        'src/other.ts': '1\n',
      });
      const git = new GitService(repo.dir);
      const model = new CoChangeModel({ root: repo.dir, store: { stateDir }, git });
      await model.update();
      const source = new LineHistorySource(
        git,
        model,
        (f) => git.uncommittedHunks(f),
        () => git.ignoredRevisions(),
      );
      const collect = async () => {
        source.invalidate();
        const items = await source.collect({
          query: { currentFile: 'src/a.ts' },
          symbolRange: { name: 'alpha', startLine: 3, endLine: 7 },
          config: resolveConfig(),
          now: Date.now(),
          signal: new AbortController().signal,
          note: () => undefined,
        });
        return items.map((i) => i.title);
      };
      assert.deepEqual(
        await collect(),
        ['grow alpha', 'add alpha'],
        'the reindent, the line endings and the listed rename change no line',
      );
      // git agrees on the newest: blame with whitespace ignored and the same list.
      const blamed = repo.git(
        'blame',
        '-w',
        '--ignore-revs-file',
        '.git-blame-ignore-revs',
        '--porcelain',
        '-L',
        '3,7',
        'HEAD',
        '--',
        'src/a.ts',
      );
      const subjects = new Set([...blamed.matchAll(/^summary (.*)$/gm)].map((m) => m[1]));
      assert.deepEqual([...subjects].sort(), ['add alpha', 'grow alpha']);
      const fromLog = (await git.lineHistory('src/a.ts', 3, 7)).map((c) => c.subject);
      assert.ok(
        fromLog.includes('grow alpha') && !fromLog.includes('rename x to total everywhere'),
        `git log -L leaves the listed commit out too: ${fromLog.join(', ')}`,
      );

      // blame.ignoreRevsFile replaces the conventional file; an empty value lists nothing.
      repo.commit('another list', { 'ignored.txt': '# nothing here\n' });
      repo.git('config', 'blame.ignoreRevsFile', 'ignored.txt');
      assert.deepEqual(await collect(), ['rename x to total everywhere', 'grow alpha', 'add alpha']);
      repo.git('config', 'blame.ignoreRevsFile', '../outside.txt');
      assert.deepEqual((await git.ignoredRevisions()).size, 0, 'nothing is read from outside the repository');
    } finally {
      repo.dispose();
      rmSync(stateDir, { recursive: true, force: true });
    }
  });
});
