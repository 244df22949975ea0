import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ContextService } from '../../../src/core/api/contextService';
import { nullLogger } from '../../../src/core/api/types';
import { McpHttpServer } from '../../../src/mcp/httpServer';
import { makeWorkspace, sleep } from '../../fixtures/mcp/harness';
import { INITIALIZE_BODY, MCP_POST_HEADERS, openEventStream, rawRequest } from '../../fixtures/mcp/httpHarness';

const TOKEN = 'k'.repeat(43);
const AUTH = { Authorization: `Bearer ${TOKEN}` };
const PROTOCOL = { 'Mcp-Protocol-Version': '2025-06-18' };

function errorMessage(body: string): string {
  return (JSON.parse(body) as { error: { message: string } }).error.message;
}

/** The session table of the HTTP server, on a real service: bounded, idle sessions make room, DELETE and close free them. */
describe('MCP HTTP sessions', function () {
  this.timeout(20_000);
  let ws: ReturnType<typeof makeWorkspace>;
  let stateDir: string;
  let service: ContextService;
  let server: McpHttpServer;

  beforeEach(async () => {
    ws = makeWorkspace();
    stateDir = mkdtempSync(join(tmpdir(), 'pc-http-state-'));
    service = await ContextService.open({ root: ws.root, stateDir });
    server = await McpHttpServer.listen(service, nullLogger, { port: 0, token: TOKEN, maxSessions: 2 });
  });

  afterEach(async () => {
    await server.close();
    service.dispose();
    ws.cleanup();
    rmSync(stateDir, { recursive: true, force: true });
  });

  async function initialize(): Promise<{ status: number; id: string; body: string }> {
    const r = await rawRequest(server.url, { headers: { ...MCP_POST_HEADERS, ...AUTH }, body: INITIALIZE_BODY });
    return { status: r.status, id: String(r.headers['mcp-session-id'] ?? ''), body: r.body };
  }

  const listen = (id: string) =>
    openEventStream(server.url, { ...AUTH, ...PROTOCOL, Accept: 'text/event-stream', 'Mcp-Session-Id': id });
  const ping = (id: string) =>
    rawRequest(server.url, {
      headers: { ...MCP_POST_HEADERS, ...AUTH, ...PROTOCOL, 'Mcp-Session-Id': id },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' }),
    });

  it('keeps at most maxSessions: an idle one makes room, and when all are listening a new client gets 503', async () => {
    const a = await initialize();
    assert.equal(a.status, 200, a.body);
    const aStream = await listen(a.id);
    assert.equal(aStream.status, 200);
    const b = await initialize();
    assert.equal(server.sessionCount(), 2);

    // B has no stream open: it is closed to make room for C.
    const c = await initialize();
    assert.equal(c.status, 200, c.body);
    assert.equal(server.sessionCount(), 2);
    assert.equal((await ping(b.id)).status, 404);
    assert.equal((await ping(a.id)).status, 200);

    const cStream = await listen(c.id);
    const d = await initialize();
    assert.equal(d.status, 503);
    assert.match(errorMessage(d.body), /Too many sessions \(at most 2 at once, all in use\)/);

    const deleted = await rawRequest(server.url, {
      method: 'DELETE',
      headers: { ...AUTH, ...PROTOCOL, 'Mcp-Session-Id': a.id },
    });
    assert.equal(deleted.status, 200, deleted.body);
    assert.equal(await aStream.ended, 'end');
    assert.equal(server.sessionCount(), 1);
    const e = await initialize();
    assert.equal(e.status, 200, e.body);

    await server.close();
    assert.equal(await cStream.ended, 'end');
    assert.equal(server.sessionCount(), 0);
  });

  it('answers unknown paths, methods and session ids with JSON errors, and requires a session after initialize', async () => {
    const path = await rawRequest(server.url.replace('/mcp', '/other'), { method: 'GET', headers: AUTH });
    assert.equal(path.status, 404);
    const put = await rawRequest(server.url, { method: 'PUT', headers: AUTH, body: '{}' });
    assert.equal(put.status, 405);
    assert.equal(put.headers.allow, 'GET, POST, DELETE');
    const noSession = await rawRequest(server.url, {
      headers: { ...MCP_POST_HEADERS, ...AUTH },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    assert.equal(noSession.status, 400);
    assert.match(errorMessage(noSession.body), /no Mcp-Session-Id header/);
    assert.equal((await ping('no-such-session')).status, 404);
    assert.equal(server.sessionCount(), 0);
  });

  it('keeps resources fresh for a 2026-07-28 listen stream only while it is open', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: AUTH } });
    const client = new Client(
      { name: 'listener', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(transport);
    try {
      const a = await client.listen({ resourceSubscriptions: ['context://file/src/util.ts', 'context://decisions'] });
      const b = await client.listen({ resourceSubscriptions: ['context://file/src/util.ts'] });
      assert.deepEqual(server.listening(), { streams: 2, uris: ['context://file/src/util.ts', 'context://decisions'] });
      // No sessions: a 2026-07-28 client holds none.
      assert.equal(server.sessionCount(), 0);

      await a.close();
      await until(() => server.listening().streams === 1);
      assert.deepEqual(server.listening().uris, ['context://file/src/util.ts']);
      await b.close();
      await until(() => server.listening().streams === 0);
      assert.deepEqual(server.listening().uris, []);
    } finally {
      await client.close();
    }
  });
});

/** Waits for a state the server reaches once it sees the client go; the ceiling is only a safety net. */
async function until(pred: () => boolean, ceilingMs = 10_000): Promise<void> {
  const end = Date.now() + ceilingMs;
  while (!pred()) {
    if (Date.now() > end) throw new Error('the server never reached the expected state');
    await sleep(10);
  }
}
