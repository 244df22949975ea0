import * as assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { MemoryLogger } from '../../../src/core/logger';
import { createMcpServer, type ProactiveContextMcpServer } from '../../../src/mcp/server';
import { FixtureBackend } from '../../fixtures/mcp/fixtureBackend';
import { makeWorkspace, sleep } from '../../fixtures/mcp/harness';

/** The server in this process, so the test can act as the engine (or another process) on the backend. */
describe('MCP server and backend events', function () {
  this.timeout(10000);
  let ws: ReturnType<typeof makeWorkspace>;
  let backend: FixtureBackend;
  let server: ProactiveContextMcpServer;
  let client: Client;
  let received: { method: string; uri?: string }[];

  const waitFor = async (what: string, pred: () => boolean): Promise<void> => {
    const end = Date.now() + 3000;
    while (!pred()) {
      if (Date.now() > end) throw new Error(`Timed out waiting for ${what}; received ${JSON.stringify(received)}`);
      await sleep(5);
    }
  };
  const updates = (uri: string) => received.filter((r) => r.uri === uri).length;
  const listChanges = () => received.filter((r) => r.method === 'notifications/resources/list_changed').length;

  beforeEach(async () => {
    ws = makeWorkspace();
    backend = new FixtureBackend(ws.root);
    server = createMcpServer(backend, new MemoryLogger());
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    client = new Client({ name: 'in-process', version: '1.0.0' });
    received = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void received.push({ method: n.method, uri: n.params.uri }));
    client.setNotificationHandler(ResourceListChangedNotificationSchema, (n) => void received.push({ method: n.method }));
    await client.connect(clientSide);
  });

  afterEach(async () => {
    await client.close();
    await server.close();
    ws.cleanup();
  });

  it('announces subscriptions made elsewhere (CLI, extension) on the same workspace', async () => {
    await client.subscribeResource({ uri: 'context://subscriptions' });
    const sub = await backend.subscribe({ kind: 'file', target: 'src/util.ts' });
    await waitFor('list_changed', () => listChanges() === 1);
    await waitFor('subscriptions update', () => updates('context://subscriptions') === 1);
    const listed = (await client.listResources()).resources.map((r) => r.uri);
    assert.ok(listed.includes(`context://subscription/${sub.id}`));

    // Re-subscribing the same target only renews it: the list is the same, nothing to announce.
    await backend.subscribe({ kind: 'file', target: 'src/util.ts' });
    await sleep(300);
    assert.equal(listChanges(), 1);
    assert.equal(updates('context://subscriptions'), 1);

    await backend.unsubscribe(sub.id);
    await waitFor('second list_changed', () => listChanges() === 2);
  });

  it('re-checks suggestions when the engine reports changes the disk watcher cannot see', async () => {
    const uri = 'context://suggestions/src/util.ts';
    await client.subscribeResource({ uri });
    backend.extraItems.push({
      type: 'cochange',
      title: 'src/auth/AuthService.ts usually changes with this file',
      summary: '4 of 5 commits',
      relevanceScore: 0.7,
      reason: 'Changed together in 4 of the last 5 commits that touched src/util.ts',
      location: { path: 'src/util.ts' },
      entityId: 'cochange:src/util.ts:src/auth/AuthService.ts',
    });
    backend.emitFilesChanged(['src/util.ts']);
    await waitFor('suggestions update', () => updates(uri) === 1);

    // The same report again, with nothing new to suggest, stays quiet.
    backend.emitFilesChanged(['src/util.ts']);
    await sleep(300);
    assert.equal(updates(uri), 1);
    const body = JSON.parse(((await client.readResource({ uri })).contents[0] as { text: string }).text) as { items: { type: string }[] };
    assert.deepEqual(
      body.items.map((i) => i.type),
      ['cochange'],
    );
  });

  it('stops watching and listening once closed', async () => {
    await client.subscribeResource({ uri: 'context://file/src/util.ts' });
    await client.subscribeResource({ uri: 'context://decisions' });
    assert.deepEqual(server.subscribedUris(), ['context://file/src/util.ts', 'context://decisions']);
    assert.equal(backend.listenerCount(), 2);
    await client.close();
    await server.closed;
    assert.deepEqual(server.subscribedUris(), []);
    assert.equal(backend.listenerCount(), 0);
  });
});
