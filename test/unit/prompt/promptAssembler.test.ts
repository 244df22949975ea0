import assert from 'node:assert/strict';
import type { MemoryHit } from '../../../src/core/memory/memoryStore';
import { PromptAssembler, type PromptInput } from '../../../src/core/prompt/promptAssembler';
import { ledgerLabel, renderLedger, renderLedgerFooter, renderSuggestionLine } from '../../../src/core/prompt/render';
import type { MaterializedSubscription } from '../../../src/core/subscriptions/materializer';
import type { Subscription } from '../../../src/core/subscriptions/registry';
import type { SuggestionItem } from '../../../src/core/types';

const NOW = Date.UTC(2026, 10, 22, 12);
/** One token per whitespace-separated word: easy to reason about in budgets. */
const countWords = async (text: string) => text.split(/\s+/).filter(Boolean).length;

function sub(id: string, path: string, renewedAt: number, body: string, changed = true): MaterializedSubscription {
  const subscription: Subscription = {
    id,
    scope: 'workspace',
    kind: 'file',
    target: path,
    path,
    createdAt: renewedAt,
    renewedAt,
    expiresAt: renewedAt + 24 * 3600_000,
  };
  return {
    subscription,
    expiresAt: NOW + 24 * 3600_000,
    text: body,
    chars: body.length,
    truncated: false,
    hash: id,
    changedSinceLastTurn: changed,
    location: { path },
  };
}

function suggestion(title: string, score: number): SuggestionItem {
  return {
    type: 'decision',
    title,
    summary: '',
    relevanceScore: score,
    reason: `governs ${title}`,
    location: { path: 'docs/adr/0001.md', line: 3 },
    entityId: `adr:${title}`,
  };
}

function memoryHit(title: string): MemoryHit {
  return { kind: 'episode', id: title, title, snippet: `answer about ${title}`, score: 1, at: NOW - 86_400_000 };
}

function words(n: number, w = 'word'): string {
  return Array.from({ length: n }, () => w).join(' ');
}

function input(over: Partial<PromptInput> = {}): PromptInput {
  return {
    instructions: 'You are helpful.',
    history: [
      { role: 'user', content: 'first question ' + words(20) },
      { role: 'assistant', content: 'first answer ' + words(20) },
      { role: 'user', content: 'second question ' + words(20) },
      { role: 'assistant', content: 'second answer ' + words(20) },
    ],
    subscriptions: [
      sub('aaaaaa', 'src/old.ts', NOW - 5 * 3600_000, words(30, 'old')),
      sub('bbbbbb', 'src/new.ts', NOW - 3600_000, words(30, 'new'), false),
    ],
    suggestions: [suggestion('low', 0.3), suggestion('high', 0.9)],
    memory: [memoryHit('best hit'), memoryHit('worse hit')],
    userMessage: 'What should I change in src/new.ts?',
    maxInputTokens: 100_000,
    countTokens: countWords,
    ...over,
  };
}

describe('PromptAssembler', () => {
  it('puts instructions first, then history, subscriptions, suggestions, memory, and the user message last', async () => {
    const { messages, ledger } = await new PromptAssembler().assemble(input());
    assert.deepEqual(
      messages.map((m) => ledgerLabel(m.source)),
      [
        'instructions',
        'history',
        'history',
        'history',
        'history',
        'subscription aaaaaa src/old.ts',
        'subscription bbbbbb src/new.ts',
        'suggestions',
        'memory',
        'user message',
      ],
    );
    assert.deepEqual(
      messages.map((m) => m.role),
      ['user', 'user', 'assistant', 'user', 'assistant', 'user', 'user', 'user', 'user', 'user'],
    );
    assert.equal(messages[0].content, 'You are helpful.');
    assert.equal(messages[messages.length - 1].content, 'What should I change in src/new.ts?');
    assert.match(messages[5].content, /Subscription aaaaaa · src\/old\.ts \(changed since last turn\)/);
    // Suggestions are compact and best first: type, title, reason, location.
    const sugLines = messages[7].content.split('\n');
    assert.equal(sugLines[1], '- [decision] high — governs high · docs/adr/0001.md:3');
    assert.equal(sugLines[2], '- [decision] low — governs low · docs/adr/0001.md:3');
    assert.match(messages[8].content, /best hit[\s\S]*worse hit/);
    assert.deepEqual(ledger.cut, []);
    assert.ok(ledger.totalTokens <= ledger.budget);
  });

  it('cuts the least relevant parts first to fit the budget and says what and why', async () => {
    const full = await new PromptAssembler().assemble(input());
    const total = full.ledger.totalTokens;
    // Room for everything but about 70 tokens: the three oldest history turns (25 + 3 each) go.
    const { messages, ledger } = await new PromptAssembler().assemble(input({ maxInputTokens: total - 70 }));
    assert.deepEqual(
      ledger.cut.map((c) => ledgerLabel(c.source)),
      ['history turn 1 of 4 (user)', 'history turn 2 of 4 (assistant)', 'history turn 3 of 4 (user)'],
    );
    assert.ok(ledger.cut.every((c) => /oldest history/.test(c.reason) && c.tokens > 0));
    assert.ok(ledger.totalTokens <= ledger.budget);
    assert.deepEqual(
      messages
        .filter((m) => m.source.kind === 'history')
        .map((m) => m.content.split(' ')[0] + ' ' + m.content.split(' ')[1]),
      ['second answer'],
    );

    // Much tighter: all history, then memory (worst first), then the low suggestion, then the oldest subscription.
    const tokensOf = (label: string) => full.ledger.entries.find((e) => ledgerLabel(e.source) === label)?.tokens ?? 0;
    const lowLine = await countWords(renderSuggestionLine(suggestion('low', 0.3)));
    const room =
      tokensOf('instructions') +
      tokensOf('user message') +
      tokensOf('subscription bbbbbb src/new.ts') +
      tokensOf('suggestions') -
      lowLine;
    const tight = await new PromptAssembler().assemble(input({ maxInputTokens: room }));
    assert.deepEqual(
      tight.ledger.cut.map((c) => ledgerLabel(c.source)),
      [
        'history turn 1 of 4 (user)',
        'history turn 2 of 4 (assistant)',
        'history turn 3 of 4 (user)',
        'history turn 4 of 4 (assistant)',
        'memory: episode "worse hit"',
        'memory: episode "best hit"',
        'suggestion "low" (score 0.30)',
        'subscription aaaaaa src/old.ts',
      ],
    );
    assert.deepEqual(
      tight.messages.map((m) => ledgerLabel(m.source)),
      ['instructions', 'subscription bbbbbb src/new.ts', 'suggestions', 'user message'],
    );
    assert.equal(tight.ledger.totalTokens, room);
    assert.equal(tight.messages[tight.messages.length - 1].content, 'What should I change in src/new.ts?');
  });

  it('never keeps a less relevant suggestion while dropping a more relevant one', async () => {
    const big = suggestion('high ' + words(50, 'detail'), 0.9);
    const small = suggestion('low', 0.3);
    const base = { history: [], subscriptions: [], memory: [], suggestions: [big, small] };
    const full = await new PromptAssembler().assemble(input(base));
    const bigTokens = await countWords(renderSuggestionLine(big));
    // Room for the small one only: it would fit, but keeping it while cutting the better one is wrong.
    const { messages, ledger } = await new PromptAssembler().assemble(
      input({ ...base, maxInputTokens: full.ledger.totalTokens - bigTokens }),
    );
    assert.deepEqual(
      ledger.cut.map((c) => ledgerLabel(c.source).split(' ')[0] + ' ' + ledgerLabel(c.source).split(' ')[1]),
      ['suggestion "low"', 'suggestion "high'],
    );
    assert.deepEqual(
      messages.map((m) => ledgerLabel(m.source)),
      ['instructions', 'user message'],
    );
  });

  it('shortens the user message only when it alone exceeds the budget, with a notice', async () => {
    const long = 'START ' + words(2000, 'log') + ' END question?';
    const { messages, ledger } = await new PromptAssembler().assemble(
      input({ userMessage: long, maxInputTokens: 500 }),
    );
    const last = messages[messages.length - 1];
    assert.equal(last.source.kind, 'user');
    assert.ok(last.content.startsWith('START'));
    assert.ok(last.content.endsWith('END question?'), 'the end of the message, usually the question, is kept');
    assert.match(
      last.content,
      /\[message shortened to fit the model's input limit: kept [\d,]+ of [\d,]+ characters\]/,
    );
    assert.equal(messages[0].source.kind, 'instructions');
    assert.ok(ledger.cut.some((c) => c.source.kind === 'user'));
    assert.ok(ledger.totalTokens <= 500, `total ${ledger.totalTokens}`);
  });

  it('keeps a ledger of every part with tokens, change state and expiry, rendered as a table and a footer', async () => {
    const { ledger } = await new PromptAssembler().assemble(input({ maxInputTokens: 200 }));
    const subEntry = ledger.entries.find((e) => e.source.kind === 'subscription' && e.source.id === 'bbbbbb');
    assert.ok(subEntry);
    assert.equal(subEntry.changedSinceLastTurn, false);
    assert.equal(subEntry.expiresAt, NOW + 24 * 3600_000);
    assert.equal(
      ledger.totalTokens,
      ledger.entries.reduce((n, e) => n + e.tokens, 0),
    );
    assert.equal(ledger.budget, 200);
    const table = renderLedger(ledger, NOW);
    assert.match(table, /^\| Part \| Tokens \| Notes \|\n\|---\|---:\|---\|/);
    assert.match(table, /\| subscription bbbbbb src\/new\.ts \| \d+ \| unchanged, expires in 24 h \|/);
    assert.match(table, /\*\*Cut to fit \(\d+\):\*\*\n- history turn 1 of 4 \(user\): \d+ tokens — over budget/);
    const footer = renderLedgerFooter(ledger);
    assert.ok(!footer.includes('\n'));
    assert.match(footer, /^Context \d+\/200 tokens · 2 subscriptions \(1 changed\)/);
    assert.match(footer, /· cut 4 history to fit$/);
  });

  it('says what it kept, by id, so callers never parse labels', async () => {
    const full = await new PromptAssembler().assemble(input());
    assert.deepEqual(full.kept, {
      history: 4,
      subscriptions: ['aaaaaa', 'bbbbbb'],
      suggestions: ['adr:high', 'adr:low'],
      memory: ['best hit', 'worse hit'],
    });
    const tokensOf = (label: string) => full.ledger.entries.find((e) => ledgerLabel(e.source) === label)?.tokens ?? 0;
    const lowLine = await countWords(renderSuggestionLine(suggestion('low', 0.3)));
    const room =
      tokensOf('instructions') +
      tokensOf('user message') +
      tokensOf('subscription bbbbbb src/new.ts') +
      tokensOf('suggestions') -
      lowLine;
    const tight = await new PromptAssembler().assemble(input({ maxInputTokens: room }));
    assert.deepEqual(tight.kept, { history: 0, subscriptions: ['bbbbbb'], suggestions: ['adr:high'], memory: [] });
  });
});
