import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  SubscriptionError,
  SubscriptionRegistry,
  type SubscriptionChange,
} from '../../../src/core/subscriptions/registry';
import { one } from '../../../src/core/store/sqlite';
import { Clock, TempWorkspace } from './fixtures';

const subscriber = join(__dirname, '..', '..', 'fixtures', 'subscriptions', 'subscriber.js');

/** Runs one subscribing process on the workspace's state folder; resolves with its summary. */
function runSubscriber(
  ws: TempWorkspace,
  mode: 'limit' | 'churn' | 'ack',
  prefix: string,
  count: number,
): Promise<{ ok: number; limited: number }> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [subscriber, ws.root, ws.stateDir, mode, prefix, String(count)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolveRun(JSON.parse(out) as { ok: number; limited: number })
        : reject(new Error(`subscriber ${prefix} exited ${code}: ${err}`)),
    );
  });
}

function reasonOf(fn: () => unknown): { reason: string; message: string } {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof SubscriptionError, `expected a SubscriptionError, got ${String(err)}`);
    return { reason: err.reason, message: err.message };
  }
  assert.fail('expected the call to be refused');
}

describe('SubscriptionRegistry', () => {
  let ws: TempWorkspace;
  let clock: Clock;
  beforeEach(() => {
    ws = new TempWorkspace();
    clock = new Clock();
    ws.write('src/a.ts', 'export const a = 1;\n');
    ws.write('src/b.ts', 'export const b = 2;\n');
  });
  afterEach(() => ws.cleanup());

  async function registry() {
    const store = await ws.openStore();
    return { store, reg: new SubscriptionRegistry(store, { root: ws.root, now: clock.now }) };
  }

  it('upserts by (scope, kind, target): the same file keeps its id and is renewed', async () => {
    const { reg } = await registry();
    const first = reg.subscribe({ kind: 'file', target: 'src/a.ts' });
    assert.equal(first.renewed, false);
    assert.match(first.subscription.id, /^[a-z2-7]{6}$/);
    assert.equal(first.subscription.scope, 'workspace');
    clock.advanceHours(2);
    const again = reg.subscribe({ kind: 'file', target: './src//a.ts' });
    assert.equal(again.renewed, true);
    assert.equal(again.subscription.id, first.subscription.id);
    assert.equal(again.subscription.renewedAt, clock.t);
    assert.equal(again.subscription.createdAt, first.subscription.createdAt);
    assert.equal(again.subscription.expiresAt, clock.t + 24 * 3600_000);
    assert.equal(reg.list().length, 1);
  });

  it('normalizes targets for lines, patterns, symbols and absolute paths inside the workspace', async () => {
    const { reg } = await registry();
    const byOption = reg.subscribe({ kind: 'lines', target: 'src/a.ts', lines: { start: 10, end: 20 } }).subscription;
    const byTarget = reg.subscribe({ kind: 'lines', target: 'src/a.ts#L10-20' }).subscription;
    assert.equal(byOption.target, 'src/a.ts#L10-20');
    assert.equal(byTarget.id, byOption.id);
    assert.deepEqual(byTarget.lines, { start: 10, end: 20 });

    const pat = reg.subscribe({ kind: 'pattern', target: 'src/a.ts', pattern: 'TODO|FIXME' }).subscription;
    assert.equal(pat.target, 'src/a.ts~/TODO|FIXME/');
    assert.equal(reg.subscribe({ kind: 'pattern', target: 'src/a.ts~/TODO|FIXME/' }).subscription.id, pat.id);
    assert.equal(reg.subscribe({ kind: 'pattern', target: 'src/a.ts~/todo/i' }).subscription.flags, 'i');

    const sym = reg.subscribe({ kind: 'symbol', target: 'src/a.ts', symbol: 'parse' }).subscription;
    assert.equal(sym.target, 'src/a.ts::parse');
    assert.equal(reg.subscribe({ kind: 'symbol', target: 'src/a.ts::parse' }).subscription.id, sym.id);
    // The palette and chat send the shown form `path::name` together with the name.
    const both = reg.subscribe({ kind: 'symbol', target: 'src/a.ts::parse', symbol: 'parse' }).subscription;
    assert.equal(both.id, sym.id);
    assert.equal(both.path, 'src/a.ts');
    const bare = reg.subscribe({ kind: 'symbol', target: 'Store.open' }).subscription;
    assert.equal(bare.target, '::Store.open');
    assert.equal(bare.path, undefined);

    const abs = reg.subscribe({ kind: 'file', target: join(ws.root, 'src', 'b.ts') }).subscription;
    assert.equal(abs.target, 'src/b.ts');
    const mem = reg.subscribe({ kind: 'memory', target: '  cache   invalidation ' }).subscription;
    assert.equal(mem.target, 'cache invalidation');
    assert.equal(new Set(reg.list().map((s) => s.id)).size, reg.list().length);
  });

  it('refuses an 11th subscription with a message naming the limit, and replaces the oldest on request', async () => {
    const { reg } = await registry();
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      ids.push(reg.subscribe({ kind: 'memory', target: `query ${i}` }).subscription.id);
      clock.advanceHours(0.1);
    }
    const refused = reasonOf(() => reg.subscribe({ kind: 'memory', target: 'one too many' }));
    assert.equal(refused.reason, 'limit');
    assert.match(refused.message, /limit of 10 active subscriptions/);
    assert.match(refused.message, /replace the oldest/);
    assert.ok(refused.message.includes(ids[0]), 'names the oldest one');
    assert.equal(reg.list().length, 10);
    assert.ok(!reg.list().some((s) => s.target === 'one too many'));

    // Renewing an existing one is not blocked by the limit.
    assert.equal(reg.subscribe({ kind: 'memory', target: 'query 5' }).renewed, true);

    const result = reg.subscribe({ kind: 'memory', target: 'one too many', replaceOldest: true });
    assert.equal(result.replaced?.id, ids[0]);
    const listed = reg.list().map((s) => s.id);
    assert.equal(listed.length, 10);
    assert.ok(!listed.includes(ids[0]));
    assert.ok(listed.includes(result.subscription.id));
    // Other scopes have their own limit.
    assert.doesNotThrow(() => reg.subscribe({ scope: 'agent', kind: 'file', target: 'src/a.ts' }));
  });

  it('expires subscriptions 24 h after their last renewal and purges them', async () => {
    const { store, reg } = await registry();
    const a = reg.subscribe({ kind: 'file', target: 'src/a.ts' }).subscription;
    reg.subscribe({ kind: 'file', target: 'src/b.ts' });
    clock.advanceHours(20);
    reg.subscribe({ kind: 'file', target: 'src/b.ts' }); // renew b only
    clock.advanceHours(5);
    assert.deepEqual(
      reg.list().map((s) => s.target),
      ['src/b.ts'],
    );
    assert.equal(reg.get(a.id), undefined);
    assert.equal(
      store.read((db) => one<{ n: number }>(db, 'SELECT count(*) AS n FROM subscriptions')?.n),
      1,
      'the expired row is purged',
    );
    clock.advanceHours(20);
    assert.deepEqual(reg.list(), []);
  });

  it('keeps subscriptions across a store close and reopen', async () => {
    const { store, reg } = await registry();
    const s = reg.subscribe({ kind: 'lines', target: 'src/a.ts#L1-3' }).subscription;
    store.dispose();
    const { reg: reopened } = await registry();
    const listed = reopened.list();
    assert.equal(listed.length, 1);
    assert.equal(listed[0].id, s.id);
    assert.deepEqual(listed[0].lines, { start: 1, end: 3 });
  });

  it('loses nothing when two stores on one state directory subscribe at the same time', async () => {
    const { store: s1, reg: r1 } = await registry();
    const { store: s2, reg: r2 } = await registry();
    r1.subscribe({ kind: 'file', target: 'src/a.ts' });
    r2.subscribe({ kind: 'file', target: 'src/b.ts' });
    r1.subscribe({ kind: 'memory', target: 'from one' });
    s1.flush();
    r2.subscribe({ kind: 'memory', target: 'from two' });
    s2.flush();
    s1.flush();
    const expected = ['from one', 'from two', 'src/a.ts', 'src/b.ts'];
    assert.deepEqual(
      r1
        .list()
        .map((s) => s.target)
        .sort(),
      expected,
    );
    assert.deepEqual(
      r2
        .list()
        .map((s) => s.target)
        .sort(),
      expected,
    );
    s1.dispose();
    s2.dispose();
    const { reg: r3 } = await registry();
    assert.deepEqual(
      r3
        .list()
        .map((s) => s.target)
        .sort(),
      expected,
    );
  });

  it('holds the limit of 10 active subscriptions when many processes subscribe at once', async function () {
    this.timeout(120_000);
    const runs = await Promise.all(Array.from({ length: 8 }, (_, p) => runSubscriber(ws, 'limit', `p${p}`, 5)));
    const { reg } = await registry();
    const active = reg.list();
    assert.equal(active.length, 10, `${active.length} active: ${active.map((s) => s.target).join(', ')}`);
    assert.equal(
      runs.reduce((n, r) => n + r.ok, 0),
      10,
      'exactly the successful subscribes are kept',
    );
    assert.equal(
      runs.reduce((n, r) => n + r.limited, 0),
      30,
      'every other one was refused with the limit',
    );
  });

  // Bounded for the unit suite; `npm run test:soak` runs 250–1,000 calls per process through the CLI and MCP.
  for (const [processes, count] of [
    [2, 100],
    [4, 50],
  ]) {
    it(`loses and duplicates nothing when ${processes} processes subscribe and unsubscribe at once`, async function () {
      this.timeout(180_000);
      await Promise.all(Array.from({ length: processes }, (_, p) => runSubscriber(ws, 'churn', `c${p}`, count)));
      const { reg } = await registry();
      for (let p = 0; p < processes; p++) {
        const expected = Array.from({ length: count }, (_, i) => i)
          .filter((i) => i % 25 === 0)
          .map((i) => `c${p} item ${i}`);
        assert.deepEqual(
          reg
            .list(`c${p}`)
            .map((s) => s.target)
            .sort(),
          expected.sort(),
          `process c${p}`,
        );
      }
      assert.equal(reg.list().length, processes * (count / 25));
    });
  }

  it('loses no acknowledged subscription when writers are killed at random moments', async function () {
    this.timeout(120_000);
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const acked = new Map<string, number>();
    for (let round = 0; round < 6; round++) {
      const prefix = `k${round}`;
      const child = spawn(process.execPath, [subscriber, ws.root, ws.stateDir, 'ack', prefix, '90'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      // Kill after a random number of acknowledged writes (0-30), mid-write or between writes.
      const after = Math.floor(random() * 30);
      await new Promise<void>((resolveKill) => {
        const check = () => {
          if ((out.match(/^ok /gm)?.length ?? 0) >= after || child.exitCode !== null) {
            child.stdout.off('data', check);
            resolveKill();
          }
        };
        child.stdout.on('data', check);
        child.once('exit', () => resolveKill());
        check();
      });
      child.kill('SIGKILL');
      await new Promise((r) => (child.exitCode !== null ? r(undefined) : child.once('exit', r)));
      acked.set(prefix, out.match(/^ok /gm)?.length ?? 0);
    }
    const { store, reg } = await registry();
    assert.deepEqual(store.notices, [], 'no damaged file');
    for (const [prefix, n] of acked) {
      const kept = new Set(reg.list(prefix).map((s) => s.target));
      for (let i = 0; i < n; i++)
        assert.ok(kept.has(`${prefix} item ${i}`), `${prefix} item ${i} was acknowledged and lost (${kept.size} kept)`);
    }
  });

  it('unsubscribes by id, and an unknown id is an error that names it and changes nothing', async () => {
    const { reg } = await registry();
    const a = reg.subscribe({ kind: 'file', target: 'src/a.ts' }).subscription;
    reg.subscribe({ kind: 'file', target: 'src/b.ts' });
    const refused = reasonOf(() => reg.unsubscribe('zzzzzz'));
    assert.equal(refused.reason, 'not_found');
    assert.match(refused.message, /"zzzzzz"/);
    assert.equal(reg.list().length, 2);
    assert.equal(reg.unsubscribe(a.id.toUpperCase()).id, a.id);
    assert.deepEqual(
      reg.list().map((s) => s.target),
      ['src/b.ts'],
    );
    reg.subscribe({ scope: 'other', kind: 'file', target: 'src/a.ts' });
    assert.equal(reg.unsubscribeAll('workspace'), 1);
    assert.deepEqual(
      reg.list().map((s) => s.scope),
      ['other'],
    );
    assert.equal(reg.unsubscribeAll(), 1);
    assert.deepEqual(reg.list(), []);
  });

  it('refuses an invalid regex with the regex engine message', async () => {
    const { reg } = await registry();
    let engine = '';
    try {
      new RegExp('foo(');
    } catch (err) {
      engine = (err as Error).message;
    }
    const refused = reasonOf(() => reg.subscribe({ kind: 'pattern', target: 'src/a.ts', pattern: 'foo(' }));
    assert.equal(refused.reason, 'invalid_regex');
    // The engine's own reason, without its repetition of the pattern.
    assert.ok(refused.message.endsWith(engine.slice(engine.lastIndexOf(': ') + 2)), refused.message);
    assert.equal(refused.message, 'Invalid regular expression /foo(/: Unterminated group');
    assert.deepEqual(reg.list(), []);
  });

  it('refuses paths outside the workspace: traversal, absolute elsewhere, symlink escape', async () => {
    const { reg } = await registry();
    assert.equal(reasonOf(() => reg.subscribe({ kind: 'file', target: '../x' })).reason, 'outside_workspace');
    assert.equal(reasonOf(() => reg.subscribe({ kind: 'file', target: 'src/../../x' })).reason, 'outside_workspace');
    assert.equal(
      reasonOf(() => reg.subscribe({ kind: 'lines', target: join(ws.outside, 'x.ts'), lines: { start: 1, end: 2 } }))
        .reason,
      'outside_workspace',
    );
    ws.write('../outside/escape.ts', 'secret stuff');
    symlinkSync(join(ws.outside, 'escape.ts'), join(ws.root, 'src', 'link.ts'));
    symlinkSync(ws.outside, join(ws.root, 'linkdir'));
    assert.equal(reasonOf(() => reg.subscribe({ kind: 'file', target: 'src/link.ts' })).reason, 'outside_workspace');
    assert.equal(reasonOf(() => reg.subscribe({ kind: 'file', target: 'linkdir/new.ts' })).reason, 'outside_workspace');
    assert.deepEqual(reg.list(), []);
  });

  it('refuses links inside the workspace that lead to secrets, whatever the link is called', async () => {
    const { reg } = await registry();
    ws.write('.env', 'API_KEY=do-not-leak\n');
    ws.write('.git/config', '[remote "origin"]\n  url = https://user:pass@example.com/x.git\n');
    ws.write('keys/id_rsa', '-----BEGIN OPENSSH PRIVATE KEY-----\n');
    symlinkSync(join(ws.root, '.env'), join(ws.root, 'innocent.txt'));
    symlinkSync(join(ws.root, '.git', 'config'), join(ws.root, 'gitcfg.txt'));
    symlinkSync(join(ws.root, 'keys', 'id_rsa'), join(ws.root, 'key.txt'));
    symlinkSync(join(ws.root, '.git'), join(ws.root, 'gitdir'));
    for (const target of ['innocent.txt', 'gitcfg.txt', 'key.txt', 'gitdir/config']) {
      const refused = reasonOf(() => reg.subscribe({ kind: 'file', target }));
      assert.equal(refused.reason, 'secret', `${target}: ${refused.message}`);
      assert.ok(refused.message.startsWith(`"${target}" is a link to `), refused.message);
    }
    assert.deepEqual(reg.list(), []);
  });

  it('refuses a file name that is not UTF-8 with a clear reason, instead of a file that is never found', async () => {
    const { reg } = await registry();
    writeFileSync(Buffer.from(join(ws.root, 'caf\xe9.txt'), 'latin1'), 'latin-1 name');
    const listed = readdirSync(ws.root).find((n) => n.startsWith('caf'))!;
    assert.ok(listed.includes('\uFFFD'), JSON.stringify(listed));
    const refused = reasonOf(() => reg.subscribe({ kind: 'file', target: listed }));
    assert.equal(refused.reason, 'invalid');
    assert.match(refused.message, /not valid UTF-8.*Rename the file/);
    assert.deepEqual(reg.list(), []);
  });

  it('accepts an absolute path that names the workspace through its real path', async () => {
    const alias = join(ws.outside, 'alias');
    symlinkSync(ws.root, alias);
    const store = await ws.openStore();
    const reg = new SubscriptionRegistry(store, { root: alias, now: clock.now });
    assert.equal(reg.subscribe({ kind: 'file', target: join(ws.root, 'src', 'a.ts') }).subscription.target, 'src/a.ts');
    assert.equal(reg.subscribe({ kind: 'file', target: join(alias, 'src', 'b.ts') }).subscription.target, 'src/b.ts');
    assert.equal(
      reasonOf(() => reg.subscribe({ kind: 'file', target: join(ws.outside, 'x.ts') })).reason,
      'outside_workspace',
    );
  });

  it('refuses secret files, including git-ignored files whose names suggest credentials', async () => {
    const { reg } = await registry();
    for (const name of [
      '.env',
      '.env.local',
      'certs/server.pem',
      'deploy.key',
      'home/id_rsa',
      'home/id_rsa.pub',
      'store.p12',
      'store.pfx',
      '.npmrc',
      '.netrc',
      'aws/credentials',
      'credentials.json',
      'config/my-secret.yaml',
      'Secrets.ts',
    ]) {
      const refused = reasonOf(() => reg.subscribe({ kind: 'file', target: name }));
      assert.equal(refused.reason, 'secret', name);
      assert.match(refused.message, /secret/i);
    }
    ws.write('.gitignore', 'token.json\n');
    ws.write('token.json', '{"token":"x"}');
    ws.write('src/tokenizer.ts', 'export {}');
    assert.equal(reasonOf(() => reg.subscribe({ kind: 'file', target: 'token.json' })).reason, 'secret');
    assert.doesNotThrow(() => reg.subscribe({ kind: 'file', target: 'src/tokenizer.ts' }));
    assert.deepEqual(
      reg.list().map((s) => s.target),
      ['src/tokenizer.ts'],
    );
  });

  it('refuses targets over 1,000 characters and malformed requests', async () => {
    const { reg } = await registry();
    const long = reasonOf(() => reg.subscribe({ kind: 'memory', target: 'x'.repeat(1001) }));
    assert.equal(long.reason, 'too_long');
    assert.match(long.message, /1000/);
    assert.equal(reasonOf(() => reg.subscribe({ kind: 'lines', target: 'src/a.ts' })).reason, 'invalid');
    assert.equal(
      reasonOf(() => reg.subscribe({ kind: 'lines', target: 'src/a.ts', lines: { start: 5, end: 2 } })).reason,
      'invalid',
    );
    assert.equal(reasonOf(() => reg.subscribe({ kind: 'file', target: 'src' })).reason, 'invalid');
    assert.equal(reasonOf(() => reg.subscribe({ kind: 'file', target: '  ' })).reason, 'invalid');
    assert.match(reasonOf(() => reg.subscribe({ kind: 'memory', target: '?? !!' })).message, /no words to search/);
    assert.deepEqual(reg.list(), []);
  });

  it('tells listeners about changes', async () => {
    const { reg } = await registry();
    const seen: SubscriptionChange['type'][] = [];
    const sub = reg.onDidChange((c) => seen.push(c.type));
    const a = reg.subscribe({ kind: 'file', target: 'src/a.ts' }).subscription;
    reg.subscribe({ kind: 'file', target: 'src/a.ts' });
    reg.unsubscribe(a.id);
    reg.unsubscribeAll();
    sub.dispose();
    reg.subscribe({ kind: 'file', target: 'src/b.ts' });
    assert.deepEqual(seen, ['subscribed', 'renewed', 'unsubscribed', 'cleared']);
  });
});
