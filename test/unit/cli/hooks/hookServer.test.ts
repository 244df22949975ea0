import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveHooks } from '../../../../src/cli/hooks/hookServer';
import { ContextService } from '../../../../src/core/api/contextService';
import { nullLogger } from '../../../../src/core/api/types';
import type { TempRepo } from '../../git/repoFixture';
import { disposeRepo, fixtureInput, governedRepo, LAUNCHER, type HookRun } from './hookFixture';

/** The launcher in a real process, not blocking this one (whose engine answers it); resolves once it exited. */
function launch(args: string[], input: string): Promise<HookRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [LAUNCHER, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

/** The hook endpoint of an engine that serves no MCP (the editor's), found by hooks through the state directory. */
describe('hook endpoint of a long-lived engine', () => {
  let repo: TempRepo;
  let service: ContextService;
  const state = (): string => `${repo.stateDir}-engine`;
  const args = (): string[] => [
    '--host',
    'claude-code',
    '--root',
    repo.dir,
    '--state-dir',
    state(),
    '--timeout',
    '60000',
  ];
  const input = (session: string): string =>
    fixtureInput('claude-code', 'PreToolUse', repo.dir, (i) => (i.session_id = session));

  before(async () => {
    repo = governedRepo();
    service = await ContextService.open({ root: repo.dir, stateDir: state(), logger: nullLogger });
  });
  after(() => {
    service.dispose();
    disposeRepo(repo);
  });

  it('answers the launcher from the open engine, and stops being found once closed', async function () {
    this.timeout(180000);
    const stop = await serveHooks(service, nullLogger);
    try {
      const r = await launch(args(), input('engine-1'));
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /ADR 0001: Cap discounts at fifty percent/);
      assert.match(lastLogLine(state()), /via server/);
    } finally {
      await stop();
    }
    assert.ok(!existsSync(join(state(), 'hook-endpoint.json')), 'no longer published');
    const r = await launch(args(), input('engine-2'));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /ADR 0001/);
    assert.match(lastLogLine(state()), /via in-process/);
  });
});

function lastLogLine(stateDir: string): string {
  return readFileSync(join(stateDir, 'hook.log'), 'utf8').trim().split('\n').pop() ?? '';
}
