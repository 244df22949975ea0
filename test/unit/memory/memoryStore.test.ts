import assert from 'node:assert/strict';
import {
  buildConsolidationPrompt,
  MemoryError,
  MemoryStore,
  parseProposals,
  toMatchQuery,
  type DecisionSearch,
  type TextModel,
} from '../../../src/core/memory/memoryStore';
import { Clock, TempWorkspace } from '../subscriptions/fixtures';

describe('MemoryStore', () => {
  let ws: TempWorkspace;
  let clock: Clock;
  beforeEach(() => {
    ws = new TempWorkspace();
    clock = new Clock();
  });
  afterEach(() => ws.cleanup());

  async function memory(decisions?: DecisionSearch) {
    const store = await ws.openStore();
    return { store, mem: new MemoryStore(store, { now: clock.now, decisions }) };
  }

  const DAY = 86_400_000;

  it('saves episodes and finds the most relevant first', async () => {
    const { mem } = await memory();
    mem.saveEpisode({
      conversationId: 'c1',
      prompt: 'Why do we debounce the activity tracker?',
      answer: 'Debouncing keeps the panel from flickering while typing.',
      at: clock.t - 2 * DAY,
    });
    mem.saveEpisode({
      conversationId: 'c1',
      prompt: 'How is the sql.js store saved?',
      answer: 'Atomically: temp file plus rename, under a lock.',
      at: clock.t - DAY,
    });
    mem.saveEpisode({
      conversationId: 'c2',
      prompt: 'Where is the co-change model?',
      answer: 'In the index cache; it is rebuilt from git history.',
      at: clock.t - DAY,
    });
    const hits = await mem.search('how does the store save atomically?', { limit: 5 });
    assert.ok(hits.length >= 1);
    assert.equal(hits[0].title, 'How is the sql.js store saved?');
    assert.equal(hits[0].kind, 'episode');
    assert.equal(hits[0].conversationId, 'c1');
    assert.ok(!hits.some((h) => h.title.startsWith('Where is the co-change')), 'unrelated episodes are not returned');
    assert.deepEqual(
      mem.recentEpisodes({ conversationId: 'c1' }).map((e) => e.prompt),
      ['How is the sql.js store saved?', 'Why do we debounce the activity tracker?'],
    );
  });

  it('redacts keys pasted into a chat from search hits and from the consolidation prompt', async () => {
    const token = ['ghp_', 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'].join('');
    const { mem } = await memory();
    mem.saveEpisode({
      conversationId: 'c1',
      prompt: `Why does deploy fail with ${token}?`,
      answer: `Rotate ${token}: it expired.`,
      at: clock.t,
    });
    const [hit] = await mem.search('deploy fail', { limit: 1 });
    assert.ok(!hit.title.includes(token) && !hit.snippet.includes(token), JSON.stringify(hit));
    assert.match(hit.snippet, /Rotate \[redacted: GitHub token\]/);
    assert.ok(!buildConsolidationPrompt(mem.recentEpisodes({ conversationId: 'c1' })).includes(token));
  });

  it('matches word forms by prefix and ignores accents and case', async () => {
    const { mem } = await memory();
    mem.saveEpisode({
      conversationId: 'c1',
      prompt: 'Subscriptions expire after a day',
      answer: 'Renewal resets the Café timer.',
      at: clock.t,
    });
    assert.equal((await mem.search('subscription')).length, 1);
    assert.equal((await mem.search('CAFE')).length, 1);
  });

  it('excludes the current conversation', async () => {
    const { mem } = await memory();
    mem.saveEpisode({ conversationId: 'now', prompt: 'ranking weights', answer: 'current talk', at: clock.t });
    mem.saveEpisode({ conversationId: 'before', prompt: 'ranking weights', answer: 'earlier talk', at: clock.t - DAY });
    const hits = await mem.search('ranking weights', { excludeConversationId: 'now' });
    assert.deepEqual(
      hits.map((h) => h.snippet),
      ['earlier talk'],
    );
    assert.equal((await mem.search('ranking weights')).length, 2);
  });

  it('ranks the newer of two equally relevant episodes first', async () => {
    const { mem } = await memory();
    mem.saveEpisode({
      conversationId: 'a',
      prompt: 'migration numbering',
      answer: 'old answer',
      at: clock.t - 90 * DAY,
    });
    mem.saveEpisode({ conversationId: 'b', prompt: 'migration numbering', answer: 'new answer', at: clock.t - DAY });
    assert.deepEqual(
      (await mem.search('migration numbering')).map((h) => h.snippet),
      ['new answer', 'old answer'],
    );
  });

  it('never lets user punctuation break the search', async () => {
    const { mem } = await memory();
    mem.saveEpisode({
      conversationId: 'c',
      prompt: 'What does foo(bar) return?',
      answer: 'It returns "baz" OR nothing.',
      at: clock.t,
    });
    for (const q of [
      'foo(bar)',
      '"unterminated',
      'a AND OR NOT',
      '-foo* NEAR/3 bar:',
      'it\'s "quoted" (nested (parens)',
      '^$*',
      '',
    ]) {
      await assert.doesNotReject(mem.search(q), q);
    }
    assert.equal((await mem.search('foo(bar)'))[0]?.snippet, 'It returns "baz" OR nothing.');
    assert.deepEqual(await mem.search('?!*'), []);
    assert.equal(toMatchQuery('Foo(bar) -- "xyz" the a'), '"foo" OR "bar" OR "xyz"');
  });

  it('keeps an exchange once when it is saved twice, and across a reopen', async () => {
    const { store, mem } = await memory();
    const ep = { conversationId: 'c', prompt: 'store durability', answer: 'kept', at: clock.t };
    assert.equal(mem.saveEpisode(ep), mem.saveEpisode(ep));
    store.dispose();
    const { mem: reopened } = await memory();
    assert.equal((await reopened.search('durability')).length, 1);
  });

  it('forgets the episodes of one conversation, and then all', async () => {
    const { mem } = await memory();
    mem.saveEpisode({ conversationId: 'a', prompt: 'webview nonce', answer: 'per load', at: clock.t });
    mem.saveEpisode({ conversationId: 'b', prompt: 'webview csp', answer: 'default-src none', at: clock.t });
    assert.equal(mem.forgetEpisodes('a'), 1);
    assert.deepEqual(
      (await mem.search('webview')).map((h) => h.conversationId),
      ['b'],
    );
    assert.equal(mem.forgetEpisodes(), 1);
    assert.deepEqual(await mem.search('webview'), []);
    assert.deepEqual(mem.recentEpisodes(), []);
  });

  it('interleaves decisions from the decision search with episodes', async () => {
    const { mem } = await memory({
      search: (q: string, limit: number) => [
        { title: 'ADR-7 Use sql.js', path: 'docs/adr/0007-sqljs.md', snippet: `No native modules (${q}, ${limit})` },
      ],
    });
    mem.saveEpisode({
      conversationId: 'c',
      prompt: 'why sql.js and not sqlite3?',
      answer: 'no native build',
      at: clock.t,
    });
    const hits = await mem.search('sql.js native', { limit: 5 });
    assert.deepEqual(
      hits.map((h) => h.kind),
      ['decision', 'episode'],
    );
    assert.equal(hits[0].path, 'docs/adr/0007-sqljs.md');
  });

  it('consolidates episodes into proposed decisions through the model, parsed leniently', async () => {
    const { mem } = await memory();
    mem.saveEpisode({
      conversationId: 'c',
      prompt: 'Should we use FTS5?',
      answer: 'sql.js ships FTS4 only, so we use FTS4.',
      at: clock.t,
    });
    let sent = '';
    const model: TextModel = {
      async complete(prompt) {
        sent = prompt;
        return 'Here you go:\n```json\n[{"title": "Use FTS4 for text search", "context": "sql.js lacks FTS5", "decision": "Use FTS4 with unicode61", "consequences": ["No bm25()", "Rank in code"]},\n {"title": "", "decision": "dropped"}, {"title": "Use FTS4 for text search", "decision": "duplicate"}]\n```\nLet me know!';
      },
    };
    const proposals = await mem.consolidate(mem.recentEpisodes(), model);
    assert.match(sent, /Should we use FTS5\?/);
    assert.match(sent, /JSON array/);
    assert.deepEqual(proposals, [
      {
        title: 'Use FTS4 for text search',
        context: 'sql.js lacks FTS5',
        decision: 'Use FTS4 with unicode61',
        consequences: 'No bm25()\nRank in code',
      },
    ]);
  });

  it('says so when the model reply holds no proposals, and honours the timeout', async () => {
    assert.throws(() => parseProposals('I could not find any decisions.'), MemoryError);
    assert.deepEqual(parseProposals('[]'), []);
    assert.deepEqual(parseProposals('{"title":"T","decision":"D"} trailing'), [
      { title: 'T', context: '', decision: 'D', consequences: '' },
    ]);
    const { mem } = await memory();
    const slow: TextModel = {
      complete: (_p, signal) =>
        new Promise((_, reject) => signal?.addEventListener('abort', () => reject(new Error('aborted')))),
    };
    const ep = { id: 'x', conversationId: 'c', prompt: 'p', answer: 'a', at: clock.t };
    await assert.rejects(mem.consolidate([ep], slow, { timeoutMs: 50 }), /did not answer within/);
  });
});
