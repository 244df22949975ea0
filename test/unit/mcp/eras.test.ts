import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connectHttp, connectStdio, stateDirOf, type EraClient } from '../../fixtures/mcp/eraClients';
import { makeWorkspace } from '../../fixtures/mcp/harness';
import { MCP_POST_HEADERS, rawRequest, spawnHttpServer, type HttpServerProcess } from '../../fixtures/mcp/httpHarness';

const UTIL = 'context://file/src/util.ts';
const DECISIONS = 'context://decisions';
const UPDATED = 'notifications/resources/updated';
const LIST_CHANGED = 'notifications/resources/list_changed';
const ACKNOWLEDGED = 'notifications/subscriptions/acknowledged';

type Era = 'legacy' | 'modern';

/** One server definition for both eras, over both transports, with the SDK's own client. */
for (const transport of ['stdio', 'http'] as const) {
  describe(`MCP for both protocol eras over ${transport}`, function () {
    this.timeout(60_000);
    let ws: ReturnType<typeof makeWorkspace>;
    let http: HttpServerProcess | undefined;
    const open: EraClient[] = [];
    let edits = 0;

    before(async () => {
      ws = makeWorkspace();
      if (transport === 'http') http = await spawnHttpServer(ws.root, stateDirOf(ws.root, '.pc-state'));
    });

    afterEach(async () => {
      for (const c of open.splice(0)) await c.close().catch(() => undefined);
    });

    after(async () => {
      await http?.stop();
      ws?.cleanup();
    });

    async function connect(era: Era): Promise<EraClient> {
      const c = http
        ? await connectHttp(http, era)
        : await connectStdio(ws.root, stateDirOf(ws.root, `.pc-state-${open.length}`), era);
      open.push(c);
      assert.equal(c.client.getProtocolEra(), era);
      return c;
    }

    const editUtil = (): void => writeFileSync(join(ws.root, 'src/util.ts'), `export const edit = ${++edits};\n`);

    it('a 2026-07-28 client listens: the honoured subset is acknowledged, and every update is tagged with its subscription', async () => {
      const c = await connect('modern');
      const first = await c.client.listen({
        resourcesListChanged: true,
        toolsListChanged: true,
        promptsListChanged: true,
        resourceSubscriptions: [UTIL, DECISIONS, 'context://file/../outside.txt', 'context://nothing/here'],
      });
      // No tools or prompts ever change, and no resource outside the root or unknown is served.
      assert.deepEqual(first.honoredFilter, { resourcesListChanged: true, resourceSubscriptions: [UTIL, DECISIONS] });
      const acks = c.wire.notes(ACKNOWLEDGED);
      assert.equal(acks.length, 1);
      const firstId = acks[0].subscriptionId;
      assert.ok(typeof firstId === 'string' || typeof firstId === 'number', `ack tagged: ${JSON.stringify(acks)}`);

      const second = await c.client.listen({ resourceSubscriptions: [UTIL] });
      assert.deepEqual(second.honoredFilter, { resourceSubscriptions: [UTIL] });
      const secondId = c.wire.notes(ACKNOWLEDGED)[1].subscriptionId;
      assert.notEqual(secondId, firstId);

      // One change, one update per stream that asked for it, each tagged with its own stream.
      editUtil();
      const utilUpdates = () => c.wire.notes(UPDATED).filter((n) => n.params.uri === UTIL);
      await c.wire.waitFor('an update of src/util.ts on both streams', () => utilUpdates().length >= 2);
      assert.deepEqual(new Set(utilUpdates().map((n) => n.subscriptionId)), new Set([firstId, secondId]));

      // The list changes: only the stream that asked for list changes hears of it.
      await c.client.callTool({ name: 'subscribe_file', arguments: { path: 'src/auth/AuthService.ts' } });
      await c.wire.waitFor('list_changed', () => c.wire.notes(LIST_CHANGED).length > 0);
      assert.deepEqual(
        c.wire.notes(LIST_CHANGED).map((n) => n.subscriptionId),
        [firstId],
      );

      await first.close();
      assert.equal(await first.closed, 'local');
      if (transport === 'stdio') {
        // The cancel reached the server before this answer (one ordered channel): the other stream still hears.
        await c.client.listResources();
        const before = utilUpdates().length;
        editUtil();
        await c.wire.waitFor('an update on the remaining stream', () => utilUpdates().length > before);
        assert.deepEqual(
          utilUpdates()
            .slice(before)
            .map((n) => n.subscriptionId),
          [secondId],
        );
      }
      await second.close();
    });

    it('a 2025 client subscribes with resources/subscribe and hears of each change, untagged', async () => {
      const c = await connect('legacy');
      await assert.rejects(c.client.listen({ resourceSubscriptions: [UTIL] }));
      await c.client.subscribeResource({ uri: UTIL });
      editUtil();
      await c.wire.waitFor('an update of src/util.ts', () => c.wire.notes(UPDATED).some((n) => n.params.uri === UTIL));
      assert.deepEqual(
        c.wire.notes(UPDATED).map((n) => [n.params.uri, n.subscriptionId]),
        [[UTIL, undefined]],
      );
      assert.equal(c.wire.notes(ACKNOWLEDGED).length, 0);
    });

    it('gives 2026-07-28 list and read results ttlMs and cacheScope: short for suggestions and watches, long for decisions', async () => {
      const c = await connect('modern');
      const watch = await c.client.callTool({
        name: 'context_subscribe',
        arguments: { patterns: [{ type: 'file', pattern: 'src/**' }] },
      });
      const watchUri = (watch.structuredContent as { uri: string }).uri;
      // As sent: the result on the wire, not what the client keeps of it.
      const hints = async (call: () => Promise<unknown>) => {
        const from = c.wire.messages.length;
        await call();
        const r = c.wire.messages.slice(from).find((m) => 'result' in m) as { result: Record<string, unknown> };
        return [r.result.ttlMs, r.result.cacheScope];
      };
      const read = (uri: string) => () => c.client.readResource({ uri }, { cacheMode: 'bypass' });
      assert.deepEqual(await hints(read('context://suggestions/src/util.ts')), [5000, 'private']);
      assert.deepEqual(await hints(read(watchUri)), [5000, 'private']);
      assert.deepEqual(await hints(read('context://subscriptions')), [5000, 'private']);
      assert.deepEqual(await hints(read(DECISIONS)), [600_000, 'public']);
      assert.deepEqual(await hints(read('context://decision/1')), [600_000, 'public']);
      assert.deepEqual(await hints(read(UTIL)), [30_000, 'private']);
      assert.deepEqual(await hints(() => c.client.listResources(undefined, { cacheMode: 'bypass' })), [
        5000,
        'private',
      ]);
      assert.deepEqual(await hints(() => c.client.listResourceTemplates(undefined, { cacheMode: 'bypass' })), [
        3_600_000,
        'public',
      ]);
      assert.deepEqual(await hints(() => c.client.listTools(undefined, { cacheMode: 'bypass' })), [
        3_600_000,
        'public',
      ]);
    });

    if (transport === 'http')
      it('asks 2026-07-28 requests for the bearer token and a loopback Host, as 2025 ones', async () => {
        assert.ok(http);
        const discover = JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'server/discover',
          params: {
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          },
        });
        const headers = { ...MCP_POST_HEADERS, 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'server/discover' };
        const auth = { Authorization: `Bearer ${http.token}` };
        assert.equal((await rawRequest(http.url, { headers, body: discover })).status, 401);
        const foreign = await rawRequest(http.url, {
          headers: { ...headers, ...auth, Host: 'evil.example:80' },
          body: discover,
        });
        assert.equal(foreign.status, 403);
        const ok = await rawRequest(http.url, { headers: { ...headers, ...auth }, body: discover });
        assert.equal(ok.status, 200, ok.body);
        assert.match(ok.body, /2026-07-28/);
      });

    it('leaves 2025 results as they were: no cache fields', async () => {
      const c = await connect('legacy');
      const from = c.wire.messages.length;
      await c.client.readResource({ uri: DECISIONS });
      const r = (c.wire.messages.slice(from).find((m) => 'result' in m) as { result: Record<string, unknown> }).result;
      assert.ok(Array.isArray(r.contents));
      assert.equal('ttlMs' in r, false);
      assert.equal('cacheScope' in r, false);
    });
  });
}
