import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../../../src/core/store/store';
import { SubscriptionRegistry } from '../../../src/core/subscriptions/registry';
import {
  parseDecisionTitle,
  parseSubscribeArgs,
  parseUnsubscribeArgs,
  SlashArgsError,
} from '../../../src/vscode/chat/slashArgs';

const refused = (fn: () => unknown, pattern: RegExp) =>
  assert.throws(fn, (err: Error) => {
    assert.ok(err instanceof SlashArgsError, `expected a SlashArgsError, got ${err}`);
    assert.match(err.message, pattern);
    return true;
  });

describe('/subscribe arguments', () => {
  it('reads a plain path as a file subscription', () => {
    assert.deepEqual(parseSubscribeArgs('src/app.ts'), { kind: 'file', target: 'src/app.ts' });
  });

  it('returns nothing for an empty argument so the active editor can be used', () => {
    assert.equal(parseSubscribeArgs('   '), undefined);
  });

  it('reads #L10-20 and #L7 as line ranges', () => {
    assert.deepEqual(parseSubscribeArgs('src/app.ts#L10-20'), {
      kind: 'lines',
      target: 'src/app.ts',
      lines: { start: 10, end: 20 },
    });
    assert.deepEqual(parseSubscribeArgs('src/app.ts#L7'), {
      kind: 'lines',
      target: 'src/app.ts',
      lines: { start: 7, end: 7 },
    });
    assert.deepEqual(parseSubscribeArgs('src/app.ts#L3-L5'), {
      kind: 'lines',
      target: 'src/app.ts',
      lines: { start: 3, end: 5 },
    });
  });

  it('refuses a backwards or malformed range', () => {
    refused(() => parseSubscribeArgs('src/app.ts#L20-10'), /ends before it starts.*#L10-20/);
    refused(() => parseSubscribeArgs('src/app.ts#L0'), /start at 1/);
    refused(() => parseSubscribeArgs('src/app.ts#Lx'), /path#L10-20/);
  });

  it('reads a pattern after the path, with or without a space, keeping spaces inside it', () => {
    assert.deepEqual(parseSubscribeArgs('src/app.ts ~/TODO|FIXME/i'), {
      kind: 'pattern',
      target: 'src/app.ts',
      pattern: '/TODO|FIXME/i',
    });
    assert.deepEqual(parseSubscribeArgs('src/app.ts~/a b/'), {
      kind: 'pattern',
      target: 'src/app.ts',
      pattern: '/a b/',
    });
  });

  it('refuses an invalid regular expression or flag, saying why', () => {
    refused(() => parseSubscribeArgs('src/app.ts ~/(a)\\1/'), /back-reference|not supported|cannot/i);
    refused(
      () => parseSubscribeArgs('src/app.ts ~/([/'),
      /^Invalid regular expression \/\(\[\/: Unterminated character class$/,
    );
    refused(() => parseSubscribeArgs('src/app.ts ~/x/q'), /Unknown regular-expression flag/);
    refused(() => parseSubscribeArgs('src/app.ts ~TODO'), /between slashes/);
  });

  it('reads path::symbol and ::symbol', () => {
    assert.deepEqual(parseSubscribeArgs('src/app.ts::parseConfig'), {
      kind: 'symbol',
      target: 'src/app.ts::parseConfig',
      symbol: 'parseConfig',
    });
    assert.deepEqual(parseSubscribeArgs('::Store.open'), {
      kind: 'symbol',
      target: '::Store.open',
      symbol: 'Store.open',
    });
    refused(() => parseSubscribeArgs('src/app.ts::not a name'), /Unexpected text|not a symbol name/);
    refused(() => parseSubscribeArgs('src/app.ts::1-bad'), /not a symbol name/);
  });

  it('reads memory:<query>, collapsing whitespace', () => {
    assert.deepEqual(parseSubscribeArgs('memory:  retry   policy '), { kind: 'memory', target: 'retry policy' });
    assert.deepEqual(parseSubscribeArgs('MEMORY:"ledger events"'), { kind: 'memory', target: 'ledger events' });
    refused(() => parseSubscribeArgs('memory:'), /Give a search after `memory:`/);
  });

  it('accepts quoted paths with spaces and suffixes glued to the quote', () => {
    assert.deepEqual(parseSubscribeArgs('"docs/my notes.md"'), { kind: 'file', target: 'docs/my notes.md' });
    assert.deepEqual(parseSubscribeArgs('"docs/my notes.md"#L2-4'), {
      kind: 'lines',
      target: 'docs/my notes.md',
      lines: { start: 2, end: 4 },
    });
    assert.deepEqual(parseSubscribeArgs("'a b.ts' ~/x/"), { kind: 'pattern', target: 'a b.ts', pattern: '/x/' });
    refused(() => parseSubscribeArgs('"docs/my notes.md'), /closing "/);
  });

  it('refuses text after a plain path and overlong input', () => {
    refused(() => parseSubscribeArgs('src/a.ts src/b.ts'), /Unexpected text after the path: "src\/b\.ts"/);
    refused(() => parseSubscribeArgs('x'.repeat(2001)), /keep it under 2,000/);
  });

  describe('what it parses is accepted by the registry', () => {
    let dir: string;
    let store: Store;
    let registry: SubscriptionRegistry;

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'pc-chat-args-'));
      const root = join(dir, 'ws');
      mkdirSync(join(root, 'src'), { recursive: true });
      writeFileSync(join(root, 'src', 'app.ts'), 'export function parseConfig() {}\n// TODO x\n');
      store = await Store.open({ stateDir: join(dir, 'state') });
      registry = new SubscriptionRegistry(store, { root });
    });

    after(() => {
      store.dispose();
      rmSync(dir, { recursive: true, force: true });
    });

    for (const arg of [
      'src/app.ts',
      'src/app.ts#L1-2',
      'src/app.ts ~/TODO/i',
      'src/app.ts::parseConfig',
      '::parseConfig',
      'memory: config parsing',
    ]) {
      it(`/subscribe ${arg}`, () => {
        const req = parseSubscribeArgs(arg);
        assert.ok(req);
        const { subscription } = registry.subscribe(req);
        assert.equal(subscription.kind, req.kind);
      });
    }

    it('keeps the regex flags the user gave', () => {
      const { subscription } = registry.subscribe(parseSubscribeArgs('src/app.ts ~/todo/i')!);
      assert.equal(subscription.pattern, 'todo');
      assert.equal(subscription.flags, 'i');
    });
  });
});

describe('/unsubscribe arguments', () => {
  it('reads all, ids and lists of ids', () => {
    assert.deepEqual(parseUnsubscribeArgs('all'), { all: true });
    assert.deepEqual(parseUnsubscribeArgs(' ALL '), { all: true });
    assert.deepEqual(parseUnsubscribeArgs('K3X9Q2'), { all: false, ids: ['k3x9q2'] });
    assert.deepEqual(parseUnsubscribeArgs('ab12, cd34 ab12'), { all: false, ids: ['ab12', 'cd34'] });
  });

  it('refuses nothing and things that are not ids', () => {
    refused(() => parseUnsubscribeArgs(''), /id of the subscription.*or `all`/);
    refused(() => parseUnsubscribeArgs('src/app.ts'), /"src\/app\.ts" is not a subscription id/);
  });
});

describe('/decide title', () => {
  it('collapses whitespace and refuses empty or overlong titles', () => {
    assert.equal(parseDecisionTitle('  Use   events\nfor ledger '), 'Use events for ledger');
    refused(() => parseDecisionTitle(' '), /Give the decision a title/);
    refused(() => parseDecisionTitle('x'.repeat(201)), /under 200 characters/);
  });
});
