import * as assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { makeWorkspace, sleep, startServer, type ServerUnderTest } from '../../fixtures/mcp/harness';

const LIST_CHANGED = 'notifications/resources/list_changed';
/** Long enough for a change to be noticed (debounce 100 ms) several times over. */
const QUIET_MS = 600;

function text(r: unknown): string {
  const c = (r as CallToolResult).content[0];
  return c && c.type === 'text' ? c.text : '';
}

async function call(s: ServerUnderTest, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return await s.client.callTool({ name, arguments: args });
}

async function rpcError(p: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await p;
  } catch (err) {
    return err as { code: number; message: string };
  }
  assert.fail('expected the request to fail');
}

async function snapshot(s: ServerUnderTest): Promise<string> {
  const subs = await call(s, 'list_subscriptions');
  const resources = await s.client.listResources();
  return JSON.stringify([subs.structuredContent, resources.resources.map((r) => r.uri)]);
}

describe('MCP server over stdio', function () {
  this.timeout(20000);
  let ws: ReturnType<typeof makeWorkspace>;
  let s: ServerUnderTest;

  beforeEach(async () => {
    ws = makeWorkspace();
    s = await startServer(ws.root);
  });

  afterEach(async () => {
    await s.close();
    ws.cleanup();
  });

  it('advertises its tools, resources, templates and resource subscriptions', async () => {
    const caps = s.client.getServerCapabilities();
    assert.equal(caps?.resources?.subscribe, true);
    assert.equal(caps?.resources?.listChanged, true);

    const tools = (await s.client.listTools()).tools;
    assert.deepEqual(tools.map((t) => t.name).sort(), [
      'context_subscribe',
      'context_suggest',
      'list_subscriptions',
      'list_watches',
      'poll_updates',
      'subscribe_file',
      'subscribe_memory',
      'suggestion_feedback',
      'unsubscribe',
      'unsubscribe_all',
      'unwatch',
    ]);
    const subscribeFile = tools.find((t) => t.name === 'subscribe_file')!;
    assert.deepEqual(subscribeFile.inputSchema.required, ['path']);

    const resources = (await s.client.listResources()).resources.map((r) => r.uri);
    assert.deepEqual(resources, ['context://subscriptions', 'context://decisions']);
    const templates = (await s.client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
    assert.deepEqual(templates, [
      'context://subscription/{id}',
      'context://suggestions/{+path}',
      'context://decision/{number}',
      'context://watch/{id}',
      'context://file/{+path}',
    ]);
  });

  it('ranks suggestions for a file and line, as text and as structured JSON', async () => {
    const r = await call(s, 'context_suggest', { file: 'src/auth/AuthService.ts', line: 6 });
    assert.ok(!r.isError, text(r));
    const structured = r.structuredContent as {
      id: string;
      items: { type: string; title: string; reason: string; location: { path?: string } }[];
    };
    // ADR 1 names AuthService; ADR 2 does not, and the file itself holds nothing else to warn about.
    assert.deepEqual(
      structured.items.map((i) => [i.type, i.location.path]),
      [['decision', 'docs/adr/0001-use-jwt.md']],
    );
    assert.match(structured.items[0].title, /Use short-lived JWT tokens/);
    assert.match(text(r), /for src\/auth\/AuthService\.ts:6 /);
    // Grouped by kind as on every surface; the number is the itemIndex suggestion_feedback takes.
    assert.match(text(r), /^Decisions \(1\)$/m);
    assert.match(
      text(r),
      // The record's age ends the row, as the panel's age column shows it.
      /^ {2}\[0\] ADR 0*1: Use short-lived JWT tokens \(\d\.\d\d\) · 0001-use-jwt\.md \(docs\/adr\) · (?:just now|\d+ \w+ ago)$/m,
    );
    assert.match(text(r), /why: .*AuthService/);

    const fb = await call(s, 'suggestion_feedback', { suggestionId: structured.id, itemIndex: 0, action: 'used' });
    assert.ok(!fb.isError, text(fb));
    const unknown = await call(s, 'suggestion_feedback', { suggestionId: 'sug_nope', itemIndex: 0, action: 'used' });
    assert.equal(unknown.isError, true);
    assert.match(text(unknown), /No suggestion with id '?sug_nope/);
  });

  it('lists a subscription made with subscribe_file, announces list_changed, and serves its current content', async () => {
    await s.client.subscribeResource({ uri: 'context://subscriptions' });
    const r = await call(s, 'subscribe_file', { path: 'src/util.ts', lines: { start: 2, end: 3 } });
    assert.ok(!r.isError, text(r));
    const sub = r.structuredContent as { id: string; kind: string; uri: string };
    assert.equal(sub.kind, 'lines');
    await s.waitFor('list_changed', () => s.received.some((n) => n.method === LIST_CHANGED));
    await s.waitFor('subscriptions resource update', () => s.updatesFor('context://subscriptions').length === 1);
    const subsJson = JSON.parse(
      ((await s.client.readResource({ uri: 'context://subscriptions' })).contents[0] as { text: string }).text,
    ) as { id: string }[];
    assert.deepEqual(
      subsJson.map((x) => x.id),
      [sub.id],
    );

    const listed = (await s.client.listResources()).resources.find((x) => x.uri === sub.uri);
    assert.ok(listed, 'the subscription is listed');
    assert.equal(listed.name, 'Subscription src/util.ts lines 2–3');
    const content = await s.client.readResource({ uri: sub.uri });
    // Lines come numbered as in the file, so an agent can cite them.
    assert.equal(
      (content.contents[0] as { text: string }).text,
      '2 | export const two = 2;\n3 | export const three = 3;',
    );

    const pattern = await call(s, 'subscribe_file', { path: 'src/auth/AuthService.ts', pattern: 'TODO|validate' });
    const pUri = (pattern.structuredContent as { uri: string }).uri;
    const pText = (await s.client.readResource({ uri: pUri })).contents[0] as { text: string };
    assert.equal(pText.text, '2 |   validateToken(token: string): boolean {\n6 | // TODO: rotate signing keys');
    const pListed = (await s.client.listResources()).resources.find((x) => x.uri === pUri);
    assert.equal(pListed?.name, 'Subscription src/auth/AuthService.ts lines matching /TODO|validate/');

    const memory = await call(s, 'subscribe_memory', { query: 'redis' });
    const mUri = (memory.structuredContent as { uri: string }).uri;
    assert.match(
      ((await s.client.readResource({ uri: mUri })).contents[0] as { text: string }).text,
      /Keep sessions in Redis/,
    );

    const before = s.received.filter((n) => n.method === LIST_CHANGED).length;
    const un = await call(s, 'unsubscribe', { id: sub.id });
    assert.ok(!un.isError, text(un));
    await s.waitFor('second list_changed', () => s.received.filter((n) => n.method === LIST_CHANGED).length > before);
    const after = (await s.client.listResources()).resources.map((x) => x.uri);
    assert.ok(!after.includes(sub.uri));
    assert.equal((await rpcError(s.client.readResource({ uri: sub.uri }))).code, -32602);

    const all = await call(s, 'unsubscribe_all');
    assert.equal((all.structuredContent as { removed: number }).removed, 2);
    assert.deepEqual((await call(s, 'list_subscriptions')).structuredContent, { subscriptions: [] });
  });

  it('notifies exactly the subscribed URI whose file changed, and the fresh content can be read', async () => {
    const a = 'context://file/src/util.ts';
    const b = pathToFileURL(join(ws.root, 'src/auth/TokenRefresher.ts')).href;
    const c = 'context://file/src/auth/AuthService.ts';
    await s.client.subscribeResource({ uri: a });
    await s.client.subscribeResource({ uri: b });
    await s.client.subscribeResource({ uri: c });

    writeFileSync(join(ws.root, 'src/util.ts'), 'export const one = 100;\n');
    await s.waitFor(`update for ${a}`, () => s.updatesFor(a).length > 0);
    const fresh = await s.client.readResource({ uri: a });
    assert.equal((fresh.contents[0] as { text: string }).text, 'export const one = 100;\n');

    appendFileSync(join(ws.root, 'src/auth/TokenRefresher.ts'), '// touched\n');
    await s.waitFor(`update for ${b}`, () => s.updatesFor(b).length > 0);
    await sleep(QUIET_MS);
    assert.equal(s.updatesFor(a).length, 1, 'one change, one notification');
    assert.equal(s.updatesFor(b).length, 1);
    assert.equal(s.updatesFor(c).length, 0, 'an unchanged file in the same folder is not announced');
    assert.ok(s.received.every((n) => n.method !== 'notifications/resources/updated' || [a, b].includes(n.uri!)));
  });

  it('sends nothing more for a URI after resources/unsubscribe', async () => {
    const a = 'context://file/src/util.ts';
    await s.client.subscribeResource({ uri: a });
    writeFileSync(join(ws.root, 'src/util.ts'), 'v2\n');
    await s.waitFor('first update', () => s.updatesFor(a).length === 1);

    await s.client.unsubscribeResource({ uri: a });
    writeFileSync(join(ws.root, 'src/util.ts'), 'v3\n');
    await sleep(QUIET_MS);
    assert.equal(s.updatesFor(a).length, 1);
  });

  it('also sees a save done by renaming a new file over the old one', async () => {
    const a = 'context://file/src/util.ts';
    await s.client.subscribeResource({ uri: a });
    writeFileSync(join(ws.root, 'src/util.ts.tmp'), 'saved atomically\n');
    const { renameSync } = await import('node:fs');
    renameSync(join(ws.root, 'src/util.ts.tmp'), join(ws.root, 'src/util.ts'));
    await s.waitFor('update after rename', () => s.updatesFor(a).length === 1);
    writeFileSync(join(ws.root, 'src/util.ts'), 'and again\n');
    await s.waitFor('update after the next write', () => s.updatesFor(a).length === 2);
  });

  it('updates subscription content, decisions and suggestions resources when what they show changes', async () => {
    const r = await call(s, 'subscribe_file', { path: 'src/util.ts', pattern: 'two' });
    const subUri = (r.structuredContent as { uri: string }).uri;
    await s.client.subscribeResource({ uri: subUri });
    await s.client.subscribeResource({ uri: 'context://decisions' });
    await s.client.subscribeResource({ uri: 'context://decision/1' });
    await s.client.subscribeResource({ uri: 'context://decision/2' });
    const sugUri = 'context://suggestions/src/auth/AuthService.ts';
    await s.client.subscribeResource({ uri: sugUri });

    // A line the pattern filters out changes nothing the subscription shows.
    appendFileSync(join(ws.root, 'src/util.ts'), 'export const four = 4;\n');
    await sleep(QUIET_MS);
    assert.equal(s.updatesFor(subUri).length, 0);
    appendFileSync(join(ws.root, 'src/util.ts'), 'export const twoAgain = 2;\n');
    await s.waitFor('subscription content update', () => s.updatesFor(subUri).length === 1);
    assert.match(((await s.client.readResource({ uri: subUri })).contents[0] as { text: string }).text, /twoAgain/);

    appendFileSync(join(ws.root, 'docs/adr/0001-use-jwt.md'), '\nRefresh tokens rotate daily.\n');
    await s.waitFor('decision 1 update', () => s.updatesFor('context://decision/1').length === 1);
    await sleep(QUIET_MS);
    assert.equal(s.updatesFor('context://decisions').length, 0, 'title, status and path did not change');
    assert.equal(s.updatesFor(sugUri).length, 0, 'the suggested items read the same');

    writeFileSync(
      join(ws.root, 'docs/adr/0003-audit-log.md'),
      '# 3. Write an audit log\n\nStatus: Proposed\n\nAuthService logs every login.\n',
    );
    await s.waitFor('decisions list update', () => s.updatesFor('context://decisions').length === 1);
    await s.waitFor('suggestions update', () => s.updatesFor(sugUri).length === 1);
    await sleep(QUIET_MS);
    assert.equal(s.updatesFor('context://decision/1').length, 1);
    assert.equal(s.updatesFor('context://decision/2').length, 0, 'an untouched decision is not announced');
    const list = JSON.parse(
      ((await s.client.readResource({ uri: 'context://decisions' })).contents[0] as { text: string }).text,
    ) as { number: number }[];
    assert.deepEqual(
      list.map((d) => d.number),
      [1, 2, 3],
    );
  });

  it('follows a file created in a folder that did not exist when watching began', async () => {
    const sug = 'context://suggestions/src/feature/new.ts';
    await s.client.subscribeResource({ uri: sug });
    const read = async () =>
      JSON.parse(((await s.client.readResource({ uri: sug })).contents[0] as { text: string }).text) as {
        items: unknown[];
        notes?: string[];
      };
    assert.match((await read()).notes?.join('\n') ?? '', /src\/feature\/new\.ts does not exist yet/);
    mkdirSync(join(ws.root, 'src/feature'));
    writeFileSync(join(ws.root, 'src/feature/new.ts'), '// FIXME: handle errors\n');
    await s.waitFor('suggestions for the new file', () => s.updatesFor(sug).length >= 1);
    assert.doesNotMatch((await read()).notes?.join('\n') ?? '', /does not exist/);
  });

  it('refuses bad tool arguments with a clear message and changes nothing', async () => {
    await call(s, 'subscribe_file', { path: 'src/util.ts' });
    const before = await snapshot(s);
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['context_suggest', { file: 'src/util.ts', line: 'seven' }, /line/],
      ['context_suggest', {}, /Give a file, a symbol, or both/],
      ['context_suggest', { file: 'src/util.ts', line: 0 }, /line/],
      // The words every surface answers a missing file with (ContextService.suggestForPath).
      [
        'context_suggest',
        { file: 'src/missing.ts' },
        /src\/missing\.ts does not exist in the workspace; check the path/,
      ],
      ['subscribe_file', {}, /path/],
      ['subscribe_file', { path: 42 }, /path/],
      ['subscribe_file', { path: 'src/util.ts', lines: { start: 5, end: 2 } }, /ends before it starts/],
      ['subscribe_file', { path: 'src/util.ts', pattern: '([' }, /Invalid regular expression/],
      ['subscribe_file', { path: 'src/missing.ts' }, /does not exist/],
      ['subscribe_memory', { query: '' }, /query/],
      ['unsubscribe', { id: 'sub_404' }, /No subscription has the id “sub_404”/],
      ['unsubscribe', {}, /id/],
      ['suggestion_feedback', { suggestionId: 'x', itemIndex: 0, action: 'loved' }, /action/],
      ['suggestion_feedback', { suggestionId: 'x', itemIndex: -1, action: 'used' }, /itemIndex/],
      ['context_subscribe', { patterns: [] }, /at least one pattern/],
      [
        'context_subscribe',
        { patterns: [{ type: 'file', pattern: 'src/**' }], minRelevanceScore: 2 },
        /minRelevanceScore/,
      ],
      ['poll_updates', { uris: ['context://nowhere'] }, /Unknown resource context:\/\/nowhere/],
    ];
    for (const [name, args, message] of cases) {
      const r = await call(s, name, args);
      assert.equal(r.isError, true, `${name} ${JSON.stringify(args)} should fail`);
      assert.match(text(r), message, `${name} ${JSON.stringify(args)}`);
    }
    assert.equal(await snapshot(s), before);
    const ok = await call(s, 'context_subscribe', {
      patterns: [{ type: 'file', pattern: 'src/**', priority: 1 }],
      minRelevanceScore: 0.7,
      cooldownMs: 10000,
    });
    assert.ok(!ok.isError, text(ok));
    const watchId = (ok.structuredContent as { id: string }).id;
    assert.ok(watchId.length > 0);
    assert.match(text(ok), new RegExp(`Watching file src/\\*\\* \\(id ${watchId}\\)`));
  });

  it('refuses unknown URIs with invalid params', async () => {
    const before = await snapshot(s);
    for (const uri of [
      'context://nowhere',
      'http://example.com/x',
      'context://decision/first',
      'context://subscription/sub_404',
      'context://decision/99',
      'context://file/src/missing.ts',
    ]) {
      assert.equal((await rpcError(s.client.readResource({ uri }))).code, -32602, `read ${uri}`);
      assert.equal((await rpcError(s.client.subscribeResource({ uri }))).code, -32602, `subscribe ${uri}`);
    }
    assert.match(
      (await rpcError(s.client.readResource({ uri: 'context://nowhere' }))).message,
      /Unknown resource context:\/\/nowhere/,
    );
    assert.equal(await snapshot(s), before);
  });

  it('never reads or watches anything outside the root, however the path is spelled', async () => {
    symlinkSync(join(ws.base, 'outside.txt'), join(ws.root, 'escape.txt'));
    const before = await snapshot(s);
    const outsideUris = [
      'context://file/../outside.txt',
      'context://file/%2e%2e/outside.txt',
      'context://file/src/%2E%2E/%2e%2e/outside.txt',
      'context://file/%2F' + encodeURIComponent(join(ws.base, 'outside.txt').slice(1)),
      'context://file/..%2Foutside.txt',
      'context://suggestions/../outside.txt',
      pathToFileURL(join(ws.base, 'outside.txt')).href,
      pathToFileURL(ws.root).href + '/%2e%2e/outside.txt',
      'file:///etc/passwd',
      'context://file/escape.txt',
      'context://file/.env',
    ];
    for (const uri of outsideUris) {
      const read = await rpcError(s.client.readResource({ uri }));
      assert.equal(read.code, -32602, `read ${uri}`);
      assert.doesNotMatch(read.message, /outside the workspace\n/, 'never the outside content');
      assert.equal((await rpcError(s.client.subscribeResource({ uri }))).code, -32602, `subscribe ${uri}`);
    }
    for (const path of [
      '../outside.txt',
      join(ws.base, 'outside.txt'),
      '/etc/passwd',
      'src/../../outside.txt',
      'escape.txt',
      '.env',
    ]) {
      const r = await call(s, 'subscribe_file', { path });
      assert.equal(r.isError, true, `subscribe_file ${path}`);
      assert.match(text(r), /outside the workspace|secret/, path);
      const sug = await call(s, 'context_suggest', { file: path });
      if (!['escape.txt', '.env'].includes(path)) assert.equal(sug.isError, true, `context_suggest ${path}`);
    }
    assert.equal(await snapshot(s), before);
    // Nothing outside was watched: changing it announces nothing.
    appendFileSync(join(ws.base, 'outside.txt'), 'more\n');
    await sleep(QUIET_MS);
    assert.equal(s.received.length, 0);
  });

  it('serves no secret through a link inside the root, as a file or as a subscription', async () => {
    mkdirSync(join(ws.root, '.git'));
    writeFileSync(join(ws.root, '.git', 'config'), '[credential]\n  helper = store\n');
    writeFileSync(join(ws.root, 'id_rsa'), '-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n');
    symlinkSync(join(ws.root, '.env'), join(ws.root, 'innocent.txt'));
    symlinkSync(join(ws.root, '.git', 'config'), join(ws.root, 'gitcfg.txt'));
    symlinkSync(join(ws.root, 'id_rsa'), join(ws.root, 'key.txt'));
    for (const name of ['innocent.txt', 'gitcfg.txt', 'key.txt']) {
      const read = await rpcError(s.client.readResource({ uri: `context://file/${name}` }));
      assert.equal(read.code, -32602, name);
      assert.match(read.message, /secret|\.git folder/, name);
      const sub = await call(s, 'subscribe_file', { path: name });
      assert.equal(sub.isError, true, name);
      assert.match(text(sub), /secret|\.git folder/, name);
    }
  });

  it('serves a catastrophic pattern subscription and keeps answering', async () => {
    writeFileSync(join(ws.root, 'src/aaa.txt'), 'a'.repeat(41) + '!\naaaa\n');
    const sub = await call(s, 'subscribe_file', { path: 'src/aaa.txt', pattern: '(a+)+$' });
    assert.ok(!sub.isError, text(sub));
    const read = await s.client.readResource({ uri: (sub.structuredContent as { uri: string }).uri });
    assert.match((read.contents[0] as { text: string }).text, /2 \| aaaa/);
    await s.client.ping();
    const refused = await call(s, 'subscribe_file', { path: 'src/aaa.txt', pattern: '(a)\\1' });
    assert.equal(refused.isError, true);
    assert.match(text(refused), /\/\(a\)\\1\/ uses a back-reference/);
  });

  it('redacts well-known keys from files it serves, with a note', async () => {
    const token = ['ghp_', 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'].join('');
    writeFileSync(join(ws.root, 'src/deploy.ts'), `const token = "${token}";\n`);
    const read = (await s.client.readResource({ uri: 'context://file/src/deploy.ts' })).contents[0] as { text: string };
    assert.ok(!read.text.includes(token), read.text);
    assert.match(
      read.text,
      /^const token = "\[redacted: GitHub token\]";\n\n\[1 secret redacted before leaving this machine: GitHub token\]$/,
    );
  });

  it('answers poll_updates with the resources changed since the previous poll', async () => {
    const first = await call(s, 'poll_updates', { uris: ['context://file/src/util.ts'] });
    assert.deepEqual((first.structuredContent as { changed: string[] }).changed.sort(), [
      'context://decisions',
      'context://file/src/util.ts',
      'context://subscriptions',
    ]);
    const quiet = await call(s, 'poll_updates');
    assert.deepEqual(quiet.structuredContent, { changed: [], removed: [], firstPoll: false, firings: [], cursor: 0 });
    assert.match(text(quiet), /Nothing changed/);

    const sub = await call(s, 'subscribe_file', { path: 'src/auth/AuthService.ts' });
    const subUri = (sub.structuredContent as { uri: string }).uri;
    writeFileSync(join(ws.root, 'src/util.ts'), 'export const changed = true;\n');
    const after = await call(s, 'poll_updates');
    assert.deepEqual(
      (after.structuredContent as { changed: string[] }).changed.sort(),
      ['context://file/src/util.ts', 'context://subscriptions', subUri].sort(),
    );

    await call(s, 'unsubscribe_all');
    const gone = await call(s, 'poll_updates');
    assert.deepEqual(gone.structuredContent, {
      changed: ['context://subscriptions'],
      removed: [subUri],
      firstPoll: false,
      firings: [],
      cursor: 0,
    });
  });

  it('caps resource subscriptions per client with a message naming the limit', async () => {
    mkdirSync(join(ws.root, 'many'));
    for (let i = 0; i <= 100; i++) writeFileSync(join(ws.root, 'many', `f${i}.txt`), String(i));
    for (let i = 0; i < 100; i++) await s.client.subscribeResource({ uri: `context://file/many/f${i}.txt` });
    const err = await rpcError(s.client.subscribeResource({ uri: 'context://file/many/f100.txt' }));
    assert.equal(err.code, -32602);
    assert.match(err.message, /At most 100 resources/);
    await s.client.unsubscribeResource({ uri: 'context://file/many/f0.txt' });
    await s.client.subscribeResource({ uri: 'context://file/many/f100.txt' });
    writeFileSync(join(ws.root, 'many', 'f100.txt'), 'changed');
    await s.waitFor('update for the last one', () => s.updatesFor('context://file/many/f100.txt').length === 1);
  });

  it('serves files whose names have spaces and non-ASCII letters', async () => {
    writeFileSync(join(ws.root, 'docs/my notes ü.md'), 'hello\n');
    const uri = 'context://file/docs/my%20notes%20%C3%BC.md';
    assert.equal(((await s.client.readResource({ uri })).contents[0] as { text: string }).text, 'hello\n');
    const viaFileUrl = pathToFileURL(join(ws.root, 'docs/my notes ü.md')).href;
    await s.client.subscribeResource({ uri: viaFileUrl });
    appendFileSync(join(ws.root, 'docs/my notes ü.md'), 'world\n');
    await s.waitFor('update for the file URL', () => s.updatesFor(viaFileUrl).length === 1);
  });

  it('exits on its own when the client closes stdin, even while watching files', async () => {
    await s.close();
    // The SDK client waits 2 s, then sends SIGTERM to a server that lingers: the server's own log says
    // which ended it, so the test reads that instead of timing the close.
    const verbose = await startServer(ws.root, ['--verbose']);
    await verbose.client.subscribeResource({ uri: 'context://file/src/util.ts' });
    await verbose.client.subscribeResource({ uri: 'context://decisions' });
    await verbose.close();
    await verbose.waitFor(
      'the close to be logged',
      () => /client closed the connection/.test(verbose.stderr()),
      20_000,
    );
    assert.doesNotMatch(verbose.stderr(), /SIGTERM/);
    await verbose.waitFor(
      'the process to be gone',
      () => {
        try {
          process.kill(verbose.pid, 0);
          return false;
        } catch {
          return true;
        }
      },
      20_000,
    );
  });

  it('keeps stdout for the protocol: logs go to stderr', async () => {
    // Every message the client parsed was valid JSON-RPC, or connect and list would have failed;
    // the server's start-up line goes to stderr.
    await s.client.listTools();
    await s.close();
    const verbose = await startServer(ws.root, ['--verbose']);
    try {
      await verbose.client.listResources();
      await verbose.waitFor('a log line on stderr', () => /serving .* on stdio/.test(verbose.stderr()));
    } finally {
      await verbose.close();
    }
    await verbose.waitFor('the close to be logged', () => /client closed the connection/.test(verbose.stderr()), 2000);
  });
});
