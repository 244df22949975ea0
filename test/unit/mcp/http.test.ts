import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { CLI_MAIN, makeWorkspace } from '../../fixtures/mcp/harness';
import {
  connectHttpClient,
  INITIALIZE_BODY,
  openEventStream,
  MCP_POST_HEADERS,
  rawRequest,
  spawnHttpServer,
  startHttpServer,
  type Exit,
  type HttpServerUnderTest,
} from '../../fixtures/mcp/httpHarness';

const LIST_CHANGED = 'notifications/resources/list_changed';
/** Generous: the first change after start may wait for the initial index. */
const EVENT_CEILING_MS = 15_000;

function text(r: CallToolResult): string {
  const c = r.content[0];
  return c && c.type === 'text' ? c.text : '';
}

/** Runs the CLI to its end and returns how it exited and what it said on stderr. */
async function runCli(args: string[]): Promise<Exit & { stderr: string }> {
  const child = spawn(process.execPath, [CLI_MAIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exit = await new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return { ...exit, stderr };
}

function jsonRpcError(body: string): { code: number; message: string } {
  const parsed = JSON.parse(body) as { jsonrpc: string; id: unknown; error: { code: number; message: string } };
  assert.equal(parsed.jsonrpc, '2.0');
  assert.equal(parsed.id, null);
  return parsed.error;
}

describe('MCP server over Streamable HTTP', function () {
  this.timeout(40_000);
  let ws: ReturnType<typeof makeWorkspace>;
  let s: HttpServerUnderTest;

  before(async () => {
    ws = makeWorkspace();
    s = await startHttpServer(ws.root);
  });

  after(async () => {
    await s?.close();
    ws?.cleanup();
  });

  it('serves the tools, and pushes resource updates and list changes over server-sent events', async () => {
    const suggest = await s.client.callTool({
      name: 'context_suggest',
      arguments: { file: 'src/auth/AuthService.ts', line: 2 },
    });
    assert.ok(!suggest.isError, text(suggest));
    const items = (suggest.structuredContent as { items: { type: string; location: { path?: string } }[] }).items;
    assert.deepEqual(
      items.map((i) => [i.type, i.location.path]),
      [['decision', 'docs/adr/0001-use-jwt.md']],
    );
    assert.deepEqual((await s.client.callTool({ name: 'list_subscriptions', arguments: {} })).structuredContent, {
      subscriptions: [],
    });

    const fileUri = 'context://file/src/util.ts';
    await s.client.subscribeResource({ uri: fileUri });
    await s.client.subscribeResource({ uri: 'context://subscriptions' });
    writeFileSync(join(ws.root, 'src/util.ts'), 'export const one = 1;\nexport const changed = true;\n');
    await s.waitFor(`an update of ${fileUri}`, () => s.updatesFor(fileUri).length > 0, EVENT_CEILING_MS);

    const sub = await s.client.callTool({
      name: 'subscribe_file',
      arguments: { path: 'src/util.ts' },
    });
    assert.ok(!sub.isError, text(sub));
    await s.waitFor('list_changed', () => s.received.some((n) => n.method === LIST_CHANGED), EVENT_CEILING_MS);
    await s.waitFor(
      'an update of context://subscriptions',
      () => s.updatesFor('context://subscriptions').length > 0,
      EVENT_CEILING_MS,
    );
    const listed = (await s.client.listResources()).resources.map((r) => r.uri);
    assert.ok(listed.includes((sub.structuredContent as { uri: string }).uri), JSON.stringify(listed));
  });

  it('pushes a watch firing over server-sent events, as over stdio', async () => {
    const made = await s.client.callTool({
      name: 'context_subscribe',
      arguments: { patterns: [{ type: 'file', pattern: 'src/auth/**' }], cooldownMs: 0, minRelevanceScore: 0 },
    });
    assert.ok(!made.isError, text(made));
    const uri = (made.structuredContent as { uri: string }).uri;
    await s.client.subscribeResource({ uri });
    writeFileSync(
      join(ws.root, 'src/auth/AuthService.ts'),
      'export class AuthService {\n  validateToken(token: string): boolean {\n    return token.length > 1;\n  }\n}\n',
    );
    await s.waitFor(`an update of ${uri}`, () => s.updatesFor(uri).length > 0, EVENT_CEILING_MS);
    const body = JSON.parse(((await s.client.readResource({ uri })).contents[0] as { text: string }).text) as {
      trigger: { type: string; source: string };
      items: { type: string }[];
    };
    assert.deepEqual(body.trigger, { type: 'file_change', source: 'src/auth/AuthService.ts' });
    assert.ok(
      body.items.some((i) => i.type === 'decision'),
      JSON.stringify(body.items),
    );
    await s.client.callTool({ name: 'unwatch', arguments: { id: (made.structuredContent as { id: string }).id } });
  });

  it('answers 401 with a Bearer challenge when the token is missing or wrong', async () => {
    const missing = await rawRequest(s.http.url, { headers: MCP_POST_HEADERS, body: INITIALIZE_BODY });
    assert.equal(missing.status, 401);
    assert.equal(missing.headers['www-authenticate'], 'Bearer');
    assert.match(jsonRpcError(missing.body).message, /Unauthorized.*Authorization: Bearer/);

    const wrong = await rawRequest(s.http.url, {
      headers: { ...MCP_POST_HEADERS, Authorization: `Bearer ${s.http.token.slice(0, -1)}x` },
      body: INITIALIZE_BODY,
    });
    assert.equal(wrong.status, 401);
    assert.match(String(wrong.headers['www-authenticate']), /^Bearer error="invalid_token"/);
    jsonRpcError(wrong.body);

    // The SDK client with a wrong token cannot open a session either.
    await assert.rejects(
      connectHttpClient(s.http, 'not-the-token-but-long-enough-to-look-like-one'),
      /401|Unauthorized/,
    );
  });

  it('refuses a foreign Host or Origin even with the right token (DNS rebinding)', async () => {
    const auth = { ...MCP_POST_HEADERS, Authorization: `Bearer ${s.http.token}` };
    const evilHost = await rawRequest(s.http.url, {
      headers: { ...auth, Host: `evil.example:${s.http.port}` },
      body: INITIALIZE_BODY,
    });
    assert.equal(evilHost.status, 403);
    assert.match(jsonRpcError(evilHost.body).message, /Host header 'evil\.example/);

    const otherPort = await rawRequest(s.http.url, {
      headers: { ...auth, Host: `127.0.0.1:${s.http.port + 1}` },
      body: INITIALIZE_BODY,
    });
    assert.equal(otherPort.status, 403);

    const evilOrigin = await rawRequest(s.http.url, {
      headers: { ...auth, Origin: 'http://evil.example' },
      body: INITIALIZE_BODY,
    });
    assert.equal(evilOrigin.status, 403);
    assert.match(jsonRpcError(evilOrigin.body).message, /Origin 'http:\/\/evil\.example'/);

    // A loopback page (an inspector on its own port) and the name localhost are fine.
    const local = await rawRequest(s.http.url, {
      headers: { ...auth, Host: `localhost:${s.http.port}`, Origin: 'http://localhost:6274' },
      body: INITIALIZE_BODY,
    });
    assert.equal(local.status, 200, local.body);
    const sessionId = String(local.headers['mcp-session-id']);
    const ended = await rawRequest(s.http.url, {
      method: 'DELETE',
      headers: {
        Authorization: `Bearer ${s.http.token}`,
        'Mcp-Session-Id': sessionId,
        'Mcp-Protocol-Version': '2025-06-18',
      },
    });
    assert.equal(ended.status, 200, ended.body);
  });

  it('answers an oversized body with a JSON-RPC error and keeps serving', async () => {
    const huge = Buffer.alloc(5 * 1024 * 1024, 'a');
    const r = await rawRequest(s.http.url, {
      headers: { ...MCP_POST_HEADERS, Authorization: `Bearer ${s.http.token}` },
      body: huge,
    });
    assert.equal(r.status, 413);
    assert.match(jsonRpcError(r.body).message, /too large: at most 4194304 bytes/);

    const notJson = await rawRequest(s.http.url, {
      headers: { ...MCP_POST_HEADERS, Authorization: `Bearer ${s.http.token}` },
      body: '{"jsonrpc":',
    });
    assert.equal(notJson.status, 400);
    assert.equal(jsonRpcError(notJson.body).code, -32700);

    assert.deepEqual(await s.client.ping(), {});
  });

  it('ends a session on DELETE: its id is then unknown', async () => {
    const other = await connectHttpClient(s.http);
    const id = other.transport.sessionId!;
    assert.ok(id);
    await other.transport.terminateSession();
    const after = await rawRequest(s.http.url, {
      headers: {
        ...MCP_POST_HEADERS,
        Authorization: `Bearer ${s.http.token}`,
        'Mcp-Session-Id': id,
        'Mcp-Protocol-Version': '2025-06-18',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
    });
    assert.equal(after.status, 404);
    assert.equal(jsonRpcError(after.body).code, -32001);
    await other.client.close();
    // The first client's session is untouched.
    assert.deepEqual(await s.client.ping(), {});
  });

  it('keeps one private token per state directory, and a second server on a taken port fails clearly', async () => {
    assert.equal(statSync(s.http.tokenFile).mode & 0o777, 0o600);
    assert.equal(s.http.tokenFile, join(ws.root, '..', '.pc-state', 'mcp-token'));
    assert.match(s.http.token, /^[A-Za-z0-9_-]{43}$/);
    assert.match(s.http.stderr(), /created a bearer token in .*mcp-token/);
    assert.match(s.http.stderr(), new RegExp(`at http://127\\.0\\.0\\.1:${s.http.port}/mcp`));

    const second = await spawnHttpServer(ws.root, join(ws.root, '..', '.pc-state'));
    try {
      assert.equal(second.tokenFile, s.http.tokenFile);
      assert.equal(second.token, s.http.token);
      assert.doesNotMatch(second.stderr(), /created a bearer token/);
      assert.notEqual(second.port, s.http.port);
    } finally {
      assert.deepEqual(await second.stop(), { code: 0, signal: null });
    }

    const clash = await runCli([
      'mcp',
      '--http',
      '--port',
      String(s.http.port),
      '--root',
      ws.root,
      '--state-dir',
      join(ws.root, '..', '.pc-state'),
    ]);
    assert.equal(clash.code, 1, clash.stderr);
    assert.match(clash.stderr, new RegExp(`Port ${s.http.port} on 127\\.0\\.0\\.1 is already in use.*--port 0`));
  });

  it('shuts down on SIGTERM: open streams end cleanly and the process exits 0', async () => {
    const local = await spawnHttpServer(ws.root, join(ws.root, '..', '.pc-state-sigterm'));
    const auth = { Authorization: `Bearer ${local.token}` };
    const init = await rawRequest(local.url, { headers: { ...MCP_POST_HEADERS, ...auth }, body: INITIALIZE_BODY });
    assert.equal(init.status, 200, init.body);
    const stream = await openEventStream(local.url, {
      ...auth,
      Accept: 'text/event-stream',
      'Mcp-Session-Id': String(init.headers['mcp-session-id']),
      'Mcp-Protocol-Version': '2025-06-18',
    });
    assert.equal(stream.status, 200);
    const exit = await local.stop();
    assert.deepEqual(exit, { code: 0, signal: null });
    // 'end' (not a reset): the server closed the session's stream before it let go of the socket.
    assert.equal(await stream.ended, 'end');
  });

  it('rejects flags that only make sense with --http', async () => {
    const r = await runCli(['mcp', '--port', '7421', '--root', ws.root]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--port needs --http/);
  });
});
