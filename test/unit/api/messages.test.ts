import * as assert from 'node:assert/strict';
import { SubscriptionLimitError } from '../../../src/core/api/errors';
import {
  describeSubscription,
  noSuchSubscription,
  subscribed,
  subscriptionLimit,
} from '../../../src/core/api/messages';
import type { SubscribeOutcome } from '../../../src/core/api/types';
import type { Subscription } from '../../../src/core/subscriptions/registry';

const base = { id: 'abc', scope: 'workspace', createdAt: 0, renewedAt: 0, expiresAt: 0 };

describe('messages every surface shares', () => {
  it('describes a subscription by what it reads, from its parsed parts', () => {
    const cases: [Subscription, string][] = [
      [{ ...base, kind: 'file', target: 'src/a.ts', path: 'src/a.ts' }, 'src/a.ts'],
      [
        { ...base, kind: 'lines', target: 'src/a.ts#L10-20', path: 'src/a.ts', lines: { start: 10, end: 20 } },
        'src/a.ts lines 10–20',
      ],
      [
        {
          ...base,
          kind: 'pattern',
          target: 'src/a.ts~/todo|fixme/i',
          path: 'src/a.ts',
          pattern: 'todo|fixme',
          flags: 'i',
        },
        'src/a.ts lines matching /todo|fixme/i',
      ],
      [
        { ...base, kind: 'symbol', target: 'src/a.ts::parseConfig', path: 'src/a.ts', symbol: 'parseConfig' },
        'symbol parseConfig in src/a.ts',
      ],
      [{ ...base, kind: 'symbol', target: '::Store.open', symbol: 'Store.open' }, 'symbol Store.open'],
      [
        { ...base, kind: 'memory', target: 'session storage', query: 'session storage' },
        'memory search “session storage”',
      ],
    ];
    for (const [sub, label] of cases) assert.equal(describeSubscription(sub), label, sub.target);
  });

  it('words the limit and unknown ids the same everywhere, with the next step each surface offers', () => {
    const oldest: Subscription = { ...base, kind: 'file', target: 'src/old.ts', path: 'src/old.ts' };
    const err = new SubscriptionLimitError(10, oldest);
    for (const surface of ['chat', 'palette', 'tool', 'mcp', 'cli'] as const) {
      assert.ok(
        subscriptionLimit(err, surface).startsWith(
          'The limit of 10 active subscriptions is reached. The oldest is abc (src/old.ts).',
        ),
        surface,
      );
      assert.ok(noSuchSubscription('zzz', surface).startsWith('No subscription has the id “zzz”;'), surface);
    }
    assert.match(subscriptionLimit(err, 'cli'), /--replace-oldest/);
    assert.match(
      subscriptionLimit(err, 'tool'),
      /call unsubscribe with an id from list_subscriptions; nothing was changed/,
    );
    assert.match(noSuchSubscription('zzz', 'chat'), /`\/list` shows them/);
  });

  it('reports a subscription with its expiry, a truncation or a missing target, and the count', () => {
    const now = Date.UTC(2026, 0, 1);
    const subscription: Subscription = {
      ...base,
      kind: 'file',
      target: 'src/a.ts',
      path: 'src/a.ts',
      expiresAt: now + 24 * 3600_000,
    };
    const preview = {
      subscription,
      expiresAt: subscription.expiresAt,
      text: 'x',
      chars: 5000,
      truncated: true,
      hash: 'h',
      changedSinceLastTurn: true,
    };
    const outcome: SubscribeOutcome = { subscription, renewed: false, preview, limit: { active: 3, max: 10 } };
    assert.deepEqual(subscribed(outcome, now, { maxChars: 2000 }), [
      'Subscribed to src/a.ts (id abc). Every @context turn includes its current content; it expires 24 h after its last use.',
      'It holds 5,000 characters; each turn includes the first 2,000 with a truncation notice. Subscribe to a line range or a pattern to see another part.',
      '3 of 10 subscriptions are active.',
    ]);
    const missing = subscribed(
      { ...outcome, renewed: true, preview: { ...preview, truncated: false, note: 'src/a.ts does not exist' } },
      now,
      { maxChars: 2000 },
    );
    assert.match(missing[0], /^Renewed src\/a\.ts/);
    assert.equal(
      missing[1],
      'Note: src/a.ts does not exist. It stays subscribed and each turn says so until it can be read.',
    );
  });
});
