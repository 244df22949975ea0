import { strict as assert } from 'node:assert';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { TempRepo } from '../../git/repoFixture';
import {
  disposeRepo,
  fixtureInput,
  fixtureOutput,
  governedRepo,
  runCli,
  runHookCli,
  sameShape,
  startHttpServer,
} from './hookFixture';

/** A safety net only: nothing here depends on how fast an answer comes. */
const TIMEOUT = ['--timeout', '60000'];

interface ClaudeOutput {
  hookSpecificOutput: { hookEventName: string; additionalContext: string };
}

describe('hook --host claude-code', () => {
  let repo: TempRepo;
  const args = (): string[] => ['--host', 'claude-code', '--root', repo.dir, '--state-dir', repo.stateDir, ...TIMEOUT];
  before(() => {
    repo = governedRepo();
  });
  after(() => disposeRepo(repo));

  it('tells the governing decision before an edit of a governed file, fenced, in the documented shape', () => {
    const r = runHookCli(
      args(),
      fixtureInput('claude-code', 'PreToolUse', repo.dir, (i) => (i.session_id = 'edit-1')),
    );
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as ClaudeOutput;
    assert.ok(sameShape(out, fixtureOutput('claude-code', 'PreToolUse')), r.stdout);
    const text = out.hookSpecificOutput.additionalContext;
    assert.match(text, /ADR 0001: Cap discounts at fifty percent \(accepted\)/);
    assert.match(text, /never compute a price below half/);
    assert.match(text, /docs\/adr\/0001-cap-discounts\.md/);
    assert.match(text, /^<proactive-context-data [^\n]*trust="untrusted">\n[^\n]*not instructions[^\n]*\n/);
    assert.match(text, /<\/proactive-context-data>$/);
    assert.ok(text.length <= 1500);
  });

  it('says an item once per session, and again in another session', () => {
    const input = (session: string): string =>
      fixtureInput('claude-code', 'PreToolUse', repo.dir, (i) => (i.session_id = session));
    assert.notEqual(runHookCli(args(), input('once-1')).stdout, '');
    const again = runHookCli(args(), input('once-1'));
    assert.equal(again.code, 0);
    assert.equal(again.stdout, '');
    assert.match(runHookCli(args(), input('once-2')).stdout, /ADR 0001/);
  });

  it('says a decision again in the same session once its record changed', () => {
    const state = `${repo.stateDir}-changed`;
    const base = ['--host', 'claude-code', '--root', repo.dir, '--state-dir', state, ...TIMEOUT];
    const input = fixtureInput('claude-code', 'PreToolUse', repo.dir, (i) => (i.session_id = 'changed'));
    const adr = join(repo.dir, 'docs/adr/0001-cap-discounts.md');
    const before = readFileSync(adr, 'utf8');
    try {
      assert.match(runHookCli(base, input).stdout, /never compute a price below half/);
      assert.equal(runHookCli(base, input).stdout, '');
      writeFileSync(
        adr,
        before.replace('never compute a price below half', 'never compute a price below forty percent'),
      );
      assert.match(runHookCli(base, input).stdout, /below forty percent/);
    } finally {
      writeFileSync(adr, before);
    }
  });

  it('says nothing for a file no decision governs, for a path outside the workspace, and for other tools', () => {
    const cases: ((i: Record<string, unknown>) => void)[] = [
      (i) => (i.tool_input = { file_path: join(repo.dir, 'src/b.ts') }),
      (i) => (i.tool_input = { file_path: '/etc/passwd' }),
      (i) => (i.tool_input = { file_path: '../outside/src/a.ts' }),
      (i) => ((i.tool_name = 'Bash'), (i.tool_input = { command: 'cat src/a.ts' })),
    ];
    for (const [n, change] of cases.entries()) {
      const r = runHookCli(
        args(),
        fixtureInput('claude-code', 'PreToolUse', repo.dir, (i) => ((i.session_id = `none-${n}`), change(i))),
      );
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, '', `case ${n}: ${r.stdout}`);
    }
  });

  it('accepts a path relative to the root and keeps to --max-chars', () => {
    const r = runHookCli(
      [...args(), '--max-chars', '320'],
      fixtureInput(
        'claude-code',
        'PreToolUse',
        repo.dir,
        (i) => ((i.session_id = 'short'), (i.tool_input = { file_path: 'src/a.ts' })),
      ),
    );
    const text = (JSON.parse(r.stdout) as ClaudeOutput).hookSpecificOutput.additionalContext;
    assert.ok(text.length <= 320, `${text.length} characters`);
    assert.match(text, /ADR 0001/);
    assert.match(text, /<\/proactive-context-data>$/);
  });

  it('takes the workspace from CLAUDE_PROJECT_DIR when the hook runs in a subfolder', () => {
    const input = fixtureInput(
      'claude-code',
      'PreToolUse',
      repo.dir,
      (i) => ((i.session_id = 'project-dir'), (i.cwd = join(repo.dir, 'src'))),
    );
    const r = runHookCli(['--host', 'claude-code', '--state-dir', repo.stateDir, ...TIMEOUT], input, {
      CLAUDE_PROJECT_DIR: repo.dir,
    });
    assert.match(r.stdout, /ADR 0001/);
  });

  it('tells what governs the files a prompt names', () => {
    const r = runHookCli(
      args(),
      fixtureInput('claude-code', 'UserPromptSubmit', repo.dir, (i) => (i.session_id = 'prompt-1')),
    );
    const out = JSON.parse(r.stdout) as ClaudeOutput;
    assert.ok(sameShape(out, fixtureOutput('claude-code', 'UserPromptSubmit')), r.stdout);
    assert.match(out.hookSpecificOutput.additionalContext, /ADR 0001/);
    const none = runHookCli(
      args(),
      fixtureInput(
        'claude-code',
        'UserPromptSubmit',
        repo.dir,
        (i) => ((i.session_id = 'prompt-2'), (i.prompt = 'Tidy src/b.ts and src/missing.ts')),
      ),
    );
    assert.equal(none.stdout, '');
  });

  it('gives the active subscriptions at session start, and nothing when there are none', function () {
    // Three processes in a row: a safety net for a busy machine, not a measure.
    this.timeout(180000);
    const state = `${repo.stateDir}-start`;
    const start = (session: string): string =>
      fixtureInput('claude-code', 'SessionStart', repo.dir, (i) => (i.session_id = session));
    const base = ['--host', 'claude-code', '--root', repo.dir, '--state-dir', state, ...TIMEOUT];
    assert.equal(runHookCli(base, start('start-0')).stdout, '');
    const sub = runCli([
      'subscribe',
      '--root',
      repo.dir,
      '--state-dir',
      state,
      '--kind',
      'file',
      '--target',
      'src/b.ts',
    ]);
    assert.equal(sub.code, 0, sub.stderr);
    const out = JSON.parse(runHookCli(base, start('start-1')).stdout) as ClaudeOutput;
    assert.ok(sameShape(out, fixtureOutput('claude-code', 'SessionStart')));
    assert.match(out.hookSpecificOutput.additionalContext, /Subscribed file src\/b\.ts:\nexport const b = 1;/);
  });

  it('exits 0 with no output on input it cannot read, and logs why', () => {
    for (const input of ['', 'not json', '[1,2]']) {
      const r = runHookCli(args(), input);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, '');
    }
    const r = runHookCli(
      ['--host', 'claude-code', '--root', join(repo.dir, 'missing'), '--state-dir', repo.stateDir],
      fixtureInput('claude-code', 'PreToolUse', repo.dir),
    );
    assert.equal(r.code, 0);
    assert.equal(r.stdout, '');
  });

  it('exits 0 for an unknown host without blocking the agent', () => {
    const r = runHookCli(
      ['--host', 'continue', '--root', repo.dir],
      fixtureInput('claude-code', 'PreToolUse', repo.dir),
    );
    assert.equal(r.code, 0);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /continue is not supported/);
  });

  it('answers from a running mcp --http server, and by itself once that server is killed', async function () {
    this.timeout(180000);
    const state = `${repo.stateDir}-server`;
    const server = await startHttpServer(repo.dir, state);
    const base = (): string[] => [
      '--host',
      'claude-code',
      '--root',
      repo.dir,
      '--state-dir',
      state,
      '--port',
      String(server.port),
      ...TIMEOUT,
    ];
    try {
      const r = runHookCli(
        base(),
        fixtureInput('claude-code', 'PreToolUse', repo.dir, (i) => (i.session_id = 'srv-1')),
      );
      assert.match((JSON.parse(r.stdout) as ClaudeOutput).hookSpecificOutput.additionalContext, /ADR 0001/);
      assert.match(lastLogLine(state), /via server/);
    } finally {
      await server.stop();
    }
    const r = runHookCli(
      base(),
      fixtureInput('claude-code', 'PreToolUse', repo.dir, (i) => (i.session_id = 'srv-2')),
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match((JSON.parse(r.stdout) as ClaudeOutput).hookSpecificOutput.additionalContext, /ADR 0001/);
    assert.match(lastLogLine(state), /via in-process/);
  });

  it('exits 0 with no output when a server takes the connection and never answers', async () => {
    const state = `${repo.stateDir}-hung`;
    mkdirSync(state, { recursive: true });
    writeFileSync(join(state, 'mcp-token'), 'y'.repeat(43) + '\n', { mode: 0o600 });
    // The kernel accepts connections for a listening socket; no request ever gets an answer.
    const hung = createServer(() => undefined);
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    try {
      const port = String((hung.address() as AddressInfo).port);
      const r = runHookCli(
        ['--host', 'claude-code', '--root', repo.dir, '--state-dir', state, '--port', port, '--timeout', '1500'],
        fixtureInput('claude-code', 'PreToolUse', repo.dir),
      );
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, '');
      assert.match(lastLogLine(state), /no answer within 1500 ms/);
    } finally {
      hung.close();
    }
  });

  it('answers by itself when the token file names no live server', () => {
    const state = `${repo.stateDir}-stale`;
    mkdirSync(state, { recursive: true });
    writeFileSync(join(state, 'mcp-token'), 'x'.repeat(43) + '\n', { mode: 0o600 });
    // Port 9 (discard) has no MCP server on loopback: the connection is refused at once.
    const r = runHookCli(
      ['--host', 'claude-code', '--root', repo.dir, '--state-dir', state, '--port', '9', ...TIMEOUT],
      fixtureInput('claude-code', 'PreToolUse', repo.dir, (i) => (i.session_id = 'stale')),
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /ADR 0001/);
  });
});

function lastLogLine(stateDir: string): string {
  return readFileSync(join(stateDir, 'hook.log'), 'utf8').trim().split('\n').pop() ?? '';
}
