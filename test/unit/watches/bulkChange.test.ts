import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TempRepo } from '../git/repoFixture';
import { openWatching, type Watching } from './watchHarness';

describe('watches and a bulk change', function () {
  this.timeout(60_000);
  let repo: TempRepo;
  let stateDir: string;
  let w: Watching | undefined;

  beforeEach(() => {
    repo = new TempRepo(true, 'pc-watch-bulk-');
    repo.commit('Start', { 'README.md': '# app\n' });
    stateDir = mkdtempSync(join(tmpdir(), 'pc-watch-bulk-state-'));
  });
  afterEach(() => {
    w?.dispose();
    w = undefined;
    repo.dispose();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('fires each matching watch once for 5,000 changed files, deciding its cooldown before building anything', async () => {
    // A checkout's worth of files on disk, told one by one as a directory watcher tells them.
    const paths = Array.from({ length: 5000 }, (_, i) => `src/module-${i % 50}/component-${i}.ts`);
    for (let m = 0; m < 50; m++) mkdirSync(join(repo.dir, `src/module-${m}`), { recursive: true });
    for (const p of paths) writeFileSync(join(repo.dir, p), `export const c = ${p.length};\n`);
    w = await openWatching(repo.dir, stateDir, () => 1_000_000);
    const everything = w.store.add({ patterns: [{ type: 'file', pattern: '**' }], minRelevanceScore: 0 }).watch;
    const sources = w.store.add({
      patterns: [{ type: 'file', pattern: 'src/**/*.ts' }],
      minRelevanceScore: 0,
      cooldownMs: 0,
    }).watch;
    const sentinel = w.store.add({
      patterns: [{ type: 'file', pattern: 'zz/**' }],
      minRelevanceScore: 0,
      cooldownMs: 0,
    }).watch;

    const bulkFired = Promise.all([
      w.nextFiring((f) => f.watchId === everything.id),
      w.nextFiring((f) => f.watchId === sources.id),
    ]);
    for (const p of paths) w.service.fileChanged(p);
    const [first] = await bulkFired;
    assert.match(first.suggestion.trigger.source, /^5000 files changed: src\/module-0\/component-0\.ts/);

    // Events are handled in order: once the editor's later move has fired, every part of the change was handled.
    const sentinelFired = w.nextFiring((f) => f.watchId === sentinel.id);
    w.service.activity({ path: 'zz/done.ts' });
    await sentinelFired;

    assert.deepEqual(
      w.firings.map((f) => f.watchId),
      [everything.id, sources.id, sentinel.id],
      'one firing per watch for the whole change; the ** watch stays quiet for the later move',
    );
    assert.deepEqual(
      w.suggestCalls,
      ['src/module-0/component-0.ts', 'src/module-0/component-0.ts', 'zz/done.ts'],
      'context was asked for once per firing, never for a quiet watch',
    );
  });
});
