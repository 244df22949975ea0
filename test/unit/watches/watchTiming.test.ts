import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContextService } from '../../../src/core/api/contextService';
import type { FiredWatch } from '../../../src/core/watches/watchService';
import { TempRepo } from '../git/repoFixture';

describe('a watch and the events before it', function () {
  this.timeout(30_000);
  const cleanup: (() => void)[] = [];
  afterEach(() => {
    for (const c of cleanup.splice(0).reverse()) c();
  });

  it('is not fired by what happened before it was made, even when that is read after', async () => {
    const repo = new TempRepo(true, 'pc-watch-timing-');
    repo.commit('Add two files', { 'src/a.ts': 'export const a = 1;\n', 'src/b.ts': 'export const b = 2;\n' });
    const stateDir = mkdtempSync(join(tmpdir(), 'pc-watch-timing-state-'));
    cleanup.push(() => {
      repo.dispose();
      rmSync(stateDir, { recursive: true, force: true });
    });
    // The agent's clock moves on between its two watches; the editor's events happen in between.
    let agentNow = 1_000_000;
    const agent = await ContextService.open({ root: repo.dir, stateDir, clock: () => agentNow });
    const editor = await ContextService.open({ root: repo.dir, stateDir, clock: () => 2_000_000 });
    cleanup.push(
      () => agent.dispose(),
      () => editor.dispose(),
    );
    agent.watches.start();
    const sentinel = agent.watches.add({
      patterns: [{ type: 'file', pattern: 'src/b.ts' }],
      cooldownMs: 0,
      minRelevanceScore: 0,
    }).watch;
    agentNow = 3_000_000;
    const late = agent.watches.add({
      patterns: [{ type: 'file', pattern: 'src/a.ts' }],
      cooldownMs: 0,
      minRelevanceScore: 0,
    }).watch;

    const fired: FiredWatch[] = [];
    const sentinelFired = new Promise<void>((resolve) =>
      agent.watches.onDidFire((f) => {
        fired.push(f);
        if (f.watchId === sentinel.id) resolve();
      }),
    );
    // Both events are older than the late watch; the log delivers them in order.
    editor.workspace.activity({ file: 'src/a.ts', line: 1 });
    editor.workspace.activity({ file: 'src/b.ts', line: 1 });
    await sentinelFired;
    assert.deepEqual(
      fired.map((f) => f.watchId),
      [sentinel.id],
      'the watch made after the editor was on src/a.ts did not fire for it',
    );
    assert.equal(agent.watches.latestFiring(late.id), undefined);
  });
});
