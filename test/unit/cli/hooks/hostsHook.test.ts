import { strict as assert } from 'node:assert';
import type { TempRepo } from '../../git/repoFixture';
import { disposeRepo, fixtureInput, fixtureOutput, governedRepo, runCli, runHookCli, sameShape } from './hookFixture';

/** A safety net only: nothing here depends on how fast an answer comes. */
const TIMEOUT = ['--timeout', '60000'];
const FENCED =
  /^<proactive-context-data [^\n]*trust="untrusted">\n[^\n]*not instructions[^\n]*\n[\s\S]*<\/proactive-context-data>$/;

describe('hook for VS Code, Copilot CLI, Cline and Kiro', () => {
  let repo: TempRepo;
  let session = 0;
  const args = (host: string, extra: string[] = []): string[] => [
    '--host',
    host,
    '--root',
    repo.dir,
    '--state-dir',
    repo.stateDir,
    ...TIMEOUT,
    ...extra,
  ];
  /** A documented input in a session of its own, so that the ledger of one case does not silence the next. */
  const input = (host: string, event: string, change: (i: Record<string, unknown>) => void = () => undefined): string =>
    fixtureInput(host, event, repo.dir, (i) => {
      const id = `s-${++session}`;
      if ('sessionId' in i) i.sessionId = id;
      if ('taskId' in i) i.taskId = id;
      change(i);
    });
  before(() => {
    repo = governedRepo();
    const sub = runCli([
      'subscribe',
      '--root',
      repo.dir,
      '--state-dir',
      repo.stateDir,
      '--kind',
      'file',
      '--target',
      'src/b.ts',
    ]);
    assert.equal(sub.code, 0, sub.stderr);
  });
  after(() => disposeRepo(repo));

  describe('vscode', () => {
    it('adds the governing decision to PreToolUse of editFiles on a governed file, once per session', () => {
      const text = input('vscode', 'PreToolUse');
      const r = runHookCli(args('vscode'), text);
      const out = JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } };
      assert.ok(sameShape(out, fixtureOutput('vscode', 'PreToolUse')), r.stdout);
      assert.match(out.hookSpecificOutput.additionalContext, FENCED);
      assert.match(out.hookSpecificOutput.additionalContext, /ADR 0001: Cap discounts at fifty percent \(accepted\)/);
      assert.equal(runHookCli(args('vscode'), text).stdout, '');
    });

    it('says nothing for an ungoverned file, and nothing on UserPromptSubmit (its output carries no context)', () => {
      assert.equal(
        runHookCli(
          args('vscode'),
          input('vscode', 'PreToolUse', (i) => (i.tool_input = { files: ['src/b.ts'] })),
        ).stdout,
        '',
      );
      const r = runHookCli(args('vscode'), input('vscode', 'UserPromptSubmit'));
      assert.equal(r.code, 0);
      assert.equal(r.stdout, '');
    });

    for (const event of ['SessionStart', 'SubagentStart']) {
      it(`gives the active subscriptions on ${event}`, () => {
        const r = runHookCli(args('vscode'), input('vscode', event));
        const out = JSON.parse(r.stdout) as {
          hookSpecificOutput: { hookEventName: string; additionalContext: string };
        };
        assert.ok(sameShape(out, fixtureOutput('vscode', event)), r.stdout);
        assert.equal(out.hookSpecificOutput.hookEventName, event);
        assert.match(out.hookSpecificOutput.additionalContext, /Subscribed file src\/b\.ts/);
      });
    }
  });

  describe('copilot-cli', () => {
    it('gives the active subscriptions on subagentStart as additionalContext', () => {
      const r = runHookCli(args('copilot-cli', ['--event', 'subagentStart']), input('copilot-cli', 'subagentStart'));
      const out = JSON.parse(r.stdout) as { additionalContext: string };
      assert.ok(sameShape(out, fixtureOutput('copilot-cli', 'subagentStart')), r.stdout);
      assert.match(out.additionalContext, FENCED);
      assert.match(out.additionalContext, /Subscribed file src\/b\.ts/);
    });

    it('keeps its own ledger: VS Code running the same session is still told', () => {
      const shared = (i: Record<string, unknown>): void => void (i.sessionId = 'shared-session');
      assert.match(
        runHookCli(args('copilot-cli', ['--event', 'subagentStart']), input('copilot-cli', 'subagentStart', shared))
          .stdout,
        /Subscribed file/,
      );
      assert.match(runHookCli(args('vscode'), input('vscode', 'SubagentStart', shared)).stdout, /Subscribed file/);
    });

    it('prints nothing on preToolUse, whose documented output has no context field', () => {
      const r = runHookCli(args('copilot-cli', ['--event', 'preToolUse']), input('copilot-cli', 'preToolUse'));
      assert.equal(r.code, 0);
      assert.equal(r.stdout, '');
    });
  });

  describe('cline', () => {
    it('modifies the context before write_to_file on a governed file, and answers the no-op for an ungoverned one', () => {
      const r = runHookCli(args('cline'), input('cline', 'PreToolUse'));
      const out = JSON.parse(r.stdout) as { cancel: boolean; contextModification: string };
      assert.ok(sameShape(out, fixtureOutput('cline', 'PreToolUse')), r.stdout);
      assert.equal(out.cancel, false);
      assert.match(out.contextModification, FENCED);
      assert.match(out.contextModification, /ADR 0001/);
      const none = runHookCli(
        args('cline'),
        input(
          'cline',
          'PreToolUse',
          (i) => (i.preToolUse = { toolName: 'write_to_file', parameters: { path: 'src/b.ts' } }),
        ),
      );
      assert.deepEqual(JSON.parse(none.stdout), fixtureOutput('cline', 'noop'));
    });

    it('tells what governs the files a prompt names, and the subscriptions at TaskStart', () => {
      const prompt = JSON.parse(runHookCli(args('cline'), input('cline', 'UserPromptSubmit')).stdout) as {
        contextModification: string;
      };
      assert.ok(sameShape(prompt, fixtureOutput('cline', 'UserPromptSubmit')));
      assert.match(prompt.contextModification, /ADR 0001/);
      const start = JSON.parse(runHookCli(args('cline'), input('cline', 'TaskStart')).stdout) as {
        contextModification: string;
      };
      assert.ok(sameShape(start, fixtureOutput('cline', 'TaskStart')));
      assert.match(start.contextModification, /Subscribed file src\/b\.ts/);
    });

    it('answers the no-op to input it cannot read', () => {
      const r = runHookCli(args('cline'), '{oops');
      assert.equal(r.code, 0);
      assert.deepEqual(JSON.parse(r.stdout), fixtureOutput('cline', 'noop'));
    });
  });

  describe('kiro', () => {
    it('prints fenced plain text for userPromptSubmit and agentSpawn, and nothing for preToolUse', () => {
      // Kiro sends no session id: each call here runs under a new state folder's ledger instead.
      const prompt = runHookCli(
        args('kiro', ['--state-dir', `${repo.stateDir}-kiro-1`]),
        input('kiro', 'userPromptSubmit'),
      );
      assert.equal(prompt.code, 0);
      assert.match(prompt.stdout.trim(), FENCED);
      assert.match(prompt.stdout, /ADR 0001/);
      const spawnState = `${repo.stateDir}-kiro-2`;
      assert.equal(
        runCli(['subscribe', '--root', repo.dir, '--state-dir', spawnState, '--kind', 'file', '--target', 'src/b.ts'])
          .code,
        0,
      );
      assert.match(
        runHookCli(args('kiro', ['--state-dir', spawnState]), input('kiro', 'agentSpawn')).stdout,
        /Subscribed file src\/b\.ts/,
      );
      assert.equal(
        runHookCli(args('kiro', ['--state-dir', `${repo.stateDir}-kiro-3`]), input('kiro', 'preToolUse')).stdout,
        '',
      );
    });
  });
});
