import * as assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { startServer, type ServerUnderTest } from '../../fixtures/mcp/harness';
import { TempRepo } from '../git/repoFixture';

type Firing = {
  seq: number;
  watchId: string;
  trigger: { type: string; source: string };
  items: unknown[];
  firedAt: number;
};
type WatchBody = {
  watch: { id: string; cooldownMs: number };
  trigger: { type: string; source: string } | null;
  items: { type: string; title: string }[];
  seq: number;
  firedAt: number | null;
};

async function call(s: ServerUnderTest, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return await s.client.callTool({ name, arguments: args });
}

function textOf(r: CallToolResult): string {
  const c = r.content[0];
  return c && c.type === 'text' ? c.text : '';
}

async function ok(
  s: ServerUnderTest,
  name: string,
  args: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const r = await call(s, name, args);
  assert.ok(!r.isError, `${name} failed: ${textOf(r)}`);
  return r.structuredContent as Record<string, unknown>;
}

async function read(s: ServerUnderTest, uri: string): Promise<WatchBody> {
  const c = (await s.client.readResource({ uri })).contents[0] as { text: string; mimeType?: string };
  assert.equal(c.mimeType, 'application/json');
  return JSON.parse(c.text) as WatchBody;
}

async function firingsSince(s: ServerUnderTest, cursor: number): Promise<{ firings: Firing[]; cursor: number }> {
  return (await ok(s, 'poll_updates', { cursor })) as unknown as { firings: Firing[]; cursor: number };
}

/** Waits until the wall clock passes `at` (a watch's cooldown is real time in the server process). */
async function until(at: number): Promise<void> {
  while (Date.now() < at) await new Promise((r) => setTimeout(r, Math.min(200, at - Date.now() + 5)));
}

/**
 * Watches over MCP with the SDK's real client against the real CLI server: a file watch pushes the
 * context of a change on disk, stays quiet within its cooldown, survives a new server process, and
 * bad requests are refused without adding anything.
 */
describe('MCP watches', function () {
  this.timeout(60_000);
  let repo: TempRepo;
  let stateDir: string;
  let s: ServerUnderTest;

  beforeEach(async () => {
    repo = new TempRepo(true, 'pc-mcp-watch-');
    stateDir = mkdtempSync(join(tmpdir(), 'pc-mcp-watch-state-'));
    repo.commit('Add auth', {
      'src/auth/session.ts': 'export function openSession(user: string): string {\n  return `session:${user}`;\n}\n',
      'src/auth/tokens.ts':
        "import { openSession } from './session';\nexport const token = (u: string) => openSession(u).length;\n",
      'src/billing/invoice.ts': 'export const total = (xs: number[]) => xs.reduce((a, b) => a + b, 0);\n',
    });
    repo.commit('Decide on sessions', {
      'docs/adr/0001-short-sessions.md':
        '# 1. Keep sessions short\n\nStatus: Accepted\n\n## Decision\n\n`src/auth/session.ts` opens sessions that expire after 15 minutes.\n',
    });
    s = await startServer(repo.dir, [], stateDir);
  });

  afterEach(async () => {
    await s.close();
    repo.dispose();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('pushes the context of a change to a watched file, then keeps quiet for the cooldown', async () => {
    const made = await ok(s, 'context_subscribe', {
      patterns: [{ type: 'file', pattern: 'src/auth/**' }],
      cooldownMs: 4000,
      minRelevanceScore: 0,
    });
    const uri = made.uri as string;
    assert.match(uri, /^context:\/\/watch\/w[0-9a-f]+$/);
    assert.equal(uri, `context://watch/${made.id as string}`);
    assert.ok(
      (await s.client.listResources()).resources.some((r) => r.uri === uri),
      'resources/list shows the watch',
    );
    await s.client.subscribeResource({ uri });
    const start = (await firingsSince(s, 0)).cursor;

    appendFileSync(join(repo.dir, 'src/auth/session.ts'), '// touched\n');
    await s.waitFor('a notification for the watch', () => s.updatesFor(uri).length === 1, 20_000);
    const first = await read(s, uri);
    assert.equal(first.trigger?.type, 'file_change');
    assert.equal(first.trigger?.source, 'src/auth/session.ts');
    assert.ok(first.items.length >= 1, 'the firing carries at least one item');
    assert.ok(
      first.items.some((i) => i.type === 'decision' && /Keep sessions short/.test(i.title)),
      JSON.stringify(first.items),
    );

    // Outside the pattern, then inside it again within the cooldown: neither fires. After the
    // cooldown, a change fires again. Events are handled in order, so the firing that follows must
    // be the last change's: had either earlier one fired, the cooldown would have held this one.
    appendFileSync(join(repo.dir, 'src/billing/invoice.ts'), '// elsewhere\n');
    appendFileSync(join(repo.dir, 'src/auth/tokens.ts'), '// within the cooldown\n');
    await until((first.firedAt ?? 0) + 4000 + 100);
    appendFileSync(join(repo.dir, 'src/auth/session.ts'), '// after the cooldown\n');
    await s.waitFor('a second notification', () => s.updatesFor(uri).length === 2, 20_000);
    const second = await read(s, uri);
    assert.equal(second.trigger?.source, 'src/auth/session.ts');
    assert.ok((second.firedAt ?? 0) - (first.firedAt ?? 0) >= 4000);
    const all = await firingsSince(s, start);
    assert.deepEqual(
      all.firings.map((f) => f.trigger.source),
      ['src/auth/session.ts', 'src/auth/session.ts'],
      'exactly two firings, both for the watched file',
    );
    assert.equal(all.cursor, second.seq);
    assert.deepEqual((await firingsSince(s, all.cursor)).firings, [], 'nothing after the cursor');
  });

  it('keeps watches across a server restart', async () => {
    const made = await ok(s, 'context_subscribe', {
      patterns: [
        { type: 'topic', pattern: 'session expiry' },
        { type: 'symbol', pattern: 'src/auth/session.ts::openSession' },
      ],
    });
    await s.close();
    s = await startServer(repo.dir, [], stateDir);
    const listed = (await ok(s, 'list_watches')).watches as {
      id: string;
      patterns: { type: string; pattern: string }[];
    }[];
    assert.deepEqual(
      listed.map((w) => [w.id, w.patterns.map((p) => `${p.type} ${p.pattern}`)]),
      [[made.id, ['topic session expiry', 'symbol src/auth/session.ts::openSession']]],
    );
    assert.ok((await s.client.listResources()).resources.some((r) => r.uri === made.uri));
    // The same patterns again renew the watch instead of adding a second one.
    const again = await ok(s, 'context_subscribe', {
      patterns: [
        { type: 'symbol', pattern: 'src/auth/session.ts::openSession' },
        { type: 'topic', pattern: 'session expiry' },
      ],
    });
    assert.equal(again.id, made.id);
    assert.equal(again.renewed, true);
    await ok(s, 'unwatch', { id: made.id });
    assert.deepEqual((await ok(s, 'list_watches')).watches, []);
  });

  it('refuses bad watches with a clear error and adds nothing', async () => {
    const refused = async (args: Record<string, unknown>, message: RegExp) => {
      const r = await call(s, 'context_subscribe', args);
      assert.ok(r.isError, `accepted ${JSON.stringify(args).slice(0, 80)}`);
      assert.match(textOf(r), message);
    };
    await refused({ patterns: [] }, /at least one pattern/);
    await refused(
      { patterns: [{ type: 'regex', pattern: 'x' }] },
      /Unknown watch pattern type "regex": use file, symbol or topic/,
    );
    await refused({ patterns: [{ type: 'file', pattern: '../outside/**' }] }, /leaves the workspace/);
    await refused({ patterns: [{ type: 'file', pattern: '/etc/**' }] }, /relative to the workspace root/);
    await refused({ patterns: [{ type: 'symbol', pattern: '../../x.ts::f' }] }, /leaves the workspace/);
    await refused({ patterns: [{ type: 'topic', pattern: 'x'.repeat(201) }] }, /at most 200 characters/);
    await refused(
      { patterns: [{ type: 'file', pattern: 'src/**' }], cooldownMs: -1 },
      /cooldownMs must be a number from 0 to 86400000/,
    );
    await refused(
      { patterns: [{ type: 'file', pattern: 'src/**' }], cooldownMs: 10 ** 9 },
      /cooldownMs must be a number from 0 to 86400000/,
    );
    assert.deepEqual((await ok(s, 'list_watches')).watches, [], 'nothing was added');

    for (let i = 0; i < 20; i++)
      await ok(s, 'context_subscribe', { patterns: [{ type: 'file', pattern: `src/area${i}/**` }] });
    await refused({ patterns: [{ type: 'file', pattern: 'src/one-too-many/**' }] }, /limit of 20 watches/);
    assert.equal(((await ok(s, 'list_watches')).watches as unknown[]).length, 20);

    const unknown = await call(s, 'unwatch', { id: 'wnope' });
    assert.ok(unknown.isError);
    assert.match(textOf(unknown), /No watch has the id “wnope”; list_watches shows them/);
  });

  it('matches a pathological glob without hanging', async () => {
    const glob = `${'**/'.repeat(30)}${'*a'.repeat(40)}`;
    const made = await ok(s, 'context_subscribe', { patterns: [{ type: 'file', pattern: glob }], cooldownMs: 0 });
    appendFileSync(join(repo.dir, 'src/auth/session.ts'), `// ${'a'.repeat(60)}\n`);
    // A plain tool call answers while the change is being matched: the server never blocks.
    assert.equal(((await ok(s, 'list_watches')).watches as { id: string }[])[0].id, made.id);
  });
});
