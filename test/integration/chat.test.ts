// `@context` in a real chat view: a question typed in the chat reaches the participant, whose prompt
// (recorded by the fake model) holds the subscribed file's current content before the question.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  activateExtension,
  allText,
  ask,
  indexOfText,
  invokeTool,
  newChat,
  requireFakeModel,
  sendCommand,
  sleep,
  waitFor,
  workspaceRoot,
  writeWorkspaceFile,
} from './chatSupport';

const FILE = 'src/chatSubject.ts';
const QUESTION = 'what does this do?';

suite('@context chat participant', () => {
  suiteSetup(async () => {
    await activateExtension();
    await requireFakeModel();
    await invokeTool('unsubscribe_all', {});
  });

  suiteTeardown(async () => {
    await invokeTool('unsubscribe_all', {}).catch(() => undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('a subscribed file is in the prompt before the question, fresh after an edit, gone after unsubscribing', async () => {
    const uri = writeWorkspaceFile(
      FILE,
      'export function alphaRate(): number {\n  return 0.17; // ALPHA_MARKER_ONE\n}\n',
    );
    const editor = await vscode.window.showTextDocument(uri);
    await vscode.commands.executeCommand('proactiveContext.subscribeFile');
    assert.match(
      await invokeTool('list_subscriptions', {}),
      /src\/chatSubject\.ts/,
      'the palette command did not subscribe to the active file',
    );

    await newChat();
    const first = await ask(`@context ${QUESTION}`);
    const last = first.messages[first.messages.length - 1];
    assert.equal(last.role, 'user');
    assert.equal(last.text.trim(), QUESTION, 'the question is not the last message of the prompt');
    const at = indexOfText(first, 'ALPHA_MARKER_ONE');
    assert.ok(at >= 0, `the subscribed file's content is not in the prompt:\n${allText(first)}`);
    assert.ok(at < first.messages.length - 1, 'the subscribed content comes after the question');

    await editor.edit((b) =>
      b.replace(
        new vscode.Range(0, 0, editor.document.lineCount, 0),
        'export function alphaRate(): number {\n  return 0.42; // ALPHA_MARKER_TWO\n}\n',
      ),
    );
    assert.ok(await editor.document.save(), 'saving the edited file failed');
    const second = await ask(`@context ${QUESTION}`);
    assert.ok(indexOfText(second, 'ALPHA_MARKER_TWO') >= 0, 'the edited content is not in the next prompt');
    assert.equal(indexOfText(second, 'ALPHA_MARKER_ONE'), -1, 'the old content is still in the prompt after the edit');
    assert.match(allText(second), /changed since last turn/, 'the prompt does not say the subscription changed');
    assert.equal(second.messages[second.messages.length - 1].text.trim(), QUESTION);

    await sendCommand(
      '@context /unsubscribe all',
      async () => /No active subscriptions/.test(await invokeTool('list_subscriptions', {})),
      'the /unsubscribe command to remove the subscription',
    );
    const third = await ask(`@context ${QUESTION}`);
    assert.equal(indexOfText(third, 'ALPHA_MARKER'), -1, 'the content is still in the prompt after unsubscribing');
    assert.equal(third.messages[third.messages.length - 1].text.trim(), QUESTION);
  });

  test('/subscribe in the chat takes a line range, and only those lines reach the prompt', async () => {
    const lines = Array.from({ length: 30 }, (_, i) => `const line${i + 1} = ${i + 1}; // LINE_MARK_${i + 1}_END`);
    writeWorkspaceFile('src/ranged.ts', lines.join('\n') + '\n');
    await newChat();
    await sendCommand(
      '@context /subscribe src/ranged.ts#L10-12',
      async () => /src\/ranged\.ts lines 10.12/.test(await invokeTool('list_subscriptions', {})),
      'the /subscribe command to add the range',
    );
    const req = await ask(`@context ${QUESTION}`);
    const text = allText(req);
    for (const n of [10, 11, 12])
      assert.ok(text.includes(`LINE_MARK_${n}_END`), `line ${n} is missing from the prompt`);
    for (const n of [9, 13])
      assert.ok(!text.includes(`LINE_MARK_${n}_END`), `line ${n} is outside the range but in the prompt`);
    await invokeTool('unsubscribe_all', {});
  });

  test('the conversation so far comes before the subscriptions, and the question stays last', async () => {
    writeWorkspaceFile('src/ordered.ts', 'export const ORDER_MARK = true;\n');
    await invokeTool('subscribe_file', { path: 'src/ordered.ts' });
    await newChat();
    await ask('@context first question HISTORY_MARK');
    const req = await ask('@context second question');
    const history = indexOfText(req, 'HISTORY_MARK');
    const sub = indexOfText(req, 'ORDER_MARK');
    assert.ok(history >= 0, 'the earlier question is not in the prompt');
    assert.ok(sub > history, 'the subscription is not after the history');
    assert.equal(req.messages[req.messages.length - 1].text.trim(), 'second question');
    assert.ok(
      !allText(req).includes('`/ledger` for details'),
      'the ledger footer of the earlier answer leaked into the history',
    );
    await invokeTool('unsubscribe_all', {});
  });
  test('suggestions for the active editor reach the prompt after the subscriptions and before the question', async () => {
    writeWorkspaceFile('src/pinned.ts', 'export const PINNED_MARK = 1;\n');
    await invokeTool('subscribe_file', { path: 'src/pinned.ts' });
    const doc = await vscode.workspace.openTextDocument(path.join(workspaceRoot(), 'src', 'pricing.ts'));
    const line = doc
      .getText()
      .split('\n')
      .findIndex((l) => l.includes('export function applyDiscount'));
    assert.ok(line >= 0, 'the demo workspace has no applyDiscount in src/pricing.ts');
    const editor = await vscode.window.showTextDocument(doc);
    editor.selection = new vscode.Selection(line + 1, 2, line + 1, 2);
    await newChat();
    // The index and decision records load in the background after activation: ask until they are in.
    const req = await waitFor(
      async () => {
        const r = await ask(`@context ${QUESTION}`);
        return /Cap discounts at fifty percent/.test(allText(r)) ? r : undefined;
      },
      45_000,
      'ADR 3 (which governs applyDiscount) to be suggested in the prompt',
    );
    const suggestions = indexOfText(req, '### Suggestions for the active editor');
    assert.ok(suggestions >= 0, 'no suggestions section in the prompt');
    assert.ok(indexOfText(req, 'PINNED_MARK') < suggestions, 'the subscriptions do not come before the suggestions');
    assert.ok(suggestions < req.messages.length - 1, 'the suggestions come after the question');
    assert.equal(req.messages[req.messages.length - 1].text.trim(), QUESTION);
    await invokeTool('unsubscribe_all', {});
  });

  test('earlier conversations come back as memory, never the current one', async () => {
    await newChat();
    await ask('@context how do we retry the ZEBRAFISH payment webhook?');
    await newChat();
    const first = await ask('@context remind me about ZEBRAFISH');
    const memoryAt = indexOfText(first, '### Relevant memory');
    assert.ok(memoryAt >= 0, `no memory section:\n${allText(first)}`);
    assert.match(
      first.messages[memoryAt].text,
      /retry the ZEBRAFISH payment webhook/,
      'the earlier conversation is not recalled',
    );
    const second = await ask('@context and ZEBRAFISH refunds?');
    const memory = second.messages.find((m) => m.text.startsWith('### Relevant memory'));
    assert.ok(memory, 'no memory section on the second turn');
    assert.ok(!memory.text.includes('remind me about ZEBRAFISH'), 'the current conversation was recalled as memory');
    assert.ok(
      indexOfText(second, 'remind me about ZEBRAFISH') >= 0,
      'the current conversation is missing from the history',
    );
  });

  test('a small model gets a prompt cut to its input limit, with the question intact and last', async () => {
    writeWorkspaceFile('src/huge1.ts', `// HUGE_ONE\n${'const a = 1; // padding padding\n'.repeat(120)}`);
    writeWorkspaceFile('src/huge2.ts', `// HUGE_TWO\n${'const b = 2; // padding padding\n'.repeat(120)}`);
    await invokeTool('subscribe_file', { path: 'src/huge1.ts' });
    await invokeTool('subscribe_file', { path: 'src/huge2.ts' });
    await newChat();
    const req = await ask(`@context ${QUESTION}`, 'fake-lm-small');
    assert.equal(req.model, 'fake-lm-small');
    const tokens = req.messages.reduce((n, m) => n + Math.ceil(m.text.length / 4), 0);
    assert.ok(tokens <= 700, `the prompt has ${tokens} tokens, over the model's 700`);
    assert.ok(
      !(allText(req).includes('HUGE_ONE') && allText(req).includes('HUGE_TWO')),
      'nothing was cut although both files do not fit',
    );
    assert.equal(req.messages[req.messages.length - 1].text.trim(), QUESTION);
    await invokeTool('unsubscribe_all', {});
  });

  test('/decide drafts an ADR from the conversation with the model and writes it only when confirmed', async () => {
    const adrDir = path.join(workspaceRoot(), 'docs', 'adr');
    const before = new Set(fs.readdirSync(adrDir));
    await newChat();
    await ask('@context should checkout publish an OrderPlaced event instead of calling billing?');
    await vscode.commands.executeCommand(
      'fakeLm.setReply',
      JSON.stringify({
        title: 'x',
        context: 'Checkout calls billing directly.',
        decision: 'Publish OrderPlaced events.',
        consequences: 'Billing subscribes.',
      }),
    );
    try {
      const draftReq = await ask('@context /decide Publish order events');
      const prompt = allText(draftReq);
      assert.match(prompt, /titled "Publish order events"/);
      assert.match(
        prompt,
        /User: should checkout publish an OrderPlaced event/,
        'the conversation is not in the drafting prompt',
      );
    } finally {
      await vscode.commands.executeCommand('fakeLm.setReply', null);
    }
    await sleep(500);
    assert.deepEqual(
      fs.readdirSync(adrDir).filter((f) => !before.has(f)),
      [],
      'an ADR was written before the user confirmed',
    );
    const written = await waitFor(
      async () => vscode.commands.executeCommand<string | undefined>('proactiveContext.chat.confirmDecision'),
      10_000,
      'the draft to be ready',
    );
    assert.match(written, /^docs\/adr\/0005-publish-order-events\.md$/);
    const text = fs.readFileSync(path.join(workspaceRoot(), ...written.split('/')), 'utf8');
    assert.match(text, /Publish order events/);
    assert.match(text, /Publish OrderPlaced events\./);
    assert.equal(
      await vscode.commands.executeCommand('proactiveContext.chat.confirmDecision'),
      undefined,
      'a draft was recorded twice',
    );
  });
  test('a model failure becomes a plain message in the answer, without a stack trace', async () => {
    await newChat();
    await vscode.commands.executeCommand('fakeLm.failNext', 'the fake backend is overloaded');
    await ask('@context first try');
    // The failed turn's answer is part of the history the next turn sends.
    const next = await ask('@context second try');
    const answer = next.messages.find((m) => m.role === 'assistant');
    assert.ok(answer, `the failed turn left no answer in the history:\n${allText(next)}`);
    assert.match(answer.text, /The chat model (could not answer|reported an error).*the fake backend is overloaded/);
    assert.doesNotMatch(answer.text, /\n\s+at /, 'the answer shows a stack trace');
  });
});
