import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TempRepo } from '../../git/repoFixture';
import { disposeRepo, fixtureInput, governedRepo, runLauncher, startHttpServer } from './hookFixture';

interface ClaudeOutput {
  hookSpecificOutput: { hookEventName: string; additionalContext: string };
}

/** POST to the server's hook endpoint; resolves with the status and body. */
function post(
  port: number,
  body: string,
  headers: Record<string, string>,
  method = 'POST',
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/hook', method, headers: { 'Content-Type': 'application/json', ...headers } },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(method === 'POST' ? body : undefined);
  });
}

describe('the thin hook launcher', () => {
  let repo: TempRepo;
  let probeDir: string;
  /** Preloaded into the launcher's process: says on stderr whether the CLI was loaded before it exited. */
  let probeEnv: NodeJS.ProcessEnv;
  const args = (state: string, timeout = '60000'): string[] => [
    '--host',
    'claude-code',
    '--root',
    repo.dir,
    '--state-dir',
    state,
    '--timeout',
    timeout,
  ];
  const input = (session: string, change: (i: Record<string, unknown>) => void = () => undefined): string =>
    fixtureInput('claude-code', 'PreToolUse', repo.dir, (i) => ((i.session_id = session), change(i)));

  before(() => {
    repo = governedRepo();
    probeDir = mkdtempSync(join(tmpdir(), 'pc-hook-probe-'));
    const probe = join(probeDir, 'probe.js');
    writeFileSync(
      probe,
      "process.on('exit', () => { if (Object.keys(require.cache).some((k) => /[\\\\/]cli[\\\\/]main\\.js$/.test(k))) process.stderr.write('loaded the CLI\\n'); });\n",
    );
    probeEnv = { NODE_OPTIONS: `--require ${probe}` };
  });
  after(() => {
    disposeRepo(repo);
    rmSync(probeDir, { recursive: true, force: true });
  });

  it('answers from the server it finds in the state directory, without loading the CLI; by itself once that server is killed', async function () {
    this.timeout(180000);
    const state = `${repo.stateDir}-launcher`;
    const server = await startHttpServer(repo.dir, state);
    try {
      // No --port: the server published where it listens.
      const r = runLauncher(args(state), input('l-1'), probeEnv);
      assert.equal(r.code, 0, r.stderr);
      assert.match((JSON.parse(r.stdout) as ClaudeOutput).hookSpecificOutput.additionalContext, /ADR 0001/);
      assert.match(lastLogLine(state), /via server/);
      assert.doesNotMatch(r.stderr, /loaded the CLI/);
      const again = runLauncher(args(state), input('l-1'), probeEnv);
      assert.equal(again.code, 0, again.stderr);
      assert.equal(again.stdout, '', 'said once per session');
      assert.doesNotMatch(again.stderr, /loaded the CLI/);
    } finally {
      await server.stop();
    }
    const r = runLauncher(args(state), input('l-2'), probeEnv);
    assert.equal(r.code, 0, r.stderr);
    assert.match((JSON.parse(r.stdout) as ClaudeOutput).hookSpecificOutput.additionalContext, /ADR 0001/);
    assert.match(lastLogLine(state), /via in-process/);
    assert.match(r.stderr, /loaded the CLI/);
  });

  it('guards the hook endpoint as the MCP one: token, Host, workspace, body', async function () {
    this.timeout(180000);
    const state = `${repo.stateDir}-guards`;
    const server = await startHttpServer(repo.dir, state);
    try {
      const token = readFileSync(join(state, 'mcp-token'), 'utf8').trim();
      const auth = { Authorization: `Bearer ${token}` };
      const body = (root: string): string =>
        JSON.stringify({ host: 'claude-code', input: input('g-1'), root, maxChars: 1500, timeoutMs: 60000 });
      assert.equal((await post(server.port, body(repo.dir), {})).status, 401);
      assert.equal((await post(server.port, body(repo.dir), { ...auth, Host: 'evil.example:80' })).status, 403);
      assert.equal((await post(server.port, body(repo.dir), { ...auth, Origin: 'https://evil.example' })).status, 403);
      const other = await post(server.port, body(tmpdir()), auth);
      assert.equal(other.status, 409);
      assert.match(other.text, /This server answers for/);
      assert.equal((await post(server.port, '{oops', auth)).status, 400);
      const badHost = await post(server.port, JSON.stringify({ ...JSON.parse(body(repo.dir)), host: 'x' }), auth);
      assert.equal(badHost.status, 400);
      assert.match(badHost.text, /unknown host/);
      assert.equal((await post(server.port, '', auth, 'GET')).status, 405);
      const ok = await post(server.port, body(repo.dir), auth);
      assert.equal(ok.status, 200);
      assert.match((JSON.parse(ok.text) as { stdout: string }).stdout, /ADR 0001/);
    } finally {
      await server.stop();
    }
  });

  it('exits 0 with no output when the server it finds takes the connection and never answers', async () => {
    const state = `${repo.stateDir}-launcher-hung`;
    mkdirSync(state, { recursive: true });
    writeFileSync(join(state, 'mcp-token'), 'y'.repeat(43) + '\n', { mode: 0o600 });
    const hung = createServer(() => undefined);
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    try {
      const port = (hung.address() as AddressInfo).port;
      writeFileSync(join(state, 'hook-endpoint.json'), JSON.stringify({ port, pid: process.pid, root: repo.dir }));
      const r = runLauncher(args(state, '1500'), input('hung'), probeEnv);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, '');
      assert.match(lastLogLine(state), /no answer within 1500 ms/);
      assert.doesNotMatch(r.stderr, /loaded the CLI/);
    } finally {
      hung.close();
    }
  });

  it('says nothing, without the engine, for a tool that edits nothing', () => {
    const r = runLauncher(
      args(`${repo.stateDir}-launcher-bash`),
      input('bash', (i) => ((i.tool_name = 'Bash'), (i.tool_input = { command: 'ls' }))),
      probeEnv,
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '');
    assert.doesNotMatch(r.stderr, /loaded the CLI/);
  });
});

function lastLogLine(stateDir: string): string {
  return readFileSync(join(stateDir, 'hook.log'), 'utf8').trim().split('\n').pop() ?? '';
}
