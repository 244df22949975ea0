import * as assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { idAtEdges } from '../../../src/mcp/stdioFraming';
import { makeWorkspace, WORKSPACE_FILES } from '../../fixtures/mcp/harness';

interface Reply {
  id?: string | number | null;
  result?: unknown;
  error?: { code: number; message: string };
}

/** The real CLI's MCP server spoken to line by line, so the test can send what no SDK client would. */
class RawServer {
  readonly replies: Reply[] = [];
  stderr = '';
  private buffered = '';
  readonly child: ChildProcessWithoutNullStreams;

  constructor(root: string, stateDir: string) {
    this.child = spawn(process.execPath, [
      join(__dirname, '..', '..', '..', 'src', 'cli', 'main.js'),
      'mcp',
      '--root',
      root,
      '--state-dir',
      stateDir,
    ]);
    this.child.stderr.on('data', (d) => (this.stderr += d));
    this.child.stdout.on('data', (d: Buffer) => {
      this.buffered += d.toString();
      let nl: number;
      while ((nl = this.buffered.indexOf('\n')) >= 0) {
        const line = this.buffered.slice(0, nl);
        this.buffered = this.buffered.slice(nl + 1);
        this.replies.push(JSON.parse(line) as Reply);
      }
    });
  }

  send(message: unknown): void {
    this.child.stdin.write((typeof message === 'string' ? message : JSON.stringify(message)) + '\n');
  }

  async initialize(): Promise<void> {
    this.send({
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    await this.reply('init');
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  async reply(id: string | number | null, timeoutMs = 10_000): Promise<Reply> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const r = this.replies.find((x) => x.id === id);
      if (r) return r;
      if (Date.now() > end)
        throw new Error(
          `no reply for id ${String(id)}; got ${JSON.stringify(this.replies).slice(0, 500)}; stderr: ${this.stderr}`,
        );
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  async close(): Promise<number | null> {
    this.child.stdin.end();
    if (this.child.exitCode !== null) return this.child.exitCode;
    return new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }
}

describe('MCP stdio framing', function () {
  this.timeout(30_000);
  let ws: ReturnType<typeof makeWorkspace>;
  let server: RawServer;

  beforeEach(async () => {
    ws = makeWorkspace({ ...WORKSPACE_FILES, 'docs/adr/0003-binary.md': '# \u0000\u0001\u0002 not text' });
    server = new RawServer(ws.root, join(ws.base, 'state'));
    await server.initialize();
  });
  afterEach(async () => {
    await server.close();
    ws.cleanup();
  });

  it('answers a line that is not JSON with -32700 and keeps serving', async () => {
    server.send('{"jsonrpc": "2.0", "id": 1, "method": ');
    server.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
    const err = await server.reply(null);
    assert.equal(err.error?.code, -32700);
    assert.match(err.error.message, /not valid JSON/);
    assert.deepEqual((await server.reply(2)).result, {});
  });

  it('answers JSON that is not a JSON-RPC message with -32600, with its id when it has one', async () => {
    server.send({ id: 7, hello: 'world' });
    server.send({ jsonrpc: '2.0', id: 8, method: 'ping' });
    assert.equal((await server.reply(7)).error?.code, -32600);
    assert.deepEqual((await server.reply(8)).result, {});
  });

  it('refuses a message over the size limit with a JSON-RPC error naming the limit, and keeps serving', async () => {
    const big = 'x'.repeat(11 * 1024 * 1024);
    // The SDK's client writes the id last.
    server.send(
      `{"method":"tools/call","params":{"name":"context_suggest","arguments":{"symbol":"${big}"}},"jsonrpc":"2.0","id":41}`,
    );
    server.send(
      `{"jsonrpc":"2.0","id":"first","method":"tools/call","params":{"pad":"${big.slice(0, 5 * 1024 * 1024)}"}}`,
    );
    server.send({ jsonrpc: '2.0', id: 42, method: 'ping' });
    const refused = await server.reply(41);
    assert.equal(refused.error?.code, -32600);
    assert.match(refused.error.message, /Message of 11\.0 MB refused: the limit is 4\.0 MB/);
    assert.equal((await server.reply('first')).error?.code, -32600);
    assert.deepEqual((await server.reply(42)).result, {});
    assert.equal(server.child.exitCode, null, 'still running');
  });

  it('refuses resources/* requests with wrong params with -32602 and a plain message', async () => {
    server.send({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 5 } });
    server.send({ jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: {} });
    server.send({ jsonrpc: '2.0', id: 3, method: 'resources/unsubscribe' });
    server.send({ jsonrpc: '2.0', id: 4, method: 'resources/list', params: { cursor: 3 } });
    for (const id of [1, 2, 3, 4]) {
      const r = await server.reply(id);
      assert.equal(r.error?.code, -32602, JSON.stringify(r));
      assert.doesNotMatch(r.error.message, /invalid_type|expected|"path"|\[\s*\{/, r.error.message);
    }
    assert.match(
      (await server.reply(1)).error!.message,
      /^resources\/read needs params\.uri, a resource URI string; got params\.uri of type number\.$/,
    );
  });

  it('queues replies behind a full pipe without piling up drain listeners', async () => {
    writeFileSync(join(ws.root, 'big.txt'), 'y'.repeat(300_000));
    server.child.stdout.pause();
    for (let i = 0; i < 40; i++)
      server.send({ jsonrpc: '2.0', id: 100 + i, method: 'resources/read', params: { uri: 'context://file/big.txt' } });
    server.send({ jsonrpc: '2.0', id: 'after', method: 'ping' });
    await new Promise((r) => setTimeout(r, 300));
    server.child.stdout.resume();
    await server.reply('after');
    for (let i = 0; i < 40; i++) assert.ok((await server.reply(100 + i)).result, `reply ${100 + i}`);
    assert.doesNotMatch(server.stderr, /MaxListenersExceededWarning/);
  });

  it('warns about a binary decision record once, not at every request', async () => {
    for (let i = 0; i < 4; i++) {
      server.send({ jsonrpc: '2.0', id: 200 + i, method: 'resources/read', params: { uri: 'context://decisions' } });
      await server.reply(200 + i);
    }
    assert.equal(server.stderr.match(/0003-binary\.md/g)?.length, 1, server.stderr);
  });

  it('exits cleanly, without warnings about a closed store, when the client closes stdin', async () => {
    server.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'subscribe_file', arguments: { path: 'src/util.ts' } },
    });
    await server.reply(1);
    assert.equal(await server.close(), 0);
    assert.doesNotMatch(server.stderr, /store is closed|background indexing failed|MaxListenersExceeded/);
  });
});

describe('idAtEdges', () => {
  it('finds the id where clients put it: first or last', () => {
    assert.equal(idAtEdges('{"jsonrpc":"2.0","id":12,"method":"x","params":{"a":"', ''), 12);
    assert.equal(idAtEdges('{"id":"abc","method"', ''), 'abc');
    assert.equal(idAtEdges('{"method":"tools/call","params":{"', 'zzz"}},"jsonrpc":"2.0","id":99}'), 99);
    assert.equal(
      idAtEdges('{"method":"x","params":{"id":5,', 'zzz"}}}'),
      null,
      'an id inside params is not the request id',
    );
  });
});
