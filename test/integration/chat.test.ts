// `@context` in a real chat view: a question typed in the chat reaches the participant, whose prompt
// (recorded by the fake model) holds the subscribed file's current content before the question.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateExtension, allText, ask, indexOfText, invokeTool, newChat, requireFakeModel, sendCommand, writeWorkspaceFile } from './chatSupport';

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
    const uri = writeWorkspaceFile(FILE, 'export function alphaRate(): number {\n  return 0.17; // ALPHA_MARKER_ONE\n}\n');
    const editor = await vscode.window.showTextDocument(uri);
    await vscode.commands.executeCommand('proactiveContext.subscribeFile');
    assert.match(await invokeTool('list_subscriptions', {}), /src\/chatSubject\.ts/, 'the palette command did not subscribe to the active file');

    await newChat();
    const first = await ask(`@context ${QUESTION}`);
    const last = first.messages[first.messages.length - 1];
    assert.equal(last.role, 'user');
    assert.equal(last.text.trim(), QUESTION, 'the question is not the last message of the prompt');
    const at = indexOfText(first, 'ALPHA_MARKER_ONE');
    assert.ok(at >= 0, `the subscribed file's content is not in the prompt:\n${allText(first)}`);
    assert.ok(at < first.messages.length - 1, 'the subscribed content comes after the question');

    await editor.edit((b) => b.replace(new vscode.Range(0, 0, editor.document.lineCount, 0), 'export function alphaRate(): number {\n  return 0.42; // ALPHA_MARKER_TWO\n}\n'));
    assert.ok(await editor.document.save(), 'saving the edited file failed');
    const second = await ask(`@context ${QUESTION}`);
    assert.ok(indexOfText(second, 'ALPHA_MARKER_TWO') >= 0, 'the edited content is not in the next prompt');
    assert.equal(indexOfText(second, 'ALPHA_MARKER_ONE'), -1, 'the old content is still in the prompt after the edit');
    assert.match(allText(second), /changed since last turn/, 'the prompt does not say the subscription changed');
    assert.equal(second.messages[second.messages.length - 1].text.trim(), QUESTION);

    await sendCommand('@context /unsubscribe all', async () => /No active subscriptions/.test(await invokeTool('list_subscriptions', {})), 'the /unsubscribe command to remove the subscription');
    const third = await ask(`@context ${QUESTION}`);
    assert.equal(indexOfText(third, 'ALPHA_MARKER'), -1, 'the content is still in the prompt after unsubscribing');
    assert.equal(third.messages[third.messages.length - 1].text.trim(), QUESTION);
  });

  test('/subscribe in the chat takes a line range, and only those lines reach the prompt', async () => {
    const lines = Array.from({ length: 30 }, (_, i) => `const line${i + 1} = ${i + 1}; // LINE_MARK_${i + 1}_END`);
    writeWorkspaceFile('src/ranged.ts', lines.join('\n') + '\n');
    await newChat();
    await sendCommand('@context /subscribe src/ranged.ts#L10-12', async () => /src\/ranged\.ts lines 10.12/.test(await invokeTool('list_subscriptions', {})), 'the /subscribe command to add the range');
    const req = await ask(`@context ${QUESTION}`);
    const text = allText(req);
    for (const n of [10, 11, 12]) assert.ok(text.includes(`LINE_MARK_${n}_END`), `line ${n} is missing from the prompt`);
    for (const n of [9, 13]) assert.ok(!text.includes(`LINE_MARK_${n}_END`), `line ${n} is outside the range but in the prompt`);
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
    assert.ok(!allText(req).includes('`/ledger` for details'), 'the ledger footer of the earlier answer leaked into the history');
    await invokeTool('unsubscribe_all', {});
  });
});
