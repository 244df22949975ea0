import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { symlinkSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { resolveConfig } from '../../../src/core/config';
import { MemoryStore } from '../../../src/core/memory/memoryStore';
import { SubscriptionMaterializer } from '../../../src/core/subscriptions/materializer';
import { renderSubscriptions as renderForPrompt } from '../../../src/core/prompt/render';
import { SubscriptionRegistry } from '../../../src/core/subscriptions/registry';
import { findSymbolInText, type SymbolLocator } from '../../../src/core/subscriptions/symbolFinder';
import { Clock, TempWorkspace } from './fixtures';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

const SOURCE = `import { x } from './x';

/** Parses the config. */
export function parseConfig(text: string): Config {
  const lines = text.split('\\n');
  if (lines.length === 0) {
    return {};
  }
  return { lines };
}

export class Cache {
  private map = new Map<string, number>();
  get(key: string): number | undefined {
    return this.map.get(key);
  }
}
`;

describe('SubscriptionMaterializer', () => {
  let ws: TempWorkspace;
  let clock: Clock;
  beforeEach(() => {
    ws = new TempWorkspace();
    clock = new Clock();
  });
  afterEach(() => ws.cleanup());

  async function setup(options: { symbols?: SymbolLocator; maxChars?: number } = {}) {
    const store = await ws.openStore();
    const config = resolveConfig({
      subscriptions: { maxActive: 10, maxChars: options.maxChars ?? 2000, expiryHours: 24 },
    }).subscriptions;
    const reg = new SubscriptionRegistry(store, { root: ws.root, now: clock.now, config });
    const memory = new MemoryStore(store, { now: clock.now });
    const mat = new SubscriptionMaterializer(reg, { config, memory, symbols: options.symbols });
    return { store, reg, mat, memory };
  }

  it('materializes a whole file, a line range and pattern-filtered lines with their line numbers', async () => {
    ws.write('src/a.ts', 'one\ntwo TODO: fix\nthree\nfour\nfive // todo later\n');
    const { reg, mat } = await setup();
    reg.subscribe({ kind: 'file', target: 'src/a.ts' });
    reg.subscribe({ kind: 'lines', target: 'src/a.ts#L2-3' });
    reg.subscribe({ kind: 'pattern', target: 'src/a.ts~/todo/i' });
    const [file, lines, pattern] = await mat.materialize();
    assert.equal(file.text, 'one\ntwo TODO: fix\nthree\nfour\nfive // todo later\n');
    assert.equal(file.hash, sha(file.text));
    assert.equal(lines.text, '2 | two TODO: fix\n3 | three');
    assert.equal(pattern.text, '2 | two TODO: fix\n5 | five // todo later');
    for (const r of [file, lines, pattern]) assert.equal(r.note, undefined);
  });

  it('caps content at maxChars with an explicit truncation notice and hashes the full content', async () => {
    const full = Array.from({ length: 400 }, (_, i) => `line ${String(i).padStart(4, '0')} of a long file`).join('\n');
    ws.write('big.txt', full);
    const { reg, mat } = await setup({ maxChars: 2000 });
    reg.subscribe({ kind: 'file', target: 'big.txt' });
    const [r] = await mat.materialize();
    assert.equal(r.truncated, true);
    assert.equal(r.chars, full.length);
    assert.equal(r.hash, sha(full));
    const [body, notice] = [r.text.slice(0, r.text.lastIndexOf('\n')), r.text.slice(r.text.lastIndexOf('\n') + 1)];
    assert.ok(body.length <= 2000);
    assert.ok(full.startsWith(body));
    assert.equal(
      notice,
      `… [truncated: showing ${body.length.toLocaleString('en-US')} of ${full.length.toLocaleString('en-US')} characters; subscribe to a line range for more]`,
    );
  });

  it('says whether content changed since the last turn, and using a subscription renews it', async () => {
    ws.write('src/a.ts', 'const a = 1;\n');
    const { reg, mat } = await setup();
    const sub = reg.subscribe({ kind: 'file', target: 'src/a.ts' }).subscription;
    assert.equal((await mat.materialize())[0].changedSinceLastTurn, true);
    clock.advanceHours(20);
    assert.equal((await mat.materialize())[0].changedSinceLastTurn, false);
    ws.write('src/a.ts', 'const a = 2;\n');
    clock.advanceHours(20);
    const [changed] = await mat.materialize();
    assert.equal(changed.changedSinceLastTurn, true);
    assert.equal(changed.expiresAt, clock.t + 24 * 3600_000);
    assert.equal((await mat.materialize())[0].changedSinceLastTurn, false);
    // 40 h after subscribing it is still alive because each turn renewed it.
    assert.equal(reg.get(sub.id)?.id, sub.id);
  });

  it('turns a missing file or symbol into a one-line note instead of failing', async () => {
    ws.write('src/a.ts', SOURCE);
    const { reg, mat } = await setup();
    reg.subscribe({ kind: 'file', target: 'src/gone.ts' });
    reg.subscribe({ kind: 'symbol', target: 'src/a.ts::doesNotExist' });
    reg.subscribe({ kind: 'lines', target: 'src/a.ts#L500-510' });
    const [file, symbol, lines] = await mat.materialize();
    assert.match(file.note ?? '', /src\/gone\.ts does not exist/);
    assert.equal(file.text, `[${file.note}]`);
    assert.match(symbol.note ?? '', /symbol doesNotExist was not found in src\/a\.ts/);
    assert.match(lines.note ?? '', /has 17 lines/);
    const text = renderForPrompt([file, symbol, lines]);
    assert.match(text, /unavailable/);
  });

  it('finds a symbol body again after edits moved and changed it', async () => {
    ws.write('src/a.ts', SOURCE);
    const { reg, mat } = await setup();
    reg.subscribe({ kind: 'symbol', target: 'src/a.ts', symbol: 'parseConfig' });
    reg.subscribe({ kind: 'symbol', target: 'src/a.ts::Cache.get' });
    const [fn, method] = await mat.materialize();
    assert.deepEqual(fn.location, { path: 'src/a.ts', startLine: 3, endLine: 10 });
    assert.match(fn.text, /^ 3 \| \/\*\* Parses the config\. \*\/\n 4 \| export function parseConfig/);
    assert.match(fn.text, /10 \| }$/);
    assert.deepEqual(method.location, { path: 'src/a.ts', startLine: 14, endLine: 16 });

    const edited = SOURCE.replace(
      "import { x } from './x';\n",
      "import { x } from './x';\nimport { y } from './y';\n\nconst LIMIT = 3;\n",
    ).replace('return { lines };', 'return { lines: lines.slice(0, LIMIT) };');
    ws.write('src/a.ts', edited);
    const [fn2] = await mat.materialize();
    assert.deepEqual(fn2.location, { path: 'src/a.ts', startLine: 6, endLine: 13 });
    assert.match(fn2.text, /lines\.slice\(0, LIMIT\)/);
    assert.equal(fn2.changedSinceLastTurn, true);
  });

  it('finds a symbol given without a path, and prefers the code index when one is plugged in', async () => {
    ws.write('src/a.ts', SOURCE);
    ws.write(
      'lib/util.py',
      'import os\n\n\ndef helper(x):\n    if x:\n        return 1\n\n    return 2\n\n\ndef other():\n    pass\n',
    );
    const calls: string[] = [];
    const locator: SymbolLocator = {
      async locate(path, name) {
        calls.push(`${path}|${name}`);
        return name === 'indexed' ? { path: 'src/a.ts', startLine: 12, endLine: 12 } : undefined;
      },
    };
    const { reg, mat } = await setup({ symbols: locator });
    reg.subscribe({ kind: 'symbol', target: 'helper' });
    reg.subscribe({ kind: 'symbol', target: 'indexed' });
    const [helper, indexed] = await mat.materialize();
    assert.deepEqual(helper.location, { path: 'lib/util.py', startLine: 4, endLine: 8 });
    assert.match(helper.text, /8 \|     return 2$/);
    assert.equal(indexed.text, '12 | export class Cache {');
    assert.deepEqual(calls, ['|helper', '|indexed']);
  });

  it('refuses binary files and links that escape the workspace at read time', async () => {
    ws.write('img.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x01]));
    ws.write('src/ok.ts', 'ok');
    ws.write('../outside/private.txt', 'do not read me');
    const { reg, mat } = await setup();
    reg.subscribe({ kind: 'file', target: 'img.png' });
    reg.subscribe({ kind: 'file', target: 'src/later.ts' });
    // The link appears after subscribing.
    symlinkSync(join(ws.outside, 'private.txt'), join(ws.root, 'src', 'later.ts'));
    const [bin, link] = await mat.materialize();
    assert.match(bin.note ?? '', /binary/);
    assert.match(link.note ?? '', /outside the workspace/);
    assert.ok(!link.text.includes('do not read me'));
    unlinkSync(join(ws.root, 'src', 'later.ts'));
  });

  it('never serves a secret through a link made after subscribing', async () => {
    ws.write('.env', 'API_KEY=do-not-leak\n');
    ws.write('notes.txt', 'harmless');
    const { reg, mat } = await setup();
    reg.subscribe({ kind: 'file', target: 'notes.txt' });
    unlinkSync(join(ws.root, 'notes.txt'));
    symlinkSync(join(ws.root, '.env'), join(ws.root, 'notes.txt'));
    const [r] = await mat.materialize();
    assert.match(r.note ?? '', /secret/);
    assert.ok(!r.text.includes('do-not-leak'), r.text);
  });

  it('redacts well-known keys from tracked files and says what it took out', async () => {
    const key = ['sk-live-', 'abcdefghijklmnopqrstuvwx1234'].join('');
    const aws = ['AKIA', 'IOSFODNN7', 'EXAMPLE'].join('');
    ws.write('config/api-token.json', `{\n  "aws": "${aws}",\n  "name": "svc"\n}\n`);
    ws.write('src/client.ts', `export const client = new Client({ apiKey: "${key}" });\n`);
    const { reg, mat } = await setup();
    reg.subscribe({ kind: 'file', target: 'config/api-token.json' });
    reg.subscribe({ kind: 'pattern', target: 'src/client.ts', pattern: 'apiKey' });
    const [json, code] = await mat.materialize();
    assert.ok(!json.text.includes(aws) && !code.text.includes(key), json.text + code.text);
    assert.match(json.text, /"aws": "\[redacted: AWS access key\]"/);
    assert.match(json.text, /\n\[1 secret redacted before leaving this machine: AWS access key\]$/);
    assert.match(code.text, /apiKey: "\[redacted: API key\]"/);
    assert.deepEqual(code.redactions, [{ label: 'API key', count: 1 }]);
  });

  it('materializes a memory subscription from past episodes, skipping the current conversation', async () => {
    const { reg, mat, memory } = await setup();
    memory.saveEpisode({
      conversationId: 'c1',
      prompt: 'How do we invalidate the cache?',
      answer: 'Bump the schema version in meta.',
      at: clock.t - 3600_000,
    });
    memory.saveEpisode({
      conversationId: 'c2',
      prompt: 'Cache invalidation again',
      answer: 'Current conversation text.',
      at: clock.t,
    });
    reg.subscribe({ kind: 'memory', target: 'cache invalidation' });
    const [r] = await mat.materialize({ conversationId: 'c2' });
    assert.match(r.text, /How do we invalidate the cache\?/);
    assert.ok(!r.text.includes('Current conversation text'));
    assert.match(renderForPrompt([r]), /memory search "cache invalidation"/);
  });

  it('renders labelled blocks with the path, lines and whether each changed', async () => {
    ws.write('src/a.ts', 'a\nb\nc\n');
    const { reg, mat } = await setup();
    const s = reg.subscribe({ kind: 'lines', target: 'src/a.ts#L2-3' }).subscription;
    await mat.materialize();
    const text = renderForPrompt(await mat.materialize());
    assert.match(text, new RegExp(`Subscription ${s.id} · src/a\\.ts lines 2-3 \\(unchanged since last turn\\)`));
    assert.match(text, /```\n2 \| b\n3 \| c\n```/);
  });
});

describe('findSymbolInText', () => {
  it('finds functions, classes, methods, consts and python defs with their bodies', () => {
    const ts =
      'const a = 1;\nexport const handler = async (req) => {\n  return req;\n};\nfunction f() { return "}" }\nclass K {\n  m(): void {\n    if (x) { y(); }\n  }\n}\n';
    assert.deepEqual(findSymbolInText(ts, 'a'), { path: '', startLine: 1, endLine: 1 });
    assert.deepEqual(findSymbolInText(ts, 'handler'), { path: '', startLine: 2, endLine: 4 });
    assert.deepEqual(findSymbolInText(ts, 'f'), { path: '', startLine: 5, endLine: 5 });
    assert.deepEqual(findSymbolInText(ts, 'K'), { path: '', startLine: 6, endLine: 10 });
    assert.deepEqual(findSymbolInText(ts, 'K.m'), { path: '', startLine: 7, endLine: 9 });
    assert.equal(findSymbolInText(ts, 'y'), undefined, 'a call is not a declaration');
    const py =
      'class Shape:\n    def area(self):\n        return 0\n\n    @property\n    def name(self):\n        return "s"\n\nx = 1\n';
    assert.deepEqual(findSymbolInText(py, 'Shape'), { path: '', startLine: 1, endLine: 7 });
    assert.deepEqual(findSymbolInText(py, 'Shape.name'), { path: '', startLine: 5, endLine: 7 });
  });
});

describe('findSymbolInText on hostile lines', () => {
  it('still finds typed methods, generics, Python classes with comments and const declarations', () => {
    const ts =
      'class Repo {\n  async load<T>(id: string): Promise<Map<string, T>> {\n    return new Map();\n  }\n  save(x = { a: 1 }) {\n  }\n}\nexport const enabled = true;\n';
    assert.deepEqual(findSymbolInText(ts, 'Repo.load'), { path: '', startLine: 2, endLine: 4 });
    assert.deepEqual(findSymbolInText(ts, 'Repo.save'), { path: '', startLine: 5, endLine: 6 });
    assert.deepEqual(findSymbolInText(ts, 'enabled'), { path: '', startLine: 8, endLine: 8 });
    assert.deepEqual(findSymbolInText('class Point(Base):  # a point\n    x = 1\n', 'Point'), {
      path: '',
      startLine: 1,
      endLine: 2,
    });
    assert.equal(findSymbolInText('load(a);\n', 'load'), undefined, 'a call is not a declaration');
  });

  it('answers at once on lines built to make the declaration patterns backtrack', () => {
    // A hang guard, not a timing assertion: the child is killed if the search never ends.
    const script = `
      const { findSymbolInText } = require(${JSON.stringify(join(__dirname, '..', '..', '..', 'src', 'core', 'subscriptions', 'symbolFinder.js'))});
      const lines = [
        'class parse\\x00l' + ':#s'.repeat(40000),
        'function\\t' + '\\t'.repeat(60000) + '\\tfunctionparse',
        'parse(' + '):b'.repeat(40000) + '=',
        'const '.repeat(30000) + 'x',
        'parse' + ' '.repeat(60000) + '<' + ' '.repeat(60000),
      ];
      process.stdout.write(JSON.stringify(lines.map((l) => findSymbolInText(l + '\\n', 'parse') ?? null)));
    `;
    const child = spawnSync(process.execPath, ['-e', script], { timeout: 15_000, encoding: 'utf8' });
    assert.equal(child.signal, null, 'the search finished');
    assert.equal(child.status, 0, child.stderr);
    assert.deepEqual(JSON.parse(child.stdout), [{ path: '', startLine: 1, endLine: 1 }, null, null, null, null]);
  });
});
