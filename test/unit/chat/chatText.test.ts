import * as assert from 'node:assert/strict';
import type { PromptLedger } from '../../../src/core/prompt/promptAssembler';
import type { Subscription } from '../../../src/core/subscriptions/registry';
import { escapeMarkdown, formatDuration } from '../../../src/shared/text';
import type { SuggestionItem } from '../../../src/core/types';
import {
  buildDecisionPrompt,
  promptHistory,
  renderDecisionDraft,
  renderLedgerReport,
  renderSubscribed,
  renderSubscriptionList,
  renderSuggestions,
  renderWhy,
  transcriptOf,
  type HistoryTurn,
} from '../../../src/vscode/chat/chatText';

const linkFor = (path: string, line?: number) => `file:///ws/${path}${line ? `#L${line}` : ''}`;

function item(over: Partial<SuggestionItem>): SuggestionItem {
  return {
    type: 'decision',
    title: 'T',
    summary: '',
    relevanceScore: 0.5,
    reason: 'why',
    location: { path: 'src/a.ts' },
    entityId: 'e',
    ...over,
  };
}

function sub(over: Partial<Subscription>): Subscription {
  return {
    id: 'abc123',
    scope: 'workspace',
    kind: 'file',
    target: 'src/a.ts',
    path: 'src/a.ts',
    createdAt: 0,
    renewedAt: 0,
    expiresAt: 0,
    ...over,
  };
}

describe('chat text', () => {
  describe('/suggest', () => {
    it('groups items by kind in the kinds table order, each with why and a link to where, file name first', () => {
      const md = renderSuggestions(
        [
          item({
            type: 'change',
            title: 'Fix rounding',
            reason: 'touched this function 2 days ago',
            location: { path: 'src/money.ts', line: 12, commit: 'abcdef1234567' },
            entityId: 'c1',
          }),
          item({
            type: 'warning',
            title: 'applyDiscount is deprecated',
            reason: 'used on line 4',
            location: { path: 'src/cart.ts', line: 4 },
            entityId: 'w1',
          }),
        ],
        linkFor,
        '### Context for src/cart.ts',
      );
      assert.ok(md.startsWith('### Context for src/cart.ts'));
      assert.ok(md.indexOf('**Warnings**') < md.indexOf('**Recent changes**'), 'warnings are not before changes');
      assert.match(
        md,
        /applyDiscount is deprecated — used on line 4 · \[cart\.ts:4\]\(file:\/\/\/ws\/src\/cart\.ts#L4\) in src$/m,
      );
      assert.match(md, /\[money\.ts:12\]\(file:\/\/\/ws\/src\/money\.ts#L12\) in src @abcdef12/);
    });

    it('says so when there is nothing', () => {
      assert.match(renderSuggestions([], linkFor), /No suggestions/);
    });

    it('escapes markup in untrusted titles and keeps link targets intact', () => {
      const md = renderSuggestions(
        [item({ title: 'Use [evil](http://x) *now*', location: { path: 'docs/a (1).md', line: 2 } })],
        linkFor,
      );
      assert.ok(!md.includes('[evil](http://x)'), 'a link in a title was rendered as a link');
      assert.match(md, /\\\[evil\\\]\\\(http:\/\/x\\\) \\\*now\\\*/);
      assert.match(md, /\(file:\/\/\/ws\/docs\/a%20%281%29\.md#L2\)/);
    });
  });

  describe('/list', () => {
    it('shows ids, kinds, links and time to expiry', () => {
      const now = 1_000_000;
      const md = renderSubscriptionList(
        [
          sub({ expiresAt: now + 3 * 3600_000 }),
          sub({
            id: 'def456',
            kind: 'memory',
            target: 'retry policy',
            path: undefined,
            query: 'retry policy',
            expiresAt: now + 30 * 60_000,
          }),
        ],
        10,
        now,
        linkFor,
      );
      assert.match(md, /Active subscriptions \(2 of 10\)/);
      assert.match(md, /\| `abc123` \| file \| \[src\/a\.ts\]\(file:\/\/\/ws\/src\/a\.ts\) \| 3 h \|/);
      assert.match(md, /\| `def456` \| memory \| memory search “retry policy” \| 30 min \|/);
    });

    it('explains how to subscribe when there is nothing', () => {
      assert.match(renderSubscriptionList([], 10, 0, linkFor), /No active subscriptions.*\/subscribe/);
    });
  });

  it('formats durations coarsely', () => {
    assert.equal(formatDuration(-5), 'now');
    assert.equal(formatDuration(20_000), 'under a minute');
    assert.equal(formatDuration(45 * 60_000), '45 min');
    assert.equal(formatDuration(5 * 3600_000), '5 h');
    assert.equal(formatDuration(72 * 3600_000), '3 days');
  });

  describe('/why', () => {
    it('lists decisions and dated history with authors', () => {
      const md = renderWhy(
        'applyDiscount (src/cart.ts)',
        [
          item({
            title: 'ADR-3 Price rules live in billing',
            reason: 'names src/cart.ts',
            location: { path: 'docs/adr/0003-price.md' },
          }),
        ],
        [
          item({
            type: 'change',
            title: 'Cap discounts at 50%',
            reason: 'changed these lines',
            timestamp: Date.UTC(2026, 0, 5),
            meta: { author: 'Ana' },
            location: { path: 'src/cart.ts', line: 3, commit: '1234567890' },
          }),
        ],
        linkFor,
      );
      assert.match(md, /### Why applyDiscount \\\(src\/cart\.ts\\\) is the way it is/);
      assert.match(md, /ADR-3 Price rules live in billing — names src\/cart\.ts · \[docs\/adr\/0003-price\.md\]/);
      assert.match(md, /- 2026-01-05 Cap discounts at 50% by Ana — changed these lines/);
    });

    it('puts the commits that changed the symbol first and does not repeat them among the file changes', () => {
      const md = renderWhy(
        'applyDiscount (src/pricing.ts)',
        [],
        [
          item({
            type: 'change',
            title: 'Cap discounts at 50%',
            reason: 'changed this file',
            location: { path: 'src/pricing.ts', commit: 'aaaa1111' },
          }),
          item({
            type: 'change',
            title: 'Rename helpers',
            reason: 'changed this file',
            location: { path: 'src/pricing.ts', commit: 'bbbb2222' },
          }),
        ],
        linkFor,
        [],
        {
          lines: 'applyDiscount (lines 16–24)',
          commits: [
            { hash: 'aaaa1111cccc', author: 'Ana', date: Date.UTC(2026, 9, 12), subject: 'Cap discounts at 50%' },
          ],
        },
      );
      assert.match(
        md,
        /\*\*Commits that changed applyDiscount \\\(lines 16–24\\\)\*\*\n\n- 2026-10-12 Cap discounts at 50% by Ana · `aaaa1111`/,
      );
      assert.match(md, /\*\*Other recent changes to the file\*\*\n\n- Rename helpers/);
      assert.equal(md.match(/Cap discounts at 50%/g)?.length, 1, 'a commit is listed twice');
    });

    it('says when nothing is recorded and how to record a decision', () => {
      const md = renderWhy('x', [], [], linkFor, ['not a git repository']);
      assert.match(md, /No recorded decision.*\/decide/);
      assert.match(md, /No recent commits/);
      assert.match(md, /_not a git repository_/);
    });
  });

  describe('history for the prompt', () => {
    const turns: HistoryTurn[] = [
      { role: 'user', content: 'src/a.ts', command: 'subscribe' },
      { role: 'assistant', content: 'Subscribed to src/a.ts', command: 'subscribe' },
      { role: 'user', content: 'why is rounding done twice?' },
      { role: 'assistant', content: 'Because of ADR-2.' },
      { role: 'assistant', content: '   ' },
    ];

    it('keeps answered questions and drops slash-command bookkeeping and empty turns', () => {
      assert.deepEqual(promptHistory(turns), [
        { role: 'user', content: 'why is rounding done twice?' },
        { role: 'assistant', content: 'Because of ADR-2.' },
      ]);
    });

    it('turns the conversation into a transcript for /decide, keeping the newest part when long', () => {
      assert.equal(transcriptOf(turns), 'User: why is rounding done twice?\n\nAssistant: Because of ADR-2.');
      const long = transcriptOf([{ role: 'user', content: 'a'.repeat(100) + 'END' }], 50);
      assert.ok(long.startsWith('…\n') && long.endsWith('END') && long.length <= 52);
    });
  });

  describe('/decide', () => {
    it('asks the model for one JSON object built from the conversation', () => {
      const prompt = buildDecisionPrompt('Use events for ledger updates', 'User: should we?');
      assert.match(prompt, /titled "Use events for ledger updates"/);
      assert.match(prompt, /"context".*"decision".*"consequences"/);
      assert.ok(prompt.endsWith('User: should we?'));
      assert.match(buildDecisionPrompt('X', ''), /no earlier messages/);
    });

    it('shows every section of the draft and that nothing is written yet', () => {
      const md = renderDecisionDraft({
        title: 'Use events',
        context: 'Ledger writes race.',
        decision: 'Publish events.',
        consequences: '',
      });
      for (const part of [
        '### Draft decision: Use events',
        '**Context**',
        'Ledger writes race.',
        '**Decision**',
        'Publish events.',
        '**Consequences**',
        '_(empty)_',
        'Nothing is written until you confirm',
      ]) {
        assert.ok(md.includes(part), `missing ${part}`);
      }
    });
  });

  it('/ledger wraps the core ledger table with the time it was built', () => {
    const ledger: PromptLedger = {
      entries: [
        { source: { kind: 'instructions' }, tokens: 120 },
        {
          source: { kind: 'subscription', id: 'abc123', target: 'src/a.ts' },
          tokens: 300,
          changedSinceLastTurn: true,
          expiresAt: Date.UTC(2026, 0, 2),
        },
        { source: { kind: 'user' }, tokens: 10 },
      ],
      cut: [
        {
          source: { kind: 'history', turn: 1, of: 4, role: 'user' },
          tokens: 900,
          reason: 'over budget: oldest history is cut first',
        },
      ],
      totalTokens: 430,
      budget: 1000,
    };
    const md = renderLedgerReport(ledger, Date.UTC(2026, 0, 1, 12, 30, 5), Date.UTC(2026, 0, 1, 12, 30, 5));
    assert.match(md, /built 12:30:05 UTC/);
    assert.match(md, /subscription abc123 src\/a\.ts \| 300 \| changed since last turn, expires in/);
    assert.match(md, /Cut to fit \(1\)/);
    assert.match(md, /history turn 1 of 4 \(user\): 900 tokens — over budget/);
  });

  it('escapes markdown punctuation and collapses whitespace', () => {
    assert.equal(escapeMarkdown(' a_b\n*c* '), 'a\\_b \\*c\\*');
  });

  it('/subscribe echoes a file name as text, never as markdown', () => {
    const now = Date.UTC(2026, 0, 1);
    const subscription = sub({
      id: 'k3x9q2',
      target: 'docs/*bold*_[x](http://evil.example).md',
      path: 'docs/*bold*_[x](http://evil.example).md',
      expiresAt: now + 24 * 3600_000,
    });
    const md = renderSubscribed(
      {
        subscription,
        renewed: false,
        preview: {
          subscription,
          expiresAt: subscription.expiresAt,
          text: '',
          chars: 0,
          truncated: false,
          hash: 'h',
          changedSinceLastTurn: true,
          note: 'docs/*bold* does not exist',
        },
        limit: { active: 1, max: 10 },
      },
      now,
      2000,
    );
    assert.match(
      md,
      /^Subscribed to \*\*docs\/\\\*bold\\\*\\_\\\[x\\\]\\\(http:\/\/evil\.example\\\)\.md\*\* \(id `k3x9q2`\)/,
    );
    assert.ok(!/\]\(http/.test(md), 'no link survives');
    assert.match(md, /Note: docs\/\\\*bold\\\* does not exist/);
    assert.match(md, /1 of 10 subscriptions is active\./);
  });
});
