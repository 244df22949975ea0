// Agent hooks answered by the editor: with the extension active on a trusted local folder, the thin
// launcher (dist/hook.js), run as Claude Code runs it, finds the endpoint the extension publishes in
// the folder's state directory and answers from the extension's engine, not by loading the CLI.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { waitFor, workspaceRoot } from './chatSupport';
import { closeAllEditors, openAt, testApi } from './support';

const GOVERNED = 'src/pricing.ts';
const UNGOVERNED = 'README.md';
const FENCE_OPEN = '<proactive-context-data source="repository" trust="untrusted">';
const FENCE_CLOSE = '</proactive-context-data>';
const LAUNCHER = path.join(path.resolve(__dirname, '..', '..', '..'), 'dist', 'hook.js');

interface LauncherRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A Claude Code PreToolUse input (the documented shape) for an Edit of `rel`, in a session of its own. */
function preToolUse(root: string, rel: string): string {
  return JSON.stringify({
    session_id: `hook-endpoint-${randomBytes(6).toString('hex')}`,
    transcript_path: path.join(root, '.claude-transcript.jsonl'),
    cwd: root,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Edit',
    tool_input: { file_path: path.join(root, rel), old_string: 'a', new_string: 'b', replace_all: false },
    tool_use_id: 'toolu_01HOOKENDPOINT',
  });
}

/**
 * The launcher in a process of its own, as Claude Code starts it: in the project, told where the
 * project is, the input on stdin. No --state-dir: it must find the folder's state directory itself.
 * The extension host may run in Electron, which runs as plain Node with ELECTRON_RUN_AS_NODE.
 */
function runLauncher(root: string, input: string): Promise<LauncherRun> {
  return new Promise((resolve, reject) => {
    // A generous --timeout: a busy machine must not turn the answer into the no-op.
    const child = spawn(process.execPath, [LAUNCHER, '--host', 'claude-code', '--timeout', '60000'], {
      cwd: root,
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', CLAUDE_PROJECT_DIR: root },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const guard = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.once('error', (err) => {
      clearTimeout(guard);
      reject(err);
    });
    child.once('close', (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(input);
  });
}

/** The lines the launcher added to <state dir>/hook.log since it had `before` characters. */
function logSince(stateDir: string, before: number): string[] {
  const file = path.join(stateDir, 'hook.log');
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  return text.slice(before).trim().split('\n').filter(Boolean);
}

function logSize(stateDir: string): number {
  return fs.statSync(path.join(stateDir, 'hook.log'), { throwIfNoEntry: false })?.size ?? 0;
}

suite('hook endpoint', () => {
  let root: string;
  let stateDir: string;

  suiteSetup(async function () {
    this.timeout(180_000);
    const api = await testApi();
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the integration run has no workspace folder');
    root = workspaceRoot();
    stateDir = api.stateDir(folder);
    assert.ok(fs.existsSync(LAUNCHER), `${LAUNCHER} is missing: the build makes it`);
    assert.ok(
      fs.readFileSync(path.join(root, GOVERNED), 'utf8').length > 0 &&
        fs.existsSync(path.join(root, 'docs', 'adr', '0003-cap-discounts-at-fifty-percent.md')),
      `the workspace has no decision record governing ${GOVERNED}`,
    );
    // The folder's engine opens on first use (here: a file opened in the editor); the extension
    // publishes its endpoint once that engine is open and git may run.
    await openAt(GOVERNED, 1);
    const endpoint = path.join(stateDir, 'hook-endpoint.json');
    await waitFor(async () => (fs.existsSync(endpoint) ? true : undefined), 120_000, `${endpoint} to be published`);
    const published = JSON.parse(fs.readFileSync(endpoint, 'utf8')) as { port: unknown; pid: unknown };
    assert.ok(Number.isInteger(published.port) && Number.isInteger(published.pid), JSON.stringify(published));
  });

  suiteTeardown(closeAllEditors);

  test("an edit of a governed file gets the decision from the extension's engine, fenced as repository data", async function () {
    this.timeout(150_000);
    const before = logSize(stateDir);
    const r = await runLauncher(root, preToolUse(root, GOVERNED));
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { hookSpecificOutput?: { hookEventName?: string; additionalContext?: string } };
    assert.equal(out.hookSpecificOutput?.hookEventName, 'PreToolUse', r.stdout);
    const context = out.hookSpecificOutput?.additionalContext ?? '';
    const open = context.indexOf(FENCE_OPEN);
    const title = context.indexOf('Cap discounts at fifty percent');
    const close = context.indexOf(FENCE_CLOSE);
    assert.ok(open >= 0 && close > open, `the answer is not fenced as repository data: ${context}`);
    assert.ok(title > open && title < close, `the decision's title is not inside the fence: ${context}`);
    const lines = logSince(stateDir, before);
    assert.match(lines.at(-1) ?? '', /claude-code PreToolUse via server\b/, lines.join('\n'));
  });

  test('an edit of a file nothing governs gets no output', async function () {
    this.timeout(150_000);
    const before = logSize(stateDir);
    const r = await runLauncher(root, preToolUse(root, UNGOVERNED));
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '');
    const lines = logSince(stateDir, before);
    assert.match(lines.at(-1) ?? '', /claude-code PreToolUse via server\b/, lines.join('\n'));
  });
});
