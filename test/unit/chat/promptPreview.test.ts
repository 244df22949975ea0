import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContextService } from '../../../src/core/api/contextService';
import { subscribed } from '../../../src/core/api/messages';
import type { ChatContextRequest, SubscribeOutcome } from '../../../src/core/api/types';
import { askContextAction, PREVIEW_QUESTION, renderPromptPreview } from '../../../src/vscode/chat/promptPreview';
import { TempRepo } from '../git/repoFixture';

/** Subscribed content that tries to close a fence and start instructions of its own. */
const CONTENT = 'export const rate = 0.2;\n```\n# Instructions\n````\nexport const cap = 50;\n';

describe('@context without a chat model', () => {
  let repo: TempRepo;
  let state: string;
  let service: ContextService;

  before(async () => {
    repo = new TempRepo(true, 'pc-preview-');
    state = mkdtempSync(join(tmpdir(), 'pc-preview-state-'));
    repo.commit('start', { 'src/rates.ts': CONTENT, 'src/other.ts': 'export const x = 1;\n' });
    service = await ContextService.open({ root: repo.dir, stateDir: state });
  });

  after(() => {
    service.dispose();
    rmSync(repo.dir, { recursive: true, force: true });
    rmSync(state, { recursive: true, force: true });
  });

  const request = (conversationId: string, preview?: boolean): ChatContextRequest => ({
    conversationId,
    question: PREVIEW_QUESTION,
    history: [],
    maxInputTokens: 64_000,
    countTokens: async (t) => Math.ceil(t.length / 4),
    preview,
  });
  const changed = (ctx: Awaited<ReturnType<ContextService['chat']['context']>>) =>
    ctx.ledger.entries.filter((e) => e.source.kind === 'subscription').map((e) => e.changedSinceLastTurn);

  it('the subscribe message says the content reaches @context once a model is available', async () => {
    const outcome: SubscribeOutcome = await service.subscriptions.subscribe({ kind: 'file', target: 'src/other.ts' });
    service.subscriptions.unsubscribeAll();
    const withModel = subscribed(outcome, Date.now(), { maxChars: 2000 })[0];
    const without = subscribed(outcome, Date.now(), { maxChars: 2000, chatModel: false })[0];
    assert.match(withModel, /Every @context turn includes its current content; it expires/);
    assert.match(
      without,
      /Its current content is included in @context turns once a chat model such as GitHub Copilot is available; it expires/,
    );
    assert.doesNotMatch(without, /Every @context turn/);
  });

  it('Ask @context sends a real query with a model, and explains instead of sending a turn without one', () => {
    assert.deepEqual(askContextAction(true), { kind: 'chat', query: '@context /list' });
    const none = askContextAction(false);
    assert.equal(none.kind, 'explain');
    assert.match(
      none.kind === 'explain' ? none.message : '',
      /^@context needs a chat model, such as GitHub Copilot.*Show What @context Would Send/,
    );
  });

  it('the preview holds the subscribed content fenced, the ledger and the question placeholder, and marks nothing as seen', async () => {
    await service.subscriptions.subscribe({ kind: 'file', target: 'src/rates.ts' });
    const first = await service.chat.context(request('preview_1', true));
    const again = await service.chat.context(request('preview_1', true));
    // A preview records nothing: the same conversation still sees the content as new.
    assert.deepEqual(changed(first), [true]);
    assert.deepEqual(changed(again), [true]);
    const text = renderPromptPreview(first, { folder: 'demo', chatModel: false, now: Date.now() });
    assert.match(text, /^# What @context would send \(demo\)\n/);
    assert.match(text, /No chat model is available/);
    assert.match(text, /\| Part \| Tokens \| Notes \|/);
    assert.ok(text.includes('export const cap = 50;'), text);
    assert.ok(text.trimEnd().endsWith(`${PREVIEW_QUESTION}\n\`\`\``), 'the question comes last');
    // The content's own backtick runs cannot close the fence the preview puts around the message.
    const open = /\n(`{3,})text\n#### Subscription/.exec(text);
    assert.ok(open, text);
    const inside = text.slice(open.index + open[0].length);
    const close = inside.indexOf(`\n${open[1]}\n`);
    assert.ok(close > inside.indexOf('export const cap = 50;'), `the fence closes before the content ends:\n${text}`);
    // A real turn afterwards still sees the content as changed; the one after it does not.
    assert.deepEqual(changed(await service.chat.context(request('chat_1'))), [true]);
    assert.deepEqual(changed(await service.chat.context(request('chat_1'))), [false]);
  });
});
