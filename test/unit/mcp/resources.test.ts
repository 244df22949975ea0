import * as assert from 'node:assert/strict';
import type { SubscriptionInfo } from '../../../src/mcp/backend';
import { describeSubscription } from '../../../src/mcp/resources';

const base = { id: 'abc', createdAt: 0, renewedAt: 0, expiresAt: 0 };

describe('MCP subscription labels', () => {
  it('reads naturally for the engine’s normalized targets', () => {
    const cases: [SubscriptionInfo, string][] = [
      [{ ...base, kind: 'file', target: 'src/a.ts', path: 'src/a.ts' }, 'file src/a.ts'],
      [{ ...base, kind: 'lines', target: 'src/a.ts#L10-20', path: 'src/a.ts', lines: { start: 10, end: 20 } }, 'lines src/a.ts:10-20'],
      [{ ...base, kind: 'pattern', target: 'src/a.ts~/todo|fixme/i', path: 'src/a.ts', pattern: 'todo|fixme', flags: 'i' }, 'pattern src/a.ts /todo|fixme/i'],
      [{ ...base, kind: 'symbol', target: 'src/a.ts::parseConfig', path: 'src/a.ts', symbol: 'parseConfig' }, 'symbol parseConfig in src/a.ts'],
      [{ ...base, kind: 'symbol', target: '::Store.open', symbol: 'Store.open' }, 'symbol Store.open'],
      [{ ...base, kind: 'memory', target: 'session storage' }, 'memory "session storage"'],
      // A record without its parsed parts still names the file once.
      [{ ...base, kind: 'lines', target: 'src/a.ts#L3-4', lines: { start: 3, end: 4 } }, 'lines src/a.ts:3-4'],
    ];
    for (const [sub, label] of cases) assert.equal(describeSubscription(sub), label, sub.target);
  });
});
