import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { installHooks, uninstallHooks, type InstallOptions } from '../../../../src/cli/hooks/hookInstall';
import { runCli } from './hookFixture';

const EXISTING = {
  model: 'sonnet',
  hooks: {
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './scripts/check.sh' }] }],
    Stop: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }],
  },
};

describe('hook install and uninstall', () => {
  let root: string;
  let home: string;
  const opts = (host: string, scope: 'project' | 'user' = 'project'): InstallOptions => ({
    host,
    scope,
    root,
    home,
    command: 'proactive-context',
  });
  const write = (file: string, text: string): void => {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  };
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'pc-hook-install-'));
    home = mkdtempSync(join(tmpdir(), 'pc-hook-home-'));
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });

  it('adds our Claude Code entries beside the existing ones, once, and removes only ours', () => {
    const file = join(root, '.claude', 'settings.json');
    write(file, JSON.stringify(EXISTING, null, 2));
    const first = installHooks(opts('claude-code'));
    assert.equal(first.changed, true);
    assert.deepEqual(first.events, ['PreToolUse', 'UserPromptSubmit', 'SessionStart']);
    assert.match(
      first.lines[0],
      /Added claude-code hooks for PreToolUse, UserPromptSubmit, SessionStart to .*settings\.json \(other entries kept\)/,
    );
    const after = JSON.parse(readFileSync(file, 'utf8')) as {
      model: string;
      hooks: Record<string, { matcher?: string; hooks: { command: string }[] }[]>;
    };
    assert.equal(after.model, 'sonnet');
    assert.deepEqual(after.hooks.Stop, EXISTING.hooks.Stop);
    assert.deepEqual(after.hooks.PreToolUse[0], EXISTING.hooks.PreToolUse[0]);
    assert.equal(after.hooks.PreToolUse[1].matcher, 'Edit|Write|MultiEdit|NotebookEdit');
    assert.equal(after.hooks.PreToolUse[1].hooks[0].command, 'proactive-context-hook --host claude-code');
    const text = readFileSync(file, 'utf8');
    assert.equal(installHooks(opts('claude-code')).changed, false, 'idempotent');
    assert.equal(readFileSync(file, 'utf8'), text);
    const removed = uninstallHooks(opts('claude-code'));
    assert.equal(removed.changed, true);
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), EXISTING);
    assert.equal(uninstallHooks(opts('claude-code')).changed, false);
  });

  it('writes the user settings under the home folder with --scope user', () => {
    installHooks(opts('claude-code', 'user'));
    assert.ok(existsSync(join(home, '.claude', 'settings.json')));
    assert.ok(!existsSync(join(root, '.claude')));
  });

  it('refuses a settings file with comments or that does not parse, and writes nothing', () => {
    const file = join(root, '.claude', 'settings.json');
    const cases = ['{\n  // my model\n  "model": "sonnet"\n}\n', '{ "model": ', '[1, 2]', '{ "hooks": [] }'];
    for (const text of cases) {
      write(file, text);
      assert.throws(() => installHooks(opts('claude-code')), /nothing was written/);
      assert.throws(() => uninstallHooks(opts('claude-code')), /nothing was written/);
      assert.equal(readFileSync(file, 'utf8'), text);
    }
    write(file, cases[0]);
    assert.throws(() => installHooks(opts('claude-code')), /has comments, which rewriting would drop/);
  });

  it('exits 1 from the CLI on a malformed file, leaving it as it was, and prints what it changed otherwise', () => {
    const file = join(root, '.claude', 'settings.json');
    write(file, '{ "model": ');
    const bad = runCli(['hook', 'install', '--host', 'claude-code', '--root', root]);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /not valid JSON.*nothing was written/);
    assert.equal(readFileSync(file, 'utf8'), '{ "model": ');
    write(file, '{}');
    const good = runCli(['hook', 'install', '--host', 'claude-code', '--root', root]);
    assert.equal(good.code, 0, good.stderr);
    assert.match(good.stdout, /^Added claude-code hooks for PreToolUse, UserPromptSubmit, SessionStart to /);
    assert.equal(runCli(['hook', 'install', '--host', 'continue', '--root', root]).code, 2);
  });

  it('writes VS Code and Copilot CLI hook files of their own, and keeps other entries put there by hand', () => {
    const vs = installHooks(opts('vscode'));
    assert.equal(vs.file, join(root, '.github', 'hooks', 'proactive-context.json'));
    const vsData = JSON.parse(readFileSync(vs.file, 'utf8')) as {
      hooks: Record<string, { type: string; command: string; timeout: number }[]>;
    };
    assert.deepEqual(Object.keys(vsData.hooks), ['PreToolUse', 'SessionStart', 'SubagentStart']);
    assert.equal(vsData.hooks.PreToolUse[0].command, 'proactive-context-hook --host vscode');
    vsData.hooks.PostToolUse = [{ type: 'command', command: 'npx prettier --write .', timeout: 30 }];
    writeFileSync(vs.file, JSON.stringify(vsData));
    uninstallHooks(opts('vscode'));
    assert.deepEqual(JSON.parse(readFileSync(vs.file, 'utf8')), { hooks: { PostToolUse: vsData.hooks.PostToolUse } });
    assert.throws(() => installHooks(opts('vscode', 'user')), /--host claude-code --scope user/);

    const cli = installHooks(opts('copilot-cli', 'user'));
    assert.equal(cli.file, join(home, '.copilot', 'hooks', 'proactive-context.json'));
    assert.deepEqual(JSON.parse(readFileSync(cli.file, 'utf8')), {
      version: 1,
      hooks: {
        subagentStart: [
          { type: 'command', bash: 'proactive-context-hook --host copilot-cli --event subagentStart', timeoutSec: 5 },
        ],
      },
    });
  });

  it('writes Cline hook scripts, refuses when one of the event files is someone else’s, and removes only ours', () => {
    const dir = join(root, '.clinerules', 'hooks');
    const r = installHooks(opts('cline'));
    assert.deepEqual(r.events, ['PreToolUse', 'UserPromptSubmit', 'TaskStart']);
    assert.match(readFileSync(join(dir, 'PreToolUse'), 'utf8'), /exec proactive-context-hook --host cline\n$/);
    assert.ok((statSync(join(dir, 'PreToolUse')).mode & 0o111) !== 0, 'executable');
    assert.equal(installHooks(opts('cline')).changed, false);
    uninstallHooks(opts('cline'));
    write(join(dir, 'TaskStart'), '#!/bin/sh\necho mine\n');
    assert.throws(() => installHooks(opts('cline')), /TaskStart is another hook.*nothing was written/);
    assert.ok(!existsSync(join(dir, 'PreToolUse')));
    assert.equal(uninstallHooks(opts('cline')).changed, false);
    assert.equal(readFileSync(join(dir, 'TaskStart'), 'utf8'), '#!/bin/sh\necho mine\n');
  });

  it('writes the thin launcher, replacing an entry of ours that runs the CLI', () => {
    const file = join(root, '.claude', 'settings.json');
    const slow = { type: 'command', command: 'proactive-context hook --host claude-code', timeout: 5 };
    write(file, JSON.stringify({ hooks: { ...EXISTING.hooks, SessionStart: [{ hooks: [slow] }] } }, null, 2));
    const r = installHooks(opts('claude-code'));
    assert.ok(r.events.includes('SessionStart'), r.lines.join('\n'));
    const after = JSON.parse(readFileSync(file, 'utf8')) as {
      hooks: Record<string, { hooks: { command: string }[] }[]>;
    };
    assert.deepEqual(
      after.hooks.SessionStart.flatMap((g) => g.hooks.map((h) => h.command)),
      ['proactive-context-hook --host claude-code'],
    );
    assert.equal(uninstallHooks(opts('claude-code')).changed, true);
    assert.equal(
      (JSON.parse(readFileSync(file, 'utf8')) as { hooks: Record<string, unknown> }).hooks.SessionStart,
      undefined,
    );

    // Given the CLI's own file, the launcher beside it.
    const dist = join(root, 'dist');
    write(join(dist, 'cli.js'), '');
    write(join(dist, 'hook.js'), '');
    const byPath = installHooks({ ...opts('vscode'), command: `node ${join(dist, 'cli.js')}` });
    const vs = JSON.parse(readFileSync(byPath.file, 'utf8')) as { hooks: Record<string, { command: string }[]> };
    assert.equal(vs.hooks.PreToolUse[0].command, `node ${join(dist, 'hook.js')} --host vscode`);
    assert.equal(installHooks({ ...opts('cline'), command: 'npx proactive-context' }).changed, true);
    assert.match(
      readFileSync(join(root, '.clinerules', 'hooks', 'PreToolUse'), 'utf8'),
      /exec npx proactive-context hook --host cline\n$/,
    );
  });

  it('explains how to add Kiro hooks instead of rewriting an agent definition', () => {
    assert.throws(() => installHooks(opts('kiro')), /\.kiro\/agents\/NAME\.json[\s\S]*"agentSpawn"/);
  });
});
