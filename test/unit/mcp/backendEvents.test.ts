import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { ContextService } from '../../../src/core/api/contextService';
import type { Disposable } from '../../../src/core/api/types';
import { MemoryLogger } from '../../../src/core/logger';
import { createMcpServer, type ConnectedMcpServer } from '../../../src/mcp/server';
import type { McpService } from '../../../src/mcp/service';
import { WORKSPACE_FILES, makeWorkspace, sleep } from '../../fixtures/mcp/harness';

const FILES: Record<string, string> = {
  ...WORKSPACE_FILES,
  'src/util.ts': "import { legacyHash } from '../lib/hash';\nexport const id = legacyHash('x');\n",
  'lib/hash.ts': 'export function legacyHash(s: string): string {\n  return s;\n}\n',
};

/** The service as the server sees it, with a count of the listeners the server holds on it. */
function counted(service: ContextService): McpService & { listeners(): number } {
  let live = 0;
  const track = (d: Disposable): Disposable => {
    live++;
    let done = false;
    return { dispose: () => (done ? undefined : ((done = true), live--, d.dispose())) };
  };
  const { workspace, suggestions, decisions, subscriptions, watches } = service;
  return {
    root: service.root,
    workspace: {
      readFile: (path) => workspace.readFile(path),
      resolvePath: (path) => workspace.resolvePath(path),
      fileChanged: (path, deleted) => workspace.fileChanged(path, deleted),
      onDidChangeWorkspaceData: (l) => track(workspace.onDidChangeWorkspaceData(l)),
    },
    suggestions: {
      suggestForInput: (input, options) => suggestions.suggestForInput(input, options),
      suggestForPath: (input, options) => suggestions.suggestForPath(input, options),
      feedback: (id, item, action) => suggestions.feedback(id, item, action),
    },
    decisions: { list: () => decisions.list() },
    subscriptions: {
      subscribe: (request, options) => subscriptions.subscribe(request, options),
      unsubscribe: (id) => subscriptions.unsubscribe(id),
      unsubscribeAll: () => subscriptions.unsubscribeAll(),
      list: () => subscriptions.list(),
      read: (id, options) => subscriptions.read(id, options),
      onDidChange: (l) => track(subscriptions.onDidChange(l)),
    },
    watches: {
      add: (input) => watches.add(input),
      list: () => watches.list(),
      remove: (id) => watches.remove(id),
      read: (id) => watches.read(id),
      firingsSince: (cursor, options) => watches.firingsSince(cursor, options),
      start: () => watches.start(),
      onDidFire: (l) => track(watches.onDidFire(l)),
      onDidChange: (l) => track(watches.onDidChange(l)),
    },
    listeners: () => live,
  };
}

/** The server in this process over the real engine, so the test can act as the engine (or the extension) on the same workspace. */
describe('MCP server and engine events', function () {
  this.timeout(20000);
  let ws: ReturnType<typeof makeWorkspace>;
  let service: ContextService;
  let backend: ReturnType<typeof counted>;
  let server: ConnectedMcpServer;
  let client: Client;
  let received: { method: string; uri?: string }[];

  const waitFor = async (what: string, pred: () => boolean): Promise<void> => {
    const end = Date.now() + 5000;
    while (!pred()) {
      if (Date.now() > end) throw new Error(`Timed out waiting for ${what}; received ${JSON.stringify(received)}`);
      await sleep(5);
    }
  };
  const updates = (uri: string) => received.filter((r) => r.uri === uri).length;
  const listChanges = () => received.filter((r) => r.method === 'notifications/resources/list_changed').length;

  beforeEach(async () => {
    ws = makeWorkspace(FILES);
    service = await ContextService.open({ root: ws.root, stateDir: join(ws.base, '.pc-state') });
    await service.workspace.refreshAll();
    backend = counted(service);
    server = createMcpServer(backend, new MemoryLogger());
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    client = new Client({ name: 'in-process', version: '1.0.0' });
    received = [];
    client.setNotificationHandler(
      'notifications/resources/updated',
      (n) => void received.push({ method: n.method, uri: n.params.uri }),
    );
    client.setNotificationHandler(
      'notifications/resources/list_changed',
      (n) => void received.push({ method: n.method }),
    );
    await client.connect(clientSide);
  });

  afterEach(async () => {
    await client.close();
    await server.close();
    service.dispose();
    ws.cleanup();
  });

  it('announces subscriptions the engine makes for someone else (the extension, the CLI)', async () => {
    await client.subscribeResource({ uri: 'context://subscriptions' });
    const { subscription: sub } = await service.subscriptions.subscribe({ kind: 'file', target: 'src/util.ts' });
    await waitFor('list_changed', () => listChanges() === 1);
    await waitFor('subscriptions update', () => updates('context://subscriptions') === 1);
    const listed = (await client.listResources()).resources;
    assert.equal(listed.find((r) => r.uri === `context://subscription/${sub.id}`)?.name, 'Subscription src/util.ts');

    // Subscribing again to the same target only renews it: the list is the same, nothing to announce.
    await service.subscriptions.subscribe({ kind: 'file', target: 'src/util.ts' });
    await sleep(300);
    assert.equal(listChanges(), 1);
    assert.equal(updates('context://subscriptions'), 1);

    service.subscriptions.unsubscribe(sub.id);
    await waitFor('second list_changed', () => listChanges() === 2);
  });

  it('re-checks suggestions when the engine re-indexed a file no resource watches', async () => {
    const uri = 'context://suggestions/src/util.ts';
    await client.subscribeResource({ uri });
    const read = async () =>
      JSON.parse(((await client.readResource({ uri })).contents[0] as { text: string }).text) as {
        items: { type: string; title: string }[];
      };
    assert.deepEqual((await read()).items, []);

    // lib/ is not watched for this resource; the engine learns of the change (as from the extension's watcher or git).
    writeFileSync(
      join(ws.root, 'lib/hash.ts'),
      '/** @deprecated Use sha256 instead. */\nexport function legacyHash(s: string): string {\n  return s;\n}\n',
    );
    service.workspace.fileChanged('lib/hash.ts');
    await waitFor('suggestions update', () => updates(uri) === 1);
    assert.deepEqual(
      (await read()).items.map((i) => [i.type, i.title]),
      [['warning', 'Deprecated: legacyHash used at line 2']],
    );

    // The same report again, with nothing new to suggest, stays quiet.
    service.workspace.fileChanged('lib/hash.ts');
    await sleep(500);
    assert.equal(updates(uri), 1);
  });

  it('stops watching and listening once closed', async () => {
    await client.subscribeResource({ uri: 'context://file/src/util.ts' });
    await client.subscribeResource({ uri: 'context://decisions' });
    assert.deepEqual(server.subscribedUris(), ['context://file/src/util.ts', 'context://decisions']);
    // Subscriptions, workspace data, watch firings and watch changes.
    assert.equal(backend.listeners(), 4);
    await client.close();
    await server.closed;
    assert.deepEqual(server.subscribedUris(), []);
    assert.equal(backend.listeners(), 0);
  });
});
