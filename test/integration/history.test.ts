// Commits made outside the editor (a terminal, another tool) reach "usually changes with" without a
// reload: the extension hears HEAD move and mines the new commits.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { workspaceRoot } from './chatSupport';
import { closeAllEditors, openAt, testApi, waitForPanel } from './support';

const ALPHA = 'src/history-probe/alpha.ts';
const BETA = 'src/history-probe/beta.ts';
/** The panel names a file first and its folder after it. */
const isBeta = (i: { title: string; folder?: string }) =>
  i.title === path.posix.basename(BETA) && i.folder === path.posix.dirname(BETA);

function git(...args: string[]): void {
  execFileSync(
    'git',
    ['-c', 'user.name=Probe', '-c', 'user.email=probe@example.com', '-c', 'commit.gpgsign=false', ...args],
    { cwd: workspaceRoot(), stdio: 'ignore' },
  );
}

function write(rel: string, text: string): void {
  const abs = path.join(workspaceRoot(), ...rel.split('/'));
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, text);
}

suite('git history while the editor is open', () => {
  suiteTeardown(async () => {
    await closeAllEditors();
  });

  test('two commits made outside the editor show alpha.ts and beta.ts as changing together', async () => {
    const api = await testApi();
    // History is mined by now: pricing.ts shows what changed with it in the demo's commits.
    await openAt('src/pricing.ts', 1);
    await waitForPanel(
      api,
      (s) =>
        s.file === 'src/pricing.ts' && s.items.some((i) => i.type === 'cochange' && /changed together/.test(i.reason)),
      30_000,
      'co-change for pricing.ts',
    );
    for (const round of [1, 2]) {
      write(ALPHA, `export const alpha = ${round};\n`);
      write(BETA, `export const beta = ${round};\n`);
      git('add', '--', ALPHA, BETA);
      git('commit', '-q', '-m', `Change alpha and beta together (${round})`);
    }
    await openAt(ALPHA, 1);
    const state = await waitForPanel(
      api,
      (s) =>
        s.file === ALPHA &&
        s.items.some((i) => i.type === 'cochange' && isBeta(i) && /changed together in 2 of 2 commits/.test(i.reason)),
      30_000,
      'beta.ts as changing together with alpha.ts',
    );
    const item = state.items.find((i) => i.type === 'cochange' && isBeta(i));
    assert.ok(item, 'the co-change item is in the panel');
  });
});
