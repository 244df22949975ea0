import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { ContextService } from '../../../src/core/api/contextService';
import { startServer, sleep, type ServerUnderTest } from '../../fixtures/mcp/harness';
import { TempRepo } from '../git/repoFixture';

const LIST_CHANGED = 'notifications/resources/list_changed';

async function call(s: ServerUnderTest, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  const r = await s.client.callTool({ name, arguments: args });
  const c = r.content[0];
  assert.ok(!r.isError, `${name} failed: ${c && c.type === 'text' ? c.text : ''}`);
  return r;
}

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 5000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(20);
  }
}

/**
 * The MCP server (the CLI's `mcp` command, another process) and the engine the extension runs share
 * one state folder: what one subscribes to, the other sees.
 */
describe('MCP server and the extension on one state folder', function () {
  this.timeout(30000);
  let repo: TempRepo;
  let stateDir: string;
  let s: ServerUnderTest;
  let engine: ContextService;

  beforeEach(async () => {
    repo = new TempRepo(true, 'pc-mcp-shared-');
    stateDir = mkdtempSync(join(tmpdir(), 'pc-mcp-state-'));
    repo.commit('Add invoices', {
      'src/billing/invoice.ts':
        'export function total(lines: number[]): number {\n  return lines.reduce((a, b) => a + b, 0);\n}\n',
      'src/billing/tax.ts': 'export const rate = 0.2;\n',
    });
    repo.commit('Decide on rounding', {
      'docs/adr/0001-round-invoice-totals.md':
        '# 1. Round invoice totals to cents\n\nStatus: Accepted\n\n## Decision\n\n`src/billing/invoice.ts` rounds every total to whole cents, half up.\n',
      'src/billing/invoice.ts':
        'export function total(lines: number[]): number {\n  return Math.round(lines.reduce((a, b) => a + b, 0) * 100) / 100;\n}\n',
    });
    s = await startServer(repo.dir, [], stateDir);
    engine = await ContextService.open({ root: repo.dir, stateDir });
  });

  afterEach(async () => {
    await s.close();
    engine.dispose();
    repo.dispose();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('shows a subscription made over MCP to the engine in another process', async () => {
    const r = await call(s, 'subscribe_file', { path: 'src/billing/invoice.ts', lines: { start: 2, end: 2 } });
    const id = (r.structuredContent as { id: string }).id;
    const seen = await until('the subscription in the engine', () =>
      engine.subscriptions.list().list.find((x) => x.id === id),
    );
    assert.equal(seen.kind, 'lines');
    assert.equal(seen.path, 'src/billing/invoice.ts');
    assert.deepEqual(seen.lines, { start: 2, end: 2 });
    // Both sides read the same content for it.
    const overMcp = (await s.client.readResource({ uri: (r.structuredContent as { uri: string }).uri }))
      .contents[0] as { text: string };
    assert.equal((await engine.subscriptions.read(seen.id)).text, overMcp.text);
    assert.match(overMcp.text, /Math\.round/);
  });

  it('lists and announces a subscription the engine made, once it is saved', async () => {
    await s.client.listResources();
    const { subscription } = await engine.subscriptions.subscribe({
      kind: 'pattern',
      target: 'src/billing/tax.ts',
      pattern: 'rate',
    });
    engine.workspace.flush();
    await s.waitFor('list_changed', () => s.received.some((n) => n.method === LIST_CHANGED), 5000);
    const listed = (await call(s, 'list_subscriptions')).structuredContent as {
      subscriptions: { id: string; target: string; uri: string }[];
    };
    assert.deepEqual(
      listed.subscriptions.map((x) => [x.id, x.target]),
      [[subscription.id, 'src/billing/tax.ts~/rate/']],
    );
    const resource = (await s.client.listResources()).resources.find((x) => x.uri === listed.subscriptions[0].uri);
    assert.equal(resource?.name, 'Subscription src/billing/tax.ts lines matching /rate/');

    engine.subscriptions.unsubscribe(subscription.id);
    engine.workspace.flush();
    await s.waitFor(
      'a second list_changed',
      () => s.received.filter((n) => n.method === LIST_CHANGED).length === 2,
      5000,
    );
    assert.deepEqual((await call(s, 'list_subscriptions')).structuredContent, { subscriptions: [] });
  });

  it('suggests the decision that names a file, with the reason it applies', async () => {
    const r = await call(s, 'context_suggest', { file: 'src/billing/invoice.ts', line: 2 });
    type Item = { type: string; title: string; reason: string; relevanceScore: number; location: { path?: string } };
    const items = (r.structuredContent as { items: Item[] }).items;
    const decision = items.find((i) => i.type === 'decision');
    assert.ok(decision, `a decision among ${JSON.stringify(items.map((i) => i.type))}`);
    assert.match(decision.title, /Round invoice totals to cents/);
    assert.equal(decision.location.path, 'docs/adr/0001-round-invoice-totals.md');
    assert.match(decision.reason, /src\/billing\/invoice\.ts/);
    // A neighbour in the same small folder is shown too, below the named file, and says why.
    const other = await call(s, 'context_suggest', { file: 'src/billing/tax.ts' });
    const neighbour = (other.structuredContent as { items: Item[] }).items.find(
      (i) => i.location.path === decision.location.path,
    );
    assert.ok(neighbour, 'the record is shown for the file next to the one it names');
    assert.ok(
      neighbour.relevanceScore < decision.relevanceScore,
      `${neighbour.relevanceScore} < ${decision.relevanceScore}`,
    );
    assert.equal(neighbour.reason, 'ADR 0001 names invoice.ts, next to this file');
  });
});
